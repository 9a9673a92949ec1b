/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-stations.h"

#include <errno.h>
#include <gio/gio.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* As in mg-netlink.c: the buffers are 4-byte aligned and the kernel pads
 * every message and attribute to 4 bytes. */
#pragma GCC diagnostic ignored "-Wcast-align"

/* From <linux/nl80211.h>, which not every libc's kernel headers carry in
 * the same version; these values are part of the stable kernel ABI. */
#define MG_NL80211_CMD_GET_STATION 17
#define MG_NL80211_CMD_NEW_STATION 19
#define MG_NL80211_ATTR_IFINDEX 3

typedef struct {
	struct nlmsghdr h;
	struct genlmsghdr g;
	guint8 attrs[64];
} MgGenlRequest;

static gboolean
mg_genl_fail(int err, GError **error)
{
	g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err), "nl80211: %s", g_strerror(err));
	return FALSE;
}

static void
mg_genl_put(MgGenlRequest *req, guint16 type, const void *data, guint16 len)
{
	struct nlattr *a = (struct nlattr *)((guint8 *)req + NLMSG_ALIGN(req->h.nlmsg_len));
	a->nla_type = type;
	a->nla_len = (guint16)(NLA_HDRLEN + len);
	memcpy((guint8 *)a + NLA_HDRLEN, data, len);
	req->h.nlmsg_len = NLMSG_ALIGN(req->h.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/* Sends @req and reads the replies: with @dump, counts messages of
 * @count_type; without, takes the family id out of a CTRL_CMD_NEWFAMILY. */
static gboolean
mg_genl_talk(
    int fd, MgGenlRequest *req, guint16 count_type, guint *count, guint16 *family, GError **error)
{
	guint32 buf[8192];

	if (send(fd, req, req->h.nlmsg_len, 0) < 0)
		return mg_genl_fail(errno, error);
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return mg_genl_fail(errno, error);
		if (n == 0)
			return TRUE;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (guint)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return TRUE;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);
				return e->error == 0 ? TRUE : mg_genl_fail(-e->error, error);
			}
			if (family != NULL && h->nlmsg_type == GENL_ID_CTRL) {
				int len = (int)h->nlmsg_len - (int)NLMSG_LENGTH(GENL_HDRLEN);
				const struct nlattr *a =
				    (const struct nlattr *)((const guint8 *)NLMSG_DATA(h) +
							    GENL_HDRLEN);
				while (len >= (int)NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
				       a->nla_len <= len) {
					if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID &&
					    a->nla_len >= NLA_HDRLEN + sizeof(guint16))
						memcpy(family,
						       (const guint8 *)a + NLA_HDRLEN,
						       sizeof(guint16));
					len -= NLA_ALIGN(a->nla_len);
					a = (const struct nlattr *)((const guint8 *)a +
								    NLA_ALIGN(a->nla_len));
				}
				if (!(h->nlmsg_flags & NLM_F_MULTI))
					return TRUE;
			} else if (count != NULL && h->nlmsg_len >= NLMSG_LENGTH(GENL_HDRLEN)) {
				const struct genlmsghdr *g = NLMSG_DATA(h);
				if (g->cmd == count_type)
					(*count)++;
			}
		}
	}
}

gboolean
mg_stations_count(int ifindex, guint *count, GError **error)
{
	static const char name[] = "nl80211";
	MgGenlRequest req;
	guint16 family = 0;
	guint32 index = (guint32)ifindex;
	gboolean ok;
	int fd;

	*count = 0;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return mg_genl_fail(errno, error);

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	req.h.nlmsg_type = GENL_ID_CTRL;
	req.h.nlmsg_flags = NLM_F_REQUEST;
	req.h.nlmsg_seq = 1;
	req.g.cmd = CTRL_CMD_GETFAMILY;
	req.g.version = 1;
	mg_genl_put(&req, CTRL_ATTR_FAMILY_NAME, name, sizeof(name));
	ok = mg_genl_talk(fd, &req, 0, NULL, &family, error);
	if (ok && family == 0)
		ok = mg_genl_fail(ENOENT, error);
	if (ok) {
		memset(&req, 0, sizeof(req));
		req.h.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
		req.h.nlmsg_type = family;
		req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		req.h.nlmsg_seq = 2;
		req.g.cmd = MG_NL80211_CMD_GET_STATION;
		mg_genl_put(&req, MG_NL80211_ATTR_IFINDEX, &index, sizeof(index));
		ok = mg_genl_talk(fd, &req, MG_NL80211_CMD_NEW_STATION, count, NULL, error);
	}
	close(fd);
	return ok;
}
