/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The link-layer addresses in the kernel's neighbour tables (ARP and IPv6
 * neighbour cache) of this network namespace, as an array of MgMac: other
 * stations seen on the links, whose addresses macguise must not take. */
GArray *mg_neighbours_read(GError **error);

G_END_DECLS
