/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-link.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mg-netlink.h"

typedef struct {
	MgLinkInfo *info;
	guint8 family;
	guint32 flags;
	guint8 address[16];
	gboolean has_address;
	guint8 local[4];
	gboolean has_local;
} MgAddrParse;

static void
mg_link_addr_attr(guint16 type, const guint8 *data, gsize len, gpointer user_data)
{
	MgAddrParse *a = user_data;

	if (type == IFA_FLAGS && len == sizeof(guint32))
		memcpy(&a->flags, data, sizeof(guint32));
	else if (type == IFA_ADDRESS && len == (a->family == AF_INET6 ? 16u : 4u)) {
		memcpy(a->address, data, len);
		a->has_address = TRUE;
	} else if (type == IFA_LOCAL && a->family == AF_INET && len == 4) {
		/* on point-to-point links IFA_ADDRESS is the peer's */
		memcpy(a->local, data, 4);
		a->has_local = TRUE;
	}
}

static void
mg_link_addr_message(const struct nlmsghdr *message, gpointer user_data)
{
	MgLinkInfo *info = user_data;
	const struct ifaddrmsg *ifa = NLMSG_DATA(message);
	MgAddrParse a = { .info = info, .family = ifa->ifa_family, .flags = ifa->ifa_flags };

	if ((int)ifa->ifa_index != info->ifindex)
		return;
	mg_netlink_each_attr(message, sizeof(*ifa), mg_link_addr_attr, &a);
	if (a.family == AF_INET && (a.has_local || a.has_address) &&
	    info->n_ipv4 < MG_PROBE_MAX_IPV4) {
		memcpy(info->ipv4[info->n_ipv4++], a.has_local ? a.local : a.address, 4);
	} else if (a.family == AF_INET6 && a.has_address && (a.flags & IFA_F_DADFAILED)) {
		if (mg_ipv6_is_eui64_of(a.address, &info->mac))
			info->dad_failed_eui64 = TRUE;
		else
			info->dad_failed_other = TRUE;
	}
}

gboolean
mg_link_read(const char *iface, MgLinkInfo *info, GError **error)
{
	struct ifreq ifr;
	int fd;

	memset(info, 0, sizeof(*info));
	info->ifindex = (int)if_nametoindex(iface);
	if (info->ifindex == 0) {
		int err = errno;
		g_set_error(error,
			    G_IO_ERROR,
			    g_io_error_from_errno(err),
			    _("no interface %s: %s"),
			    iface,
			    g_strerror(err));
		return FALSE;
	}
	memset(&ifr, 0, sizeof(ifr));
	g_strlcpy(ifr.ifr_name, iface, sizeof(ifr.ifr_name));
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		g_set_error(error,
			    G_IO_ERROR,
			    g_io_error_from_errno(err),
			    _("cannot read the address of %s: %s"),
			    iface,
			    g_strerror(err));
		return FALSE;
	}
	close(fd);
	if (ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER) {
		g_set_error(error,
			    G_IO_ERROR,
			    G_IO_ERROR_NOT_SUPPORTED,
			    _("%s is not an Ethernet or Wi-Fi link"),
			    iface);
		return FALSE;
	}
	memcpy(info->mac.octet, ifr.ifr_hwaddr.sa_data, MG_MAC_LEN);
	return mg_netlink_dump(RTM_GETADDR,
			       RTM_NEWADDR,
			       AF_UNSPEC,
			       sizeof(struct ifaddrmsg),
			       mg_link_addr_message,
			       info,
			       error);
}
