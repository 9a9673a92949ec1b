/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-netlink.h"

#include <errno.h>
#include <gio/gio.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The kernel's NLMSG_* and RTA_* macros walk the buffer through char
 * pointers. The buffer below is 4-byte aligned and the kernel pads every
 * message and attribute to 4 bytes (NLMSG_ALIGNTO, RTA_ALIGNTO), so the
 * casts clang warns about are aligned. */
#pragma GCC diagnostic ignored "-Wcast-align"

#define MG_NETLINK_HEADER_MAX 32

void
mg_netlink_each_attr(const struct nlmsghdr *message,
		     gsize header_len,
		     MgNetlinkAttrFunc func,
		     gpointer user_data)
{
	const struct rtattr *rta;
	int len = (int)message->nlmsg_len - (int)NLMSG_LENGTH(header_len);

	if (len <= 0)
		return;
	rta = (const struct rtattr *)((const char *)NLMSG_DATA(message) + NLMSG_ALIGN(header_len));
	for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len))
		func(rta->rta_type, RTA_DATA(rta), RTA_PAYLOAD(rta), user_data);
}

static gboolean
mg_netlink_fail(int fd, int err, GError **error)
{
	if (fd >= 0)
		close(fd);
	g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err), "netlink: %s", g_strerror(err));
	return FALSE;
}

gboolean
mg_netlink_dump(guint16 request_type,
		guint16 reply_type,
		guint8 family,
		gsize header_len,
		MgNetlinkMessageFunc func,
		gpointer user_data,
		GError **error)
{
	struct {
		struct nlmsghdr h;
		guint8 payload[MG_NETLINK_HEADER_MAX];
	} req;
	guint32 buf[8192]; /* aligned for struct nlmsghdr */
	int fd;

	g_return_val_if_fail(header_len <= MG_NETLINK_HEADER_MAX, FALSE);
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = NLMSG_LENGTH(header_len);
	req.h.nlmsg_type = request_type;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.h.nlmsg_seq = 1;
	req.payload[0] = family; /* every rtnetlink family header starts with it */

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return mg_netlink_fail(-1, errno, error);
	if (send(fd, &req, req.h.nlmsg_len, 0) < 0)
		return mg_netlink_fail(fd, errno, error);
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return mg_netlink_fail(fd, errno, error);
		if (n == 0)
			break;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (guint)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE) {
				close(fd);
				return TRUE;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);
				if (e->error != 0)
					return mg_netlink_fail(fd, -e->error, error);
				close(fd);
				return TRUE;
			}
			if (h->nlmsg_type == reply_type && h->nlmsg_len >= NLMSG_LENGTH(header_len))
				func(h, user_data);
		}
	}
	close(fd);
	return TRUE;
}
