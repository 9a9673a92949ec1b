/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <linux/netlink.h>

G_BEGIN_DECLS

/* One rtnetlink message of a dump, and each of its attributes. */
typedef void (*MgNetlinkMessageFunc)(const struct nlmsghdr *message, gpointer user_data);
typedef void (*MgNetlinkAttrFunc)(guint16 type, const guint8 *data, gsize len, gpointer user_data);

/* Dumps the kernel's table @request_type (RTM_GETADDR, RTM_GETNEIGH, ...)
 * for @family in this network namespace, calling @func for every message of
 * type @reply_type. @header_len is the size of the family header (struct
 * ifaddrmsg, struct ndmsg) that starts the request and every reply. */
gboolean mg_netlink_dump(guint16 request_type,
			 guint16 reply_type,
			 guint8 family,
			 gsize header_len,
			 MgNetlinkMessageFunc func,
			 gpointer user_data,
			 GError **error);
/* The attributes after a message's @header_len-byte family header. */
void mg_netlink_each_attr(const struct nlmsghdr *message,
			  gsize header_len,
			  MgNetlinkAttrFunc func,
			  gpointer user_data);

G_END_DECLS
