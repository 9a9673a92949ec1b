/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The audit's input read out of a profile and NetworkManager's
 * configuration (core/mg-audit.h decides), for `audit`, `harden` and
 * macguised, which keeps a hardened profile hardened (mg-harden.h). */
#pragma once

#include <NetworkManager.h>

#include "mg-audit.h"
#include "mg-policy.h"

G_BEGIN_DECLS

/* Whether DHCP sends the host name, from whichever of NetworkManager's two
 * settings is in effect (MG_SEND_HOSTNAME_V2 since 1.52). */
#define MG_SEND_HOSTNAME_V2 "dhcp-send-hostname-v2"
gboolean mg_ip_sends_hostname(NMSettingIPConfig *ip);
/* The libnm this runs with has MG_SEND_HOSTNAME_V2. */
gboolean mg_ip_has_send_hostname_v2(NMSettingIPConfig *ip);

/* The findings (MgFinding) of profile @c under @policy, the policy in
 * effect: @user_owned, macguise leaves its address alone; @recognised, it
 * was kept managed by its mark when the state was lost. */
GPtrArray *mg_audit_read_profile(NMConnection *c,
				 const MgPolicy *policy,
				 gboolean user_owned,
				 gboolean recognised);

G_END_DECLS
