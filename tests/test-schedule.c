/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rotation schedule. One small key file per case under schedule/
 * (policy, state, input, expected decision); adding a case is adding a file.
 * Then properties over simulated years: jitter, no storms, nothing skipped. */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-random.h"
#include "mg-test-case.h"
#include "mg-schedule.h"

static void
test_schedule_case(gconstpointer data)
{
	const char *path = data;
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *event_text = NULL;
	g_autofree char *boot_id = NULL;
	g_autofree char *state_boot = NULL;
	g_autofree char *expect_action = NULL;
	g_autofree char *expect_reason = NULL;
	MgScheduleState st = { 0 };
	MgPolicy policy;
	MgDecision d;
	MgEvent event;
	MgAction action;

	g_assert_true(g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, &error));
	g_assert_no_error(error);

	mg_case_policy(kf, &policy);
	mg_case_schedule_state(kf, &st, &state_boot);
	event_text = mg_case_get(kf, "input", "event", NULL);
	g_assert_true(mg_event_parse(event_text, &event));
	boot_id = mg_case_get(kf, "input", "boot-id", "b1");

	d = mg_schedule_decide(&policy,
			       &st,
			       mg_case_get_bool(kf, "input", "active"),
			       boot_id,
			       mg_case_get_int(kf, "input", "now", NULL),
			       event);

	expect_action = mg_case_get(kf, "expect", "action", NULL);
	g_assert_true(mg_action_parse(expect_action, &action));
	g_assert_cmpstr(mg_action_to_string(d.action), ==, expect_action);
	expect_reason = mg_case_get(kf, "expect", "reason", NULL);
	g_assert_cmpstr(d.reason, ==, expect_reason);
	g_assert_cmpint(d.wake_at, ==, mg_case_get_int(kf, "expect", "wake-at", "0"));
	mg_policy_clear(&policy);
}

static void
test_schedule_jitter(void)
{
	g_autoptr(MgRandom) rng = mg_random_new_seeded(99);
	guint bins[10] = { 0 };
	MgPolicy p;

	mg_policy_init_default(&p); /* daily */
	for (guint i = 0; i < 100000; i++) {
		guint32 r;
		gint64 due;
		mg_random_fill(rng, &r, sizeof(r));
		due = mg_schedule_due_at(&p, 1000, r);
		g_assert_cmpint(due, >=, 1000 + 86400 - 8640);
		g_assert_cmpint(due, <, 1000 + 86400 + 8640);
		bins[(due - (1000 + 86400 - 8640)) * 10 / 17280]++;
	}
	/* Spread over the whole window, not bunched: each tenth 10% +- 1%. */
	for (guint i = 0; i < 10; i++) {
		g_assert_cmpuint(bins[i], >, 9000);
		g_assert_cmpuint(bins[i], <, 11000);
	}
	/* Extremes of the draw stay inside the window. */
	g_assert_cmpint(mg_schedule_due_at(&p, 0, 0), ==, 86400 - 8640);
	g_assert_cmpint(mg_schedule_due_at(&p, 0, G_MAXUINT32), <, 86400 + 8640);
	p.rotate = MG_ROTATE_NEVER;
	g_assert_cmpint(mg_schedule_due_at(&p, 0, 5), ==, 0);
}

/* A year of a laptop's life under a daily policy: activations, suspends that
 * jump the clock days ahead, small NTP corrections back, and now and then a
 * clock reset years into the past. Checks, after every event, what the
 * schedule promises. */
