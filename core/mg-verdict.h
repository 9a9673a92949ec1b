/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-mac.h"

G_BEGIN_DECLS

/* What the pre-up hook found out about a profile's address on its link. */
typedef enum {
	MG_VERDICT_NONE,      /* never checked */
	MG_VERDICT_CLEAN,     /* nobody else answered or sent with it */
	MG_VERDICT_CONFLICT,  /* another station uses it */
	MG_VERDICT_UNCHECKED, /* the check could not be made; the evidence says why */
} MgVerdict;

/* The kinds of probe the hook makes. */
typedef enum {
	MG_PROBE_PASSIVE = 1 << 0, /* frames from someone else with our source address */
	MG_PROBE_IPV6 = 1 << 1,    /* a DAD Neighbour Solicitation for our EUI-64 link-local */
	MG_PROBE_ARP = 1 << 2,     /* RFC 5227 ARP probes for the link's IPv4 addresses */
} MgProbeKinds;

#define MG_PROBE_ALL (MG_PROBE_PASSIVE | MG_PROBE_IPV6 | MG_PROBE_ARP)
/* Evidence travels over D-Bus and into the state file: short, one line. */
#define MG_EVIDENCE_MAX_LEN 512

const char *mg_verdict_to_string(MgVerdict verdict);
/* Only "clean", "conflict" and "unchecked": "none" is not a finding. */
gboolean mg_verdict_parse(const char *text, MgVerdict *verdict);
/* Valid UTF-8, at most MG_EVIDENCE_MAX_LEN bytes, no control characters. */
gboolean mg_evidence_is_valid(const char *text);
/* @text made valid evidence: invalid UTF-8 and control characters become
 * U+FFFD or spaces, and it is cut at a character boundary. */
char *mg_evidence_sanitize(const char *text);

/* The hook's ReportVerdict arguments as macguised takes them: the verdict
 * one of the three findings, the interface a name the kernel would accept,
 * the address a MAC address, the evidence valid. On error nothing is set
 * and the error says which argument was wrong (G_IO_ERROR_INVALID_ARGUMENT). */
gboolean mg_verdict_report_check(const char *iface,
				 const char *address,
				 const char *verdict_text,
				 const char *evidence,
				 MgVerdict *verdict,
				 MgMac *mac,
				 GError **error);

/* "passive;ipv6;arp" (any order, ';' or ',' between) or "none". */
gboolean mg_probe_kinds_parse(const char *text, MgProbeKinds *kinds, GError **error);
/* The canonical form: "passive;ipv6;arp", or "none". */
char *mg_probe_kinds_to_string(MgProbeKinds kinds);

G_END_DECLS
