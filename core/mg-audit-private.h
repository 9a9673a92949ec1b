/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Shared by the audit's rule files; not for callers of mg-audit.h. */

#include "mg-audit.h"

G_BEGIN_DECLS

/* Adds a finding whose fix sets @setting to @value with nmcli, or with
 * `macguise policy` for a macguise.* setting, and returns it (the caller
 * marks it advice where the fix is the user's decision). */
MgFinding *mg_audit_add(GPtrArray *out,
			const MgAuditInput *in,
			const char *id,
			MgSeverity severity,
			const char *setting,
			const char *value,
			const char *message);
/* A finding for the whole machine, not a profile; takes @message and @fix. */
MgFinding *mg_finding_new(const char *id,
			  MgSeverity severity,
			  const char *setting,
			  const char *value,
			  char *message,
			  char *fix);

/* cloned-mac-address is one of NetworkManager's own choices (random,
 * stable, stable-ssid): described, left to the user. TRUE when it was. */
gboolean mg_audit_nm_mac_choice(GPtrArray *out, const MgAuditInput *in, const char *setting);
/* Access points: a BSSID that never changes, an SSID location services
 * map, an open hotspot, WPS. */
void mg_audit_hotspot(GPtrArray *out, const MgAuditInput *in);
/* What names the machine besides its addresses: probes for a hidden
 * network, mDNS and LLMNR, an 802.1X identity in clear. */
void mg_audit_naming(GPtrArray *out, const MgAuditInput *in);

G_END_DECLS
