/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-neighbours.h"

#include <errno.h>
#include <gio/gio.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mg-mac.h"

/* The kernel's NLMSG_* and RTA_* macros walk the buffer through char
 * pointers. The buffer below is 4-byte aligned and the kernel pads every
 * message and attribute to 4 bytes (NLMSG_ALIGNTO, RTA_ALIGNTO), so the
 * casts clang warns about are aligned. */
#pragma GCC diagnostic ignored "-Wcast-align"

static void
mg_neighbours_parse(GArray *out, const struct nlmsghdr *h)
{
	const struct ndmsg *nd = NLMSG_DATA(h);
	const struct rtattr *rta =
	    (const struct rtattr *)((const char *)nd + NLMSG_ALIGN(sizeof(*nd)));
	int len = (int)h->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*nd));

	for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		MgMac m;
		if (rta->rta_type != NDA_LLADDR || RTA_PAYLOAD(rta) != MG_MAC_LEN)
			continue;
		memcpy(m.octet, RTA_DATA(rta), MG_MAC_LEN);
		if (!mg_mac_is_zero(&m))
			g_array_append_val(out, m);
	}
}

/* Reports errno, closes @fd if it is open, and returns NULL. */
static GArray *
mg_neighbours_fail(int fd, GError **error)
{
	int saved = errno;

	if (fd >= 0)
		close(fd);
	g_set_error(
	    error, G_IO_ERROR, g_io_error_from_errno(saved), "netlink: %s", g_strerror(saved));
	return NULL;
}

GArray *
mg_neighbours_read(GError **error)
{
	g_autoptr(GArray) out = g_array_new(FALSE, FALSE, sizeof(MgMac));
	struct {
		struct nlmsghdr h;
		struct ndmsg nd;
	} req = { 0 };
	guint32 buf[4096]; /* aligned for struct nlmsghdr */
	gboolean done = FALSE;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0)
		return mg_neighbours_fail(-1, error);
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(req.nd));
	req.h.nlmsg_type = RTM_GETNEIGH;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.h.nlmsg_seq = 1;
	req.nd.ndm_family = AF_UNSPEC;
	if (send(fd, &req, req.h.nlmsg_len, 0) < 0)
		return mg_neighbours_fail(fd, error);
	while (!done) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return mg_neighbours_fail(fd, error);
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (guint)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				done = TRUE;
				break;
			}
			if (h->nlmsg_type == RTM_NEWNEIGH)
				mg_neighbours_parse(out, h);
		}
		if (n == 0)
			done = TRUE;
	}
	close(fd);
	return g_steal_pointer(&out);
}
