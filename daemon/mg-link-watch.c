/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-link-watch.h"
#include "mg-own-frames.h"
#include "mg-probe-filter.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <linux/if_packet.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Frames read per wake-up: what the hook's filter let in before the
 * watch's own took over is read in turns with the rest of the main loop. */
#define MG_WATCH_READS_PER_WAKE 256
struct _MgLinkWatch {
	int fd;
	MgMac mac;
	MgOwnFrames own;
	gint64 started;
	guint fd_source;
	guint timeout_source;
	MgLinkWatchEnded ended;
	gpointer user_data;
};

static void
mg_link_watch_stop(MgLinkWatch *w)
{
	g_clear_handle_id(&w->fd_source, g_source_remove);
	g_clear_handle_id(&w->timeout_source, g_source_remove);
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}

static void
mg_link_watch_end(MgLinkWatch *w, const char *evidence)
{
	guint after_ms = (guint)((g_get_monotonic_time() - w->started) / 1000);

	mg_link_watch_stop(w);
	w->ended(evidence, after_ms, w->user_data);
}

/* TRUE: a frame another station sent from the address. The machine's own
 * are noted (they come through the filter too) and a copy of one of them
 * is not counted; frames the hook's wider filter let in before this one
 * took over are checked here. */
static gboolean
mg_link_watch_is_evidence(MgLinkWatch *w, const guint8 *frame, gsize n, int pkttype)
{
	if (n < 14 || (frame[0] & 1) == 0 || memcmp(frame + 6, w->mac.octet, MG_MAC_LEN) != 0)
		return FALSE;
	if (pkttype == PACKET_OUTGOING) {
		mg_own_frames_note(&w->own, frame, n, g_get_monotonic_time());
		return FALSE;
	}
	return !mg_own_frames_is_copy(&w->own, frame, n, g_get_monotonic_time());
}

static gboolean
mg_link_watch_readable(int fd, GIOCondition condition, gpointer user_data)
{
	MgLinkWatch *w = user_data;

	for (guint i = 0; i < MG_WATCH_READS_PER_WAKE; i++) {
		guint8 frame[MG_OWN_FRAME_BYTES];
		struct sockaddr_ll from;
		socklen_t from_len = sizeof(from);
		ssize_t n = recvfrom(
		    fd, frame, sizeof(frame), MSG_DONTWAIT, (struct sockaddr *)&from, &from_len);

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return G_SOURCE_CONTINUE;
		if (n < 0) {
			/* ENETDOWN: the link went down, the connection with it */
			g_debug("the passive watch ends: %s", g_strerror(errno));
			w->fd_source = 0;
			mg_link_watch_end(w, NULL);
			return G_SOURCE_REMOVE;
		}
		if (mg_link_watch_is_evidence(w, frame, (gsize)n, from.sll_pkttype)) {
			g_autofree char *evidence = g_strdup_printf(
			    _("passive: a frame from another station with this address, %u s "
			      "after the check"),
			    (guint)((g_get_monotonic_time() - w->started) / G_USEC_PER_SEC));
			w->fd_source = 0;
			mg_link_watch_end(w, evidence);
			return G_SOURCE_REMOVE;
		}
	}
	return G_SOURCE_CONTINUE;
}

static gboolean
mg_link_watch_timed_out(gpointer user_data)
{
	MgLinkWatch *w = user_data;

	w->timeout_source = 0;
	mg_link_watch_end(w, NULL);
	return G_SOURCE_REMOVE;
}

/* The socket must be what the hook watched with: a packet socket on the
 * interface it names. */
static gboolean
mg_link_watch_check_socket(int fd, int ifindex, GError **error)
{
	struct sockaddr_ll here = { 0 };
	socklen_t len = sizeof(here);
	int domain = 0;
	socklen_t domain_len = sizeof(domain);

	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &domain_len) < 0 ||
	    domain != AF_PACKET || getsockname(fd, (struct sockaddr *)&here, &len) < 0 ||
	    here.sll_ifindex != ifindex) {
		g_set_error_literal(error,
				    G_IO_ERROR,
				    G_IO_ERROR_INVALID_ARGUMENT,
				    "the socket is not a packet socket on the interface");
		return FALSE;
	}
	return TRUE;
}

MgLinkWatch *
mg_link_watch_new(int fd,
		  int ifindex,
		  const MgMac *mac,
		  guint seconds,
		  MgLinkWatchEnded ended,
		  gpointer user_data,
		  GError **error)
{
	struct sock_filter prog[MG_SOURCE_FILTER_LEN];
	const struct sock_fprog fprog = { .len = MG_SOURCE_FILTER_LEN, .filter = prog };
	MgLinkWatch *w;

	if (!mg_link_watch_check_socket(fd, ifindex, error)) {
		close(fd);
		return NULL;
	}
	mg_probe_filter_build_source(mac, prog);
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &fprog, sizeof(fprog)) < 0) {
		int err = errno;
		close(fd);
		g_set_error(error,
			    G_IO_ERROR,
			    g_io_error_from_errno(err),
			    "cannot filter the socket: %s",
			    g_strerror(err));
		return NULL;
	}
	w = g_new0(MgLinkWatch, 1);
	w->fd = fd;
	w->mac = *mac;
	w->started = g_get_monotonic_time();
	w->ended = ended;
	w->user_data = user_data;
	w->fd_source = g_unix_fd_add(fd, G_IO_IN | G_IO_ERR | G_IO_HUP, mg_link_watch_readable, w);
	w->timeout_source = g_timeout_add_seconds(seconds, mg_link_watch_timed_out, w);
	return w;
}

void
mg_link_watch_free(MgLinkWatch *w)
{
	if (w == NULL)
		return;
	mg_link_watch_stop(w);
	g_free(w);
}
