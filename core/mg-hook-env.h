/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-probe.h"

G_BEGIN_DECLS

/* What NetworkManager's dispatcher tells the pre-up hook, from its argv
 * (IFACE ACTION) and its environment; everything checked, nothing trusted. */
typedef struct {
	char *action; /* "pre-up", "up", ...: NM_DISPATCHER_ACTION, else argv[2] */
	char *uuid;   /* CONNECTION_UUID */
	char *iface;  /* DEVICE_IFACE, else argv[1] */
	guint8 ipv4[MG_PROBE_MAX_IPV4][4]; /* from IP4_ADDRESS_<n> */
	guint n_ipv4;
	gint64 started_us; /* when the hook's front started (CLOCK_MONOTONIC), or 0 */
} MgHookRequest;

/* @envp as in environ. A malformed value of what the check needs is an
 * error naming it; an action other than pre-up parses fine. */
gboolean mg_hook_request_parse(MgHookRequest *request,
			       int argc,
			       const char *const *argv,
			       const char *const *envp,
			       GError **error);
void mg_hook_request_clear(MgHookRequest *request);
/* pre-up of a device with a connection: the only event the hook acts on. */
gboolean mg_hook_request_wants_check(const MgHookRequest *request);

G_END_DECLS
