/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-link-check.h"
#include "mg-own-frames.h"
#include "mg-probe-filter.h"

#include <arpa/inet.h>
#include <errno.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <time.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MG_ROUNDS 2
/* More frames that could be evidence than a busy office LAN carries in a
 * window (ARP there is tens per second): past this the link is flooded, and
 * the check ends with what it has rather than keep activation waiting. */
#define MG_FRAME_BUDGET 4096
#define MG_SENT_MAX (MG_ROUNDS * (1 + MG_PROBE_MAX_IPV4))

struct _MgLinkCheck {
	int fd;
	int ifindex;
	gint64 started; /* the window's start */
	guint8 sent[MG_SENT_MAX][MG_PROBE_FRAME_MAX];
	gsize sent_len[MG_SENT_MAX];
	guint n_sent;
	MgOwnFrames own; /* the machine's own broadcasts, for their copies */
};

static gboolean
mg_check_fail(MgLinkCheck *c, const char *what, GError **error)
{
	int err = errno;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err), "%s: %s", what, g_strerror(err));
	return FALSE;
}

static gboolean
mg_check_send(MgLinkCheck *c, const guint8 *frame, gsize len, GError **error)
{
	struct sockaddr_ll to = {
		.sll_family = AF_PACKET,
		.sll_ifindex = c->ifindex,
		.sll_halen = ETH_ALEN,
	};

	memcpy(to.sll_addr, frame, ETH_ALEN);
	if (sendto(c->fd, frame, len, 0, (const struct sockaddr *)&to, sizeof(to)) < 0)
		return mg_check_fail(c, _("cannot send a probe"), error);
	if (c->n_sent < MG_SENT_MAX) {
		memcpy(c->sent[c->n_sent], frame, len);
		c->sent_len[c->n_sent++] = len;
	}
	return TRUE;
}

static gboolean
mg_check_send_round(MgLinkCheck *c, const MgProbeTarget *target, MgProbeKinds kinds, GError **error)
{
	guint8 frame[MG_PROBE_FRAME_MAX];

	if ((kinds & MG_PROBE_IPV6) &&
	    !mg_check_send(c, frame, mg_probe_build_ns(target, frame), error))
		return FALSE;
	for (guint i = 0; (kinds & MG_PROBE_ARP) && i < target->n_ipv4; i++) {
		if (!mg_check_send(c, frame, mg_probe_build_arp(target, i, frame), error))
			return FALSE;
	}
	return TRUE;
}

/* A switch or access point that reflects our own probe back to us (Wi-Fi
 * access points repeat a station's multicast to every station) is not
 * another station. */
static gboolean
mg_check_is_own(const MgLinkCheck *c, const guint8 *frame, gsize len)
{
	for (guint i = 0; i < c->n_sent; i++) {
		gsize n = c->sent_len[i];
		if (len >= n && memcmp(frame, c->sent[i], n) == 0)
			return TRUE;
	}
	return FALSE;
}

/* The socket sees nothing until the filter is on: it is opened for no
 * protocol, filtered, and only then bound to every protocol of the link. */
static gboolean
mg_check_open(MgLinkCheck *c, const MgMac *mac, GError **error)
{
	struct sock_filter prog[MG_PROBE_FILTER_LEN];
	const struct sock_fprog fprog = { .len = MG_PROBE_FILTER_LEN, .filter = prog };
	struct sockaddr_ll here = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = c->ifindex,
	};

	c->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (c->fd < 0)
		return mg_check_fail(c, _("cannot open a packet socket"), error);
	mg_probe_filter_build(mac, prog);
	if (setsockopt(c->fd, SOL_SOCKET, SO_ATTACH_FILTER, &fprog, sizeof(fprog)) < 0)
		return mg_check_fail(c, _("cannot filter the packet socket"), error);
	/* The machine's own transmissions are read too: they are not
	 * evidence, but a copy of one an access point repeats must be told
	 * (mg-own-frames.h). */
	if (bind(c->fd, (const struct sockaddr *)&here, sizeof(here)) < 0)
		return mg_check_fail(c, _("cannot bind the packet socket"), error);
	return TRUE;
}

/* Reads what is waiting, but never past the window's end or the budget: a
 * link that carries frames faster than they are read cannot hold the check
 * (and NetworkManager's activation, which waits for it) beyond its window. */
