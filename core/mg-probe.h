/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-mac.h"
#include "mg-verdict.h"

G_BEGIN_DECLS

/* The frames of the pre-up link check, built and recognised without any
 * socket: the hook in dispatcher/ sends and receives them. */

#define MG_PROBE_MAX_IPV4 16
/* Ethernet's shortest frame without its checksum: shorter ones are padded. */
#define MG_FRAME_MIN_LEN 60
#define MG_PROBE_FRAME_MAX 128

typedef struct {
	MgMac mac;             /* the address under test */
	guint8 link_local[16]; /* fe80::/64 with the EUI-64 interface id of @mac */
	guint8 nonce[6];       /* the DAD probes' RFC 7527 nonce: random, set by the caller */
	guint8 ipv4[MG_PROBE_MAX_IPV4][4];
	guint n_ipv4;
} MgProbeTarget;

void mg_probe_target_init(MgProbeTarget *target, const MgMac *mac);
/* Adds an IPv4 address (network order) to probe for; repeats are ignored.
 * FALSE when the target already holds MG_PROBE_MAX_IPV4. */
gboolean mg_probe_target_add_ipv4(MgProbeTarget *target, const guint8 addr[4]);
/* RFC 4291 appendix A: fe80:: and the address with its U/L bit flipped and
 * ff:fe in the middle. */
void mg_eui64_link_local(const MgMac *mac, guint8 out[16]);
/* Whether @addr is @mac's EUI-64 address in any /64 (its low 64 bits). */
gboolean mg_ipv6_is_eui64_of(const guint8 addr[16], const MgMac *mac);

/* RFC 4862 §5.4.2: a Neighbour Solicitation from the unspecified address to
 * the target's solicited-node group, with the nonce option of RFC 7527 as
 * Linux's own DAD sends it. Returns the frame length. */
gsize mg_probe_build_ns(const MgProbeTarget *target, guint8 frame[MG_PROBE_FRAME_MAX]);
/* The probes a link check may send for a profile: @enabled, without the
 * IPv6 one unless the profile's link-local address is its EUI-64 one
 * (IPv6 on, ipv6.addr-gen-mode eui64), as only then would the host itself
 * probe for it. */
MgProbeKinds mg_probe_kinds_for_link(MgProbeKinds enabled, gboolean eui64_link_local);
/* RFC 5227 §2.1.1: an ARP request with sender IP 0.0.0.0 for target
 * ipv4[index], broadcast. Returns the frame length. */
gsize
mg_probe_build_arp(const MgProbeTarget *target, guint index, guint8 frame[MG_PROBE_FRAME_MAX]);

typedef enum {
	MG_FINDING_SAME_SOURCE = 1 << 0,   /* Ethernet source is our address */
	MG_FINDING_NA = 1 << 1,            /* an advertisement for our link-local */
	MG_FINDING_NS_DAD = 1 << 2,        /* someone else's DAD for our link-local */
	MG_FINDING_ARP_SAME_HW = 1 << 3,   /* ARP with our address as sender hardware */
	MG_FINDING_ARP_IP_IN_USE = 1 << 4, /* another hardware address claims our IPv4 */
} MgFindings;

/* What a received (not outgoing) frame says about the target. */
MgFindings mg_probe_classify(const MgProbeTarget *target, const guint8 *frame, gsize len);

/* The findings of one check. */
typedef struct {
	guint same_source;
	guint na;
	guint ns_dad;
	guint arp_same_hw;
	guint arp_ip_in_use;
	gboolean kernel_dad_failed;       /* on the EUI-64 link-local */
	gboolean kernel_dad_failed_other; /* on another address: an IP conflict */
	guint frames_read;                /* what the socket filter let through */
	gboolean flooded;                 /* more than the check reads in a window */
} MgProbeTally;

void mg_probe_tally_add(MgProbeTally *tally, MgFindings findings);
/* The verdict from what the enabled probes found, and a one-line evidence
 * text that names no MAC address (and no address derived from one). */
MgVerdict mg_probe_tally_verdict(const MgProbeTally *tally,
				 MgProbeKinds enabled,
				 guint n_ipv4,
				 guint window_ms,
				 char **evidence);

G_END_DECLS
