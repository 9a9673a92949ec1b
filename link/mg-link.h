/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-mac.h"
#include "mg-probe.h"

G_BEGIN_DECLS

/* What the kernel says about one Ethernet-like link. */
typedef struct {
	int ifindex;
	MgMac mac; /* the address it uses now */
	guint8 ipv4[MG_PROBE_MAX_IPV4][4];
	guint n_ipv4;
	gboolean dad_failed_eui64; /* IPv6 DAD failed on an address made from @mac */
	gboolean dad_failed_other; /* ... on another IPv6 address */
} MgLinkInfo;

/* An interface that is not Ethernet-like (no 6-byte address) is an error. */
gboolean mg_link_read(const char *iface, MgLinkInfo *info, GError **error);

G_END_DECLS