static void
test_schedule_simulated_year(gconstpointer data)
{
	const char *rotate = data;
	g_autoptr(MgRandom) rng = mg_random_new_seeded(2026);
	MgScheduleState st = { 0 };
	MgPolicy p;
	gint64 real = 1790000000; /* true time */
	gint64 offset = 0;        /* how wrong the wall clock is */
	gint64 last_assigned_real = 0;
	guint assignments = 0, resets = 0, min_gap_violations = 0;
	gboolean active = FALSE;
	const gint64 year = 365 * G_GINT64_CONSTANT(86400);
	const gint64 start = real;

	mg_policy_init_default(&p);
	g_assert_true(mg_policy_set(&p, "rotate", rotate, NULL));
	st.boot_id = "b";

	while (real < start + year) {
		guint32 r = mg_random_uniform(rng, 1000);
		MgEvent ev = MG_EVENT_TIMER;
		MgDecision d;
		gint64 now;

		/* Time passes: mostly minutes to hours, sometimes days asleep. */
		real += r < 950 ? 60 + mg_random_uniform(rng, 4 * 3600)
				: mg_random_uniform(rng, 3 * 86400);
		if (r < 300) {
			active = !active;
			ev = active ? MG_EVENT_ACTIVATED : MG_EVENT_DEACTIVATED;
			if (active)
				st.used = TRUE;
		} else if (r < 310) {
			offset -= mg_random_uniform(rng, 600); /* NTP steps back */
			ev = MG_EVENT_CLOCK_JUMP;
		} else if (r == 999 && resets < 3) {
			offset = -G_GINT64_CONSTANT(20) * year; /* CMOS reset */
			resets++;
			ev = MG_EVENT_BOOT;
		} else if (r > 990 && offset < -year) {
			offset = 0; /* NTP puts it right */
			ev = MG_EVENT_CLOCK_JUMP;
		}
		now = real + offset;

		d = mg_schedule_decide(&p, &st, active, "b", now, ev);
		if (d.action == MG_ACTION_ASSIGN_AT_DEACTIVATION)
			st.pending = TRUE;
		if (d.action == MG_ACTION_ASSIGN_NOW) {
			guint32 j;
			g_assert_false(active); /* never under a live connection */
			mg_random_fill(rng, &j, sizeof(j));
			if (last_assigned_real != 0 && real - last_assigned_real < 3600 &&
			    offset == 0)
				min_gap_violations++;
			st.has_address = TRUE;
			st.assigned_at = now;
			st.due_at = mg_schedule_due_at(&p, now, j);
			st.used = FALSE;
			st.pending = FALSE;
			last_assigned_real = real;
			assignments++;
		}
		/* Nothing skipped: a down profile on a sane clock never holds an
		 * address past its interval plus jitter. */
		if (!active && offset > -3600 && st.assigned_at <= now &&
		    p.rotate == MG_ROTATE_INTERVAL)
			g_assert_cmpint(
			    now - st.assigned_at, <=, p.interval + p.interval / 10 + 3600);
		/* And it wakes for the due time, not earlier than needed. */
		if (d.action == MG_ACTION_KEEP && p.rotate == MG_ROTATE_INTERVAL)
			g_assert_cmpint(d.wake_at, >, now);
	}
	g_test_message(
	    "%s: %u assignments in a year, %u clock resets", rotate, assignments, resets);
	/* No storm: at most about one a day (fewer: days asleep count once),
	 * a few extra for the resets, never two within an hour of real time on
	 * a good clock. That none is skipped is checked after every event. */
	g_assert_cmpuint(min_gap_violations, ==, 0);
	if (g_str_equal(rotate, "daily"))
		g_assert_cmpuint(assignments, <=, 365 * 100 / 90 + 2 * resets + 1);
	mg_policy_clear(&p);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mg_case_add_all("schedule", test_schedule_case);
	g_test_add_func("/schedule/jitter", test_schedule_jitter);
	g_test_add_data_func(
	    "/schedule/simulated-year/daily", "daily", test_schedule_simulated_year);
	g_test_add_data_func("/schedule/simulated-year/36h", "36h", test_schedule_simulated_year);
	g_test_add_data_func(
	    "/schedule/simulated-year/activation", "activation", test_schedule_simulated_year);
	return g_test_run();
}
