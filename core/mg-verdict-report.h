/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-reconcile.h"
#include "mg-verdict.h"

G_BEGIN_DECLS

/* What a link check's report (the hook's ReportVerdict) comes to. */
typedef enum {
	MG_REPORT_RECORDED,   /* the profile's last link check now */
	MG_REPORT_STALE,      /* about an address the profile no longer has, or
				 one being replaced: ignored */
	MG_REPORT_RECOVERING, /* a conflict: the address is burned and a new one
				 is on its way, the profile up again with it */
	MG_REPORT_GAVE_UP,    /* a conflict after the last new address allowed:
				 burned, and the connection left as it is */
} MgReportOutcome;

typedef struct {
	MgReportOutcome outcome;
	guint actions; /* MgReconcileAction flags for the daemon */
} MgReport;

/* Pure: the @verdict the hook reports for the profile in @snap;
 * @reported_current: the address it checked is the state's current one;
 * @max_attempts: new addresses allowed for conflicts in a row. */
MgReport mg_report_decide(const MgSnapshot *snap,
			  gboolean reported_current,
			  MgVerdict verdict,
			  guint max_attempts);

/* "recorded", "stale", "recovering", "gave-up", and back: ReportVerdict's
 * reply, which the hook logs. */
const char *mg_report_outcome_to_string(MgReportOutcome outcome);
gboolean mg_report_outcome_parse(const char *text, MgReportOutcome *outcome);

G_END_DECLS
