/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-verdict-report.h"

#include "mg-words.h"

static const char *const mg_report_outcome_names[] = {
	[MG_REPORT_RECORDED] = "recorded",
	[MG_REPORT_STALE] = "stale",
	[MG_REPORT_RECOVERING] = "recovering",
	[MG_REPORT_GAVE_UP] = "gave-up",
};

static MgReport
mg_report(MgReportOutcome outcome, guint actions)
{
	MgReport r = { outcome, actions };
	return r;
}

MgReport
mg_report_decide(const MgSnapshot *snap,
		 gboolean reported_current,
		 MgVerdict verdict,
		 guint max_attempts)
{
	/* A check of an address already replaced (or being replaced) says
	 * nothing about the one the profile has now. */
	if (!snap->schedule.has_address || !reported_current || snap->in_flight)
		return mg_report(MG_REPORT_STALE, 0);
	if (verdict != MG_VERDICT_CONFLICT || !mg_snapshot_manages(snap))
		return mg_report(MG_REPORT_RECORDED, MG_DO_RECORD_VERDICT);
	if (snap->recovery_attempts >= max_attempts)
		return mg_report(MG_REPORT_GAVE_UP,
				 MG_DO_RECORD_VERDICT | MG_DO_BURN | MG_DO_GIVE_UP);
	return mg_report(MG_REPORT_RECOVERING,
			 MG_DO_RECORD_VERDICT | MG_DO_BURN | MG_DO_ASSIGN | MG_DO_REACTIVATE);
}

const char *
mg_report_outcome_to_string(MgReportOutcome outcome)
{
	g_return_val_if_fail(outcome < G_N_ELEMENTS(mg_report_outcome_names), NULL);
	return mg_report_outcome_names[outcome];
}

gboolean
mg_report_outcome_parse(const char *text, MgReportOutcome *outcome)
{
	guint i;

	if (!mg_word_index(
		mg_report_outcome_names, G_N_ELEMENTS(mg_report_outcome_names), text, &i))
		return FALSE;
	*outcome = (MgReportOutcome)i;
	return TRUE;
}
