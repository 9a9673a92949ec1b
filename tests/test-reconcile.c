/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The daemon's and the boot step's decisions. One small key file per case
 * under reconcile/: the policy, the state, what the profile and its link
 * look like, the event (or a request to rotate, or a link check's report),
 * and the actions expected.
 * Adding a case is adding a file. */
#include "config.h"

#include <glib.h>

#include "mg-reconcile.h"
#include "mg-rotation.h"
#include "mg-test-case.h"
#include "mg-verdict-report.h"

static void
mg_case_snapshot(GKeyFile *kf, MgSnapshot *snap)
{
	g_autofree char *address = mg_case_get(kf, "profile", "address", "current");
	g_autofree char *link = mg_case_get(kf, "profile", "link", "unknown");

	g_assert_true(mg_profile_address_parse(address, &snap->address));
	g_assert_true(mg_link_address_parse(link, &snap->link));
	snap->active = mg_case_get_bool(kf, "profile", "active");
	snap->new_activation = mg_case_get_bool(kf, "profile", "new-activation");
	snap->in_flight = mg_case_get_bool(kf, "profile", "in-flight");
	snap->user_owned = mg_case_get_bool(kf, "profile", "user-owned");
	snap->unmarked = mg_case_get_bool(kf, "profile", "unmarked");
	snap->retry_at = mg_case_get_int(kf, "profile", "retry-at", "0");
	snap->gate_attempts = (guint)mg_case_get_int(kf, "profile", "gate-attempts", "0");
	snap->recovery_attempts = (guint)mg_case_get_int(kf, "state", "recovery-attempts", "0");
	snap->keeps_hardened = mg_case_get_bool(kf, "profile", "keeps-hardened");
	snap->unhardened = mg_case_get_bool(kf, "profile", "unhardened");
	snap->stale_mark = mg_case_get_bool(kf, "profile", "stale-mark");
}

/* `macguise rotate` (request=rotate or rotate-now): the outcome too. */
static MgReconcile
mg_case_rotation(GKeyFile *kf, const MgSnapshot *snap, const char *request)
{
	g_autofree char *expect = mg_case_get(kf, "expect", "outcome", NULL);
	MgRotation rotation;
	MgRotationOutcome outcome;
	MgReconcile r = { 0 };

	g_assert_true(g_str_equal(request, "rotate") || g_str_equal(request, "rotate-now"));
	rotation = mg_rotation_decide(
	    snap, g_str_equal(request, "rotate-now"), mg_case_get_int(kf, "input", "now", NULL));
	g_assert_true(mg_rotation_outcome_parse(expect, &outcome));
	g_assert_cmpstr(mg_rotation_outcome_to_string(rotation.outcome), ==, expect);
	r.actions = rotation.actions;
	r.reason = rotation.reason;
	return r;
}

/* The hook's report of a link check (report=clean|conflict|unchecked, of
 * reported=current or another address): the outcome too. */
static MgReconcile
mg_case_report(GKeyFile *kf, const MgSnapshot *snap, const char *report)
{
	g_autofree char *expect = mg_case_get(kf, "expect", "outcome", NULL);
	g_autofree char *reported = mg_case_get(kf, "input", "reported", "current");
	guint max = (guint)mg_case_get_int(kf, "input", "conflict-max-attempts", "3");
	MgVerdict verdict;
	MgReportOutcome outcome;
	MgReport got;
	MgReconcile r = { 0 };

	g_assert_true(mg_verdict_parse(report, &verdict));
	g_assert_true(g_str_equal(reported, "current") || g_str_equal(reported, "other"));
	got = mg_report_decide(snap, g_str_equal(reported, "current"), verdict, max);
	g_assert_true(mg_report_outcome_parse(expect, &outcome));
	g_assert_cmpstr(mg_report_outcome_to_string(got.outcome), ==, expect);
	r.actions = got.actions;
	r.reason = mg_report_outcome_to_string(got.outcome);
	return r;
}

static void
test_reconcile_case(gconstpointer data)
{
	const char *path = data;
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *state_boot = NULL;
	g_autofree char *event_text = NULL;
	g_autofree char *request = NULL;
	g_autofree char *report = NULL;
	g_autofree char *boot_id = NULL;
	g_autofree char *expect = NULL;
	g_autofree char *got = NULL;
	g_autofree char *reason = NULL;
	MgSnapshot snap = { 0 };
	MgPolicy policy;
	MgReconcile r;
	MgEvent event;
	guint actions;

	g_assert_true(g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, &error));
	g_assert_no_error(error);
	mg_case_policy(kf, &policy);
	snap.policy = &policy;
	mg_case_schedule_state(kf, &snap.schedule, &state_boot);
	mg_case_snapshot(kf, &snap);
	boot_id = mg_case_get(kf, "input", "boot-id", "b1");
	request = mg_case_get(kf, "input", "request", "");
	report = mg_case_get(kf, "input", "report", "");
	if (request[0] != '\0') {
		r = mg_case_rotation(kf, &snap, request);
	} else if (report[0] != '\0') {
		r = mg_case_report(kf, &snap, report);
	} else {
		event_text = mg_case_get(kf, "input", "event", NULL);
		g_assert_true(mg_event_parse(event_text, &event));
		r = mg_reconcile(&snap, boot_id, mg_case_get_int(kf, "input", "now", NULL), event);
	}

	expect = mg_case_get(kf, "expect", "actions", NULL);
	g_assert_nonnull(expect);
	g_assert_true(mg_reconcile_actions_parse(expect, &actions));
	got = mg_reconcile_actions_to_string(r.actions);
	g_assert_cmpstr(got, ==, expect);
	reason = mg_case_get(kf, "expect", "reason", NULL);
	g_assert_cmpstr(r.reason, ==, reason);
	g_assert_cmpint(r.wake_at, ==, mg_case_get_int(kf, "expect", "wake-at", "0"));
	mg_policy_clear(&policy);
}

static void
test_reconcile_words(void)
{
	guint actions = 0;
	g_autofree char *all = NULL;

	g_assert_true(mg_reconcile_actions_parse("", &actions));
	g_assert_cmpuint(actions, ==, 0);
	g_assert_false(mg_reconcile_actions_parse("assign,teleport", &actions));
	all = mg_reconcile_actions_to_string(0x3fff);
	g_assert_true(mg_reconcile_actions_parse(all, &actions));
	g_assert_cmpuint(actions, ==, 0x3fff);
}

static void
test_reconcile_retry(void)
{
	/* 5 s, then doubling, never beyond 10 min: a refused write is not
	 * retried in a loop. */
	g_assert_cmpint(mg_reconcile_retry_at(1, 100), ==, 105);
	g_assert_cmpint(mg_reconcile_retry_at(2, 100), ==, 110);
	g_assert_cmpint(mg_reconcile_retry_at(5, 100), ==, 180);
	g_assert_cmpint(mg_reconcile_retry_at(8, 100), ==, 700);
	g_assert_cmpint(mg_reconcile_retry_at(1000, 100), ==, 700);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_set_nonfatal_assertions();
	mg_case_add_all("reconcile", test_reconcile_case);
	g_test_add_func("/reconcile/words", test_reconcile_words);
	g_test_add_func("/reconcile/retry", test_reconcile_retry);
	return g_test_run();
}
