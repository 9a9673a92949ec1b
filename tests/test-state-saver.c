/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguised's saves on a thread (daemon/mg-state-saver.c): what an ask
 * promises, against a real state directory. */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mg-state-saver.h"
#include "mg-state-store.h"
#include "mg-test-state-dir.h"
#include "mg-test-warnings.h"

typedef struct {
	MgRuntime rt;
	char *dir;
	guint results; /* saves ended */
	guint failures;
	GString *heard; /* each ask's letter as its result came, then "!" per destroy */
} Fixture;

typedef struct {
	Fixture *f;
	char letter;
	char *must_hold; /* a profile the file holds when the ask hears */
} Ask;

static void
on_result(gboolean saved, gpointer user_data)
{
	Fixture *f = user_data;
	f->results++;
	if (!saved)
		f->failures++;
}

static void
heard(gboolean saved, gpointer user_data)
{
	Ask *a = user_data;
	g_string_append_c(a->f->heard, saved ? a->letter : g_ascii_tolower(a->letter));
	if (saved && a->must_hold != NULL)
		g_assert_true(mg_test_state_holds(a->f->dir, a->must_hold));
}

static void
ask_free(gpointer user_data)
{
	Ask *a = user_data;
	g_string_append_c(a->f->heard, '!');
	g_free(a->must_hold);
	g_free(a);
}

static void
ask(MgStateSaver *s, Fixture *f, char letter, const char *must_hold)
{
	Ask *a = g_new0(Ask, 1);
	a->f = f;
	a->letter = letter;
	a->must_hold = g_strdup(must_hold);
	mg_state_saver_save(s, heard, a, ask_free);
}

static void
setup(Fixture *f, gconstpointer data)
{
	f->dir = mg_test_runtime_new(&f->rt, "mg-saver-XXXXXX");
	f->heard = g_string_new(NULL);
}

static void
teardown(Fixture *f, gconstpointer data)
{
	mg_test_runtime_remove(&f->rt, f->dir);
	g_string_free(f->heard, TRUE);
	/* only the test that expects a warning may leave one */
	mg_test_warnings_checked("failed-save-is-reported");
}

static void
wait_for_results(Fixture *f, guint results)
{
	while (f->results < results)
		g_main_context_iteration(NULL, TRUE);
}

/* An ask made while a save is under way waits for the next save, which
 * serves every ask made meanwhile, and holds what changed before it. */
static void
test_asks_during_a_save_share_the_next(Fixture *f, gconstpointer data)
{
	g_autoptr(MgStateSaver) s = mg_state_saver_new(&f->rt, on_result, f);

	mg_state_ensure_profile(f->rt.state, "first");
	ask(s, f, 'A', "first");
	g_assert_true(mg_state_saver_busy(s));
	mg_state_ensure_profile(f->rt.state, "second");
	ask(s, f, 'B', "second");
	ask(s, f, 'C', "second");
	wait_for_results(f, 2);
	g_assert_cmpstr(f->heard->str, ==, "A!BC!!");
	g_assert_cmpuint(f->results, ==, 2);
	g_assert_false(mg_state_saver_busy(s));
}

/* A save that cannot be written is reported to the watcher and to the
 * asks it served, and the next ask tries again. */
static void
test_a_failed_save_is_reported(Fixture *f, gconstpointer data)
{
	g_autoptr(MgStateSaver) s = mg_state_saver_new(&f->rt, on_result, f);
	g_autofree char *dir = f->rt.state_dir;

	f->rt.state_dir = g_build_filename(dir, "missing", NULL);
	ask(s, f, 'A', NULL);
	wait_for_results(f, 1);
	g_assert_nonnull(strstr(mg_test_warnings->str, "cannot save the state in "));
	g_assert_cmpstr(f->heard->str, ==, "a!");
	g_assert_cmpuint(f->failures, ==, 1);

	g_free(f->rt.state_dir);
	f->rt.state_dir = g_steal_pointer(&dir);
	mg_state_ensure_profile(f->rt.state, "later");
	ask(s, f, 'B', "later");
	wait_for_results(f, 2);
	g_assert_cmpstr(f->heard->str, ==, "a!B!");
	g_assert_cmpuint(f->failures, ==, 1);
}

/* At the end: the save under way is waited for, what was asked since is
 * saved at once, and the asks are dropped unheard. */
static void
test_finish_saves_what_was_asked(Fixture *f, gconstpointer data)
{
	g_autoptr(MgStateSaver) s = mg_state_saver_new(&f->rt, on_result, f);

	ask(s, f, 'A', NULL);
	mg_state_ensure_profile(f->rt.state, "pending");
	ask(s, f, 'B', NULL);
	g_assert_true(mg_state_saver_finish(s, FALSE));
	g_assert_true(mg_test_state_holds(f->dir, "pending"));
	g_assert_cmpstr(f->heard->str, ==, "!!");
	g_assert_cmpuint(f->results, ==, 2);
	g_assert_false(mg_state_saver_busy(s));
}

/* With @force, finish saves even when nothing was asked. */
static void
test_finish_with_force_saves(Fixture *f, gconstpointer data)
{
	g_autoptr(MgStateSaver) s = mg_state_saver_new(&f->rt, on_result, f);

	mg_state_ensure_profile(f->rt.state, "unasked");
	g_assert_true(mg_state_saver_finish(s, TRUE));
	g_assert_true(mg_test_state_holds(f->dir, "unasked"));
	g_assert_cmpuint(f->results, ==, 1);
}

/* Freed while a save is under way: that save still ends whole, and no
 * ask hears of it afterwards (its result would reach a freed owner). */
static void
test_free_waits_for_the_save_under_way(Fixture *f, gconstpointer data)
{
	MgStateSaver *s = mg_state_saver_new(&f->rt, on_result, f);

	mg_state_ensure_profile(f->rt.state, "written");
	ask(s, f, 'A', NULL);
	mg_state_saver_free(s);
	g_assert_true(mg_test_state_holds(f->dir, "written"));
	while (g_main_context_iteration(NULL, FALSE))
		;
	g_assert_cmpstr(f->heard->str, ==, "!");
	g_assert_cmpuint(f->results, ==, 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mg_test_keep_warnings();
#define ADD(name, fn) g_test_add("/state-saver/" name, Fixture, NULL, setup, fn, teardown)
	ADD("asks-during-a-save-share-the-next", test_asks_during_a_save_share_the_next);
	ADD("a-failed-save-is-reported", test_a_failed_save_is_reported);
	ADD("finish-saves-what-was-asked", test_finish_saves_what_was_asked);
	ADD("finish-with-force-saves", test_finish_with_force_saves);
	ADD("free-waits-for-the-save-under-way", test_free_waits_for_the_save_under_way);
#undef ADD
	return g_test_run();
}
