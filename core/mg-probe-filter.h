/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <linux/filter.h>

#include "mg-mac.h"

G_BEGIN_DECLS

/* The kernel socket filter of the link check: the packet socket is handed
 * only the frames mg_probe_classify() can find something in (ARP, IPv6
 * neighbour solicitations and advertisements, and anything sent from the
 * address under test). A busy or flooded link's other frames never reach
 * the checker, so reading costs what the evidence costs. */

#define MG_PROBE_FILTER_LEN 14

/* Fills @prog (classic BPF, for SO_ATTACH_FILTER) for @mac. */
void mg_probe_filter_build(const MgMac *mac, struct sock_filter prog[MG_PROBE_FILTER_LEN]);

/* The filter of the passive watch that follows a clean check: only
 * group-addressed frames (broadcast, multicast) sent from @mac. A twin
 * gives itself away with those (its unicast goes elsewhere), and the
 * machine's own are few (ARP, neighbour discovery, DHCP, mDNS): nothing
 * else on the link, and none of the machine's own unicast traffic, reaches
 * macguised for the minutes it watches. */
#define MG_SOURCE_FILTER_LEN 8

void mg_probe_filter_build_source(const MgMac *mac, struct sock_filter prog[MG_SOURCE_FILTER_LEN]);

G_END_DECLS
