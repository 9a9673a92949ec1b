/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguised's one record per profile (daemon/mg-profile-record.c): what the
 * table promises, and that its invariants catch what they name. */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-profile-record.h"

static guint watches_freed;

static void
count_watch_free(gpointer watch)
{
	g_assert_nonnull(watch);
	watches_freed++;
}

static void
test_one_record_per_profile(void)
{
	g_autoptr(MgProfileRecords) t = mg_profile_records_new(count_watch_free);
	MgProfileRecord *a = mg_profile_records_ensure(t, "a");

	g_assert_true(mg_profile_records_ensure(t, "a") == a);
	g_assert_null(mg_profile_records_get(t, "b"));
	g_assert_null(mg_profile_records_get(t, NULL));
	g_assert_true(a->policy_stale);
	g_assert_true(mg_profile_records_are_valid(t, NULL));
}

/* A profile leaving frees its whole record: its watch, its place among
 * writes waiting. */
static void
test_removal_frees_everything(void)
{
	g_autoptr(MgProfileRecords) t = mg_profile_records_new(count_watch_free);
	g_autoptr(GObject) connection = g_object_new(G_TYPE_OBJECT, NULL);
	MgProfileRecord *a = mg_profile_records_ensure(t, "a");

	watches_freed = 0;
	mg_profile_records_set_watch(t, a, GUINT_TO_POINTER(1));
	mg_profile_records_remove(t, "a");
	g_assert_cmpuint(watches_freed, ==, 1);
	g_assert_null(mg_profile_records_get(t, "a"));

	/* a write waiting for a profile that then left is not started */
	a = mg_profile_records_ensure(t, "a");
	mg_profile_records_defer(t, a, connection);
	mg_profile_records_remove(t, "a");
	g_assert_null(mg_profile_records_next_deferred(t));
	g_assert_true(mg_profile_records_are_valid(t, NULL));
}

/* A profile that leaves while its write is under way keeps an emptied
 * record until the write lands: added again with the same UUID meanwhile,
 * it still has one write at a time. */
static void
test_leaving_waits_for_its_write(void)
{
	g_autoptr(MgProfileRecords) t = mg_profile_records_new(count_watch_free);
	MgProfileRecord *a = mg_profile_records_ensure(t, "a");
	guint departures;

	watches_freed = 0;
	mg_profile_records_set_watch(t, a, GUINT_TO_POINTER(1));
	a->failures = 3;
	a->retry_at = 40;
	mg_profile_records_set_in_flight(t, a, TRUE);
	mg_profile_records_remove(t, "a");
	g_assert_true(mg_profile_records_get(t, "a") == a);
	g_assert_true(a->leaving && a->in_flight);
	g_assert_cmpuint(watches_freed, ==, 1);
	g_assert_cmpuint(a->failures, ==, 0);
	g_assert_true(mg_profile_records_are_valid(t, NULL));
	mg_profile_records_landed(t, "a");
	g_assert_null(mg_profile_records_get(t, "a"));
	g_assert_cmpuint(mg_profile_records_in_flight(t), ==, 0);

	/* back before its write landed: the write still counts, and is told
	 * apart from the profile's own (it left since) */
	a = mg_profile_records_ensure(t, "a");
	mg_profile_records_set_in_flight(t, a, TRUE);
	departures = a->departures;
	mg_profile_records_remove(t, "a");
	g_assert_true(mg_profile_records_ensure(t, "a") == a);
	g_assert_false(a->leaving);
	g_assert_true(a->in_flight);
	g_assert_cmpuint(a->departures, !=, departures);
	/* the write's end finds no record of its own: the profile back is
	 * another; what the profile decides from now on finds it */
	g_assert_null(mg_profile_records_get_since(t, "a", departures));
	g_assert_true(mg_profile_records_get_since(t, "a", a->departures) == a);
	mg_profile_records_landed(t, "a");
	g_assert_true(mg_profile_records_get(t, "a") == a);
	g_assert_cmpuint(mg_profile_records_in_flight(t), ==, 0);
}

static void
test_waiting_writes_in_order_once(void)
{
	g_autoptr(MgProfileRecords) t = mg_profile_records_new(NULL);
	g_autoptr(GObject) ca = g_object_new(G_TYPE_OBJECT, NULL);
	g_autoptr(GObject) cb = g_object_new(G_TYPE_OBJECT, NULL);
	MgProfileRecord *a = mg_profile_records_ensure(t, "a");
	MgProfileRecord *b = mg_profile_records_ensure(t, "b");
	g_autoptr(GObject) first = NULL;
	g_autoptr(GObject) second = NULL;

	mg_profile_records_defer(t, a, ca);
	mg_profile_records_defer(t, b, cb);
	mg_profile_records_defer(t, a, ca); /* already waiting: not queued twice */
	first = mg_profile_records_next_deferred(t);
	second = mg_profile_records_next_deferred(t);
	g_assert_true(first == ca);
	g_assert_true(second == cb);
	g_assert_null(mg_profile_records_next_deferred(t));
	g_assert_null(a->deferred);
}

