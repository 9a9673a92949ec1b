/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The pre-up hook's calls: the link check and the passive watch
 * (mg-service-check.c). */
#pragma once

#include <NetworkManager.h>

#include "mg-service-type.h"

G_BEGIN_DECLS

/* For the pre-up hook: (managed, address, window_ms, probes). */
GVariant *mg_service_get_link_check(MgService *self, const char *profile);
/* Records the hook's verdict and, on a conflict, recovers; returns the
 * outcome (see the XML) or NULL with @error for a malformed report. */
const char *mg_service_report_verdict(MgService *self,
				      const char *profile,
				      const char *iface,
				      const char *address,
				      const char *verdict,
				      const char *evidence,
				      guint duration_ms,
				      GError **error);
/* After a clean verdict: goes on watching the link with the hook's @fd
 * (taken) for passive-watch-s (see WatchLink in the XML). FALSE with
 * @error for a malformed call; an unmanaged or stale one is ignored. */
gboolean mg_service_watch_link(MgService *self,
			       const char *profile,
			       const char *iface,
			       const char *address,
			       int fd,
			       GError **error);

/* Whether macguised manages the profile with the address it holds now:
 * the one the hook checks. */
gboolean mg_service_manages(MgService *self, NMConnection *c);
/* Frees a record's passive watch (mg-profile-record.h). */
void mg_service_watch_free(gpointer watch);
/* The profile's activation is over: its passive watch, if any, ends without
 * a finding. */
void mg_service_watch_over(MgService *self, const char *uuid);

G_END_DECLS