static gboolean
mg_check_drain(
    MgLinkCheck *c, const MgProbeTarget *target, gint64 end, MgProbeTally *tally, GError **error)
{
	for (;;) {
		guint8 frame[2048];
		struct sockaddr_ll from;
		socklen_t from_len = sizeof(from);
		ssize_t n;

		if (tally->frames_read >= MG_FRAME_BUDGET) {
			tally->flooded = TRUE;
			return TRUE;
		}
		if (g_get_monotonic_time() >= end)
			return TRUE;
		n = recvfrom(c->fd, frame, sizeof(frame), 0, (struct sockaddr *)&from, &from_len);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return TRUE;
			return mg_check_fail(c, _("cannot read from the link"), error);
		}
		tally->frames_read++;
		if (from.sll_pkttype == PACKET_OUTGOING) {
			mg_own_frames_note(&c->own, frame, (gsize)n, g_get_monotonic_time());
			continue;
		}
		if (from.sll_ifindex != c->ifindex || mg_check_is_own(c, frame, (gsize)n) ||
		    mg_own_frames_is_copy(&c->own, frame, (gsize)n, g_get_monotonic_time()))
			continue;
		mg_probe_tally_add(tally, mg_probe_classify(target, frame, (gsize)n));
	}
}

MgLinkCheck *
mg_link_check_open(int ifindex, const MgMac *mac, gint64 window_start, GError **error)
{
	g_autofree MgLinkCheck *c = g_new0(MgLinkCheck, 1);

	c->fd = -1;
	c->ifindex = ifindex;
	if (!mg_check_open(c, mac, error))
		return NULL;
	c->started = window_start;
	return g_steal_pointer(&c);
}

int
mg_link_check_steal_socket(MgLinkCheck *c, const MgMac *mac, GError **error)
{
	struct sock_filter prog[MG_SOURCE_FILTER_LEN];
	const struct sock_fprog fprog = { .len = MG_SOURCE_FILTER_LEN, .filter = prog };
	int fd = c->fd;

	if (fd < 0) {
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_CLOSED, "no socket");
		return -1;
	}
	mg_probe_filter_build_source(mac, prog);
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &fprog, sizeof(fprog)) < 0) {
		mg_check_fail(c, _("cannot filter the packet socket"), error);
		return -1;
	}
	c->fd = -1;
	return fd;
}

void
mg_link_check_free(MgLinkCheck *c)
{
	if (c == NULL)
		return;
	if (c->fd >= 0)
		close(c->fd);
	g_free(c);
}

gboolean
mg_link_check_finish(MgLinkCheck *c,
		     const MgProbeTarget *target,
		     MgProbeKinds kinds,
		     guint window_ms,
		     MgProbeTally *tally,
		     GError **error)
{
	gint64 first_round = g_get_monotonic_time();
	/* The window counts from the open; but however long macguised took to
	 * answer, the probes are listened for at least half a window. */
	gint64 end = MAX(c->started + (gint64)window_ms * 1000, first_round + window_ms * 500);
	gint64 second_round = first_round + (end - first_round) / 2;
	guint rounds = 0;

	/* What came while macguised was asked is read first; then the probes
	 * go out, and again half-way through what is left. */
	if (!mg_check_drain(c, target, end, tally, error))
		return FALSE;
	for (;;) {
		gint64 now = g_get_monotonic_time();
		gint64 next = end;
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		struct timespec wait;
		gint64 wait_us;
		int r;

		if (rounds < MG_ROUNDS && (rounds == 0 || now >= second_round)) {
			if (!mg_check_send_round(c, target, kinds, error))
				return FALSE;
			rounds++;
		}
		if (now >= end || tally->flooded)
			break;
		if (rounds < MG_ROUNDS)
			next = MIN(next, second_round);
		/* To the microsecond: poll()'s whole milliseconds would end
		 * the window half a millisecond late on average. */
		wait_us = MAX(0, next - now);
		wait.tv_sec = wait_us / G_USEC_PER_SEC;
		wait.tv_nsec = wait_us % G_USEC_PER_SEC * 1000;
		r = ppoll(&pfd, 1, &wait, NULL);
		if (r < 0 && errno != EINTR)
			return mg_check_fail(c, _("cannot watch the link"), error);
		if (r > 0 && !mg_check_drain(c, target, end, tally, error))
			return FALSE;
	}
	return TRUE;
}