static void
test_nm_leaving_ends_activations(void)
{
	g_autoptr(MgProfileRecords) t = mg_profile_records_new(count_watch_free);
	g_autoptr(GObject) waiting = g_object_new(G_TYPE_OBJECT, NULL);
	g_autoptr(GObject) other = g_object_new(G_TYPE_OBJECT, NULL);
	g_autoptr(GObject) first = NULL;
	g_autoptr(GObject) second = NULL;
	MgProfileRecord *a = mg_profile_records_ensure(t, "a");

	watches_freed = 0;
	a->active_path = g_strdup("/org/freedesktop/NetworkManager/ActiveConnection/1");
	a->unchecked = TRUE;
	a->unsettled = TRUE;
	a->policy_stale = FALSE;
	a->failures = 2;
	a->retry_at = 100;
	a->settling = TRUE;
	mg_profile_records_set_watch(t, a, GUINT_TO_POINTER(1));
	mg_profile_records_defer(t, a, waiting);
	mg_profile_records_nm_left(t);
	g_assert_null(a->active_path);
	/* it was up: the NetworkManager that comes back may take it up again */
	g_assert_true(a->taking_up);
	g_assert_false(mg_profile_records_ensure(t, "b")->taking_up);
	g_assert_cmpuint(mg_profile_records_taking_up(t, FALSE), ==, 1);
	g_assert_false(a->unchecked);
	g_assert_false(a->unsettled);
	/* its copies were the old NetworkManager's: the new one's are decided */
	g_assert_false(a->settling);
	g_assert_null(a->deferred);
	/* waiting again with the new NetworkManager, after another: in turn */
	mg_profile_records_defer(t, mg_profile_records_ensure(t, "b"), other);
	mg_profile_records_defer(t, a, waiting);
	first = mg_profile_records_next_deferred(t);
	second = mg_profile_records_next_deferred(t);
	g_assert_true(first == other);
	g_assert_true(second == waiting);
	g_assert_null(mg_profile_records_next_deferred(t));
	g_assert_true(a->policy_stale);
	g_assert_cmpuint(watches_freed, ==, 1);
	/* what it learned of its writes stays: the back-off goes on */
	g_assert_cmpuint(a->failures, ==, 2);
}

/* Each invariant, broken on its own, is caught and named. */
static void
test_invariants_catch(void)
{
	static const struct {
		const char *breaks;
		const char *named;
	} cases[] = {
		{ "unchecked", "an activation to check" },
		{ "retry", "a retry time without failures" },
		{ "failures", "a retry time without failures" },
		{ "drawn-local", "globally administered" },
		{ "gate", "re-activations" },
		{ "wake", "before the epoch" },
		{ "leaving", "no write under way" },
		{ "taking-up", "taken up again, though it is up" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(MgProfileRecords) t = mg_profile_records_new(NULL);
		g_autoptr(GString) why = g_string_new(NULL);
		MgProfileRecord *r = mg_profile_records_ensure(t, "a");

		g_assert_true(mg_profile_record_is_valid(r, NULL));
		if (g_str_equal(cases[i].breaks, "unchecked"))
			r->unchecked = TRUE;
		else if (g_str_equal(cases[i].breaks, "retry"))
			r->retry_at = 5;
		else if (g_str_equal(cases[i].breaks, "failures"))
			r->failures = 1;
		else if (g_str_equal(cases[i].breaks, "drawn-local")) {
			r->has_drawn = TRUE;
			r->drawn.octet[0] = 0x02; /* the locally administered bit */
		} else if (g_str_equal(cases[i].breaks, "gate"))
			r->gate_attempts = 100;
		else if (g_str_equal(cases[i].breaks, "leaving"))
			r->leaving = TRUE;
		else if (g_str_equal(cases[i].breaks, "taking-up")) {
			r->taking_up = TRUE;
			r->active_path =
			    g_strdup("/org/freedesktop/NetworkManager/ActiveConnection/1");
		} else
			r->wake_at = -1;
		g_assert_false(mg_profile_records_are_valid(t, why));
		g_assert_nonnull(strstr(why->str, cases[i].named));
	}
}

/* A write counted in flight that no record carries (or the reverse) is
 * the "in flight for ever" defect: the table's check sees it. */
static void
test_in_flight_count_checked(void)
{
	g_autoptr(MgProfileRecords) t = mg_profile_records_new(NULL);
	g_autoptr(GString) why = g_string_new(NULL);
	MgProfileRecord *a = mg_profile_records_ensure(t, "a");

	mg_profile_records_set_in_flight(t, a, TRUE);
	mg_profile_records_set_in_flight(t, a, TRUE); /* once only */
	g_assert_cmpuint(mg_profile_records_in_flight(t), ==, 1);
	g_assert_true(mg_profile_records_are_valid(t, NULL));
	a->in_flight = FALSE; /* behind the count's back */
	g_assert_false(mg_profile_records_are_valid(t, why));
	g_assert_nonnull(strstr(why->str, "write under way"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/profile-record/one-per-profile", test_one_record_per_profile);
	g_test_add_func("/profile-record/removal-frees-everything", test_removal_frees_everything);
	g_test_add_func("/profile-record/leaving-waits-for-its-write",
			test_leaving_waits_for_its_write);
	g_test_add_func("/profile-record/waiting-writes-in-order-once",
			test_waiting_writes_in_order_once);
	g_test_add_func("/profile-record/nm-leaving-ends-activations",
			test_nm_leaving_ends_activations);
	g_test_add_func("/profile-record/invariants-catch", test_invariants_catch);
	g_test_add_func("/profile-record/in-flight-count-checked", test_in_flight_count_checked);
	return g_test_run();
}
