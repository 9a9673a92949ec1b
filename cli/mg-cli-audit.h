/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What `audit` and `harden` share (mg-cmd-audit.c). */
#pragma once

#include <NetworkManager.h>
#include <json-glib/json-glib.h>

#include "mg-audit.h"
#include "mg-cli-nm.h"

G_BEGIN_DECLS

/* NetworkManager's configuration has Wi-Fi scans use the card's own address. */
gboolean mg_scan_randomization_off(void);
/* What NetworkManager's own configuration gives away, for every profile:
 * its log level, and (@wifi: there are Wi-Fi profiles) Wi-Fi scans with
 * the card's own address. MgFindings. */
GPtrArray *mg_audit_global(NMClient *client, gboolean wifi);
/* The profile's findings (MgFinding) under the policy in effect. */
GPtrArray *mg_audit_connection(MgCliState *st, NMConnection *c);
JsonObject *mg_finding_json(const MgFinding *f);
void mg_finding_print(const MgFinding *f);

G_END_DECLS
