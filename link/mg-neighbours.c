/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-neighbours.h"

#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>

#include "mg-mac.h"
#include "mg-netlink.h"

static void
mg_neighbours_attr(guint16 type, const guint8 *data, gsize len, gpointer user_data)
{
	GArray *out = user_data;
	MgMac m;

	if (type != NDA_LLADDR || len != MG_MAC_LEN)
		return;
	memcpy(m.octet, data, MG_MAC_LEN);
	if (!mg_mac_is_zero(&m))
		g_array_append_val(out, m);
}

static void
mg_neighbours_message(const struct nlmsghdr *message, gpointer user_data)
{
	mg_netlink_each_attr(message, sizeof(struct ndmsg), mg_neighbours_attr, user_data);
}

GArray *
mg_neighbours_read(GError **error)
{
	g_autoptr(GArray) out = g_array_new(FALSE, FALSE, sizeof(MgMac));

	if (!mg_netlink_dump(RTM_GETNEIGH,
			     RTM_NEWNEIGH,
			     AF_UNSPEC,
			     sizeof(struct ndmsg),
			     mg_neighbours_message,
			     out,
			     error))
		return NULL;
	return g_steal_pointer(&out);
}
