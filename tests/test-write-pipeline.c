/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The way every profile write of macguised goes (daemon/mg-write-pipeline.c),
 * on its own: its ordering (record before write, slots, the profile lock)
 * and its back-off, against a real state directory, a real state saver and
 * the real profile lock. The writer is the test's: it notes each write it
 * is given, and ends it when the test says. */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "mg-profile-lock.h"
#include "mg-reconcile.h"
#include "mg-state-store.h"
#include "mg-test-state-dir.h"
#include "mg-test-warnings.h"
#include "mg-write-pipeline.h"

typedef struct {
	MgRuntime rt;
	char *dir;
	MgWritePipeline *p;
	GString *written;    /* each job's letter as the writer was given it */
	GString *unrecorded; /* each job's letter as it was told unrecorded */
	guint unrecorded_done;
	guint saved_again;
	guint freed;
} Fixture;

typedef struct {
	Fixture *f;
	char letter;
	char *must_hold; /* a profile the state file holds when it is written */
} Job;

static void
on_write(gpointer owner, gpointer job)
{
	Fixture *f = owner;
	Job *j = job;

	if (j->must_hold != NULL)
		g_assert_true(mg_test_state_holds(f->dir, j->must_hold));
	g_string_append_c(f->written, j->letter);
	/* (the test ends it with mg_write_pipeline_finished) */
}

static void
on_unrecorded(gpointer owner, gpointer job)
{
	Fixture *f = owner;
	g_string_append_c(f->unrecorded, ((Job *)job)->letter);
}

static void
on_unrecorded_done(gpointer owner)
{
	((Fixture *)owner)->unrecorded_done++;
}

static void
on_saved_again(gpointer owner)
{
	((Fixture *)owner)->saved_again++;
}

static void
job_free(gpointer job)
{
	Job *j = job;
	j->f->freed++;
	g_free(j->must_hold);
	g_free(j);
}

static const MgWritePipelineOps ops = {
	.write = on_write,
	.unrecorded = on_unrecorded,
	.unrecorded_done = on_unrecorded_done,
	.saved_again = on_saved_again,
	.job_free = job_free,
};

/* Jobs given to the writer are the test's to free. */
static Job *
job_new(Fixture *f, char letter, const char *must_hold)
{
	Job *j = g_new0(Job, 1);
	j->f = f;
	j->letter = letter;
	j->must_hold = g_strdup(must_hold);
	return j;
}

static void
setup(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	int lock;

	f->dir = mg_test_runtime_new(&f->rt, "mg-pipeline-XXXXXX");
	lock = mg_profile_lock_open(f->dir, &error);
	g_assert_no_error(error);
	f->p = mg_write_pipeline_new(&f->rt, lock, &ops, f);
	f->written = g_string_new(NULL);
	f->unrecorded = g_string_new(NULL);
}

static void
teardown(Fixture *f, gconstpointer data)
{
	g_clear_pointer(&f->p, mg_write_pipeline_free);
	mg_test_runtime_remove(&f->rt, f->dir);
	g_string_free(f->written, TRUE);
	g_string_free(f->unrecorded, TRUE);
	/* only the test that expects a warning may leave one */
	mg_test_warnings_checked("failed-save-writes-nothing");
}

static void
wait_until_written(Fixture *f, gsize n)
{
	while (f->written->len < n)
		g_main_context_iteration(NULL, TRUE);
}

/* A new address reaches the writer only once the state file holds it; a
 * write with nothing new to record goes at once. */
static void
test_recorded_before_written(Fixture *f, gconstpointer data)
{
	Job *a, *b;

	mg_state_ensure_profile(f->rt.state, "drawn");
	a = job_new(f, 'A', "drawn");
	b = job_new(f, 'B', NULL);
	mg_write_pipeline_submit(f->p, a, TRUE);
	g_assert_cmpstr(f->written->str, ==, "");
	mg_write_pipeline_submit(f->p, b, FALSE);
	g_assert_cmpstr(f->written->str, ==, "B");
	wait_until_written(f, 2);
	g_assert_cmpstr(f->written->str, ==, "BA");
	g_assert_cmpuint(mg_write_pipeline_pending(f->p), ==, 2);
	mg_write_pipeline_finished(f->p);
	mg_write_pipeline_finished(f->p);
	g_assert_cmpuint(mg_write_pipeline_pending(f->p), ==, 0);
	job_free(a);
	job_free(b);
}

/* A save that fails writes none of the addresses it was to record: each
 * is told unrecorded and freed; the save is tried again after the first
 * back-off (5 s), and its success is told. */
static void
test_failed_save_writes_nothing(Fixture *f, gconstpointer data)
{
	g_autofree char *dir = f->rt.state_dir;

	f->rt.state_dir = g_build_filename(dir, "missing", NULL);
	mg_write_pipeline_submit(f->p, job_new(f, 'A', NULL), TRUE);
	mg_write_pipeline_submit(f->p, job_new(f, 'B', NULL), TRUE);
	while (f->unrecorded_done == 0)
		g_main_context_iteration(NULL, TRUE);
	g_assert_cmpstr(f->written->str, ==, "");
	g_assert_cmpstr(f->unrecorded->str, ==, "AB");
	g_assert_cmpuint(f->unrecorded_done, ==, 1);
	g_assert_cmpuint(f->freed, ==, 2);
	g_assert_cmpuint(mg_write_pipeline_pending(f->p), ==, 0);
	g_assert_nonnull(strstr(mg_test_warnings->str, "cannot save the state in "));

	g_free(f->rt.state_dir);
	f->rt.state_dir = g_steal_pointer(&dir);
	while (f->saved_again == 0)
		g_main_context_iteration(NULL, TRUE);
	g_assert_cmpuint(f->saved_again, ==, 1);
}

/* At most MG_WRITE_PIPELINE_SLOTS writes at once; the others wait, oldest
 * first, and start as slots free. */
static void
test_slots(Fixture *f, gconstpointer data)
{
	g_autoptr(GPtrArray) jobs = g_ptr_array_new_with_free_func(job_free);
	const guint n = MG_WRITE_PIPELINE_SLOTS + 3;

	for (guint i = 0; i < n; i++) {
		Job *j = job_new(f, (char)('a' + i), NULL);
		g_ptr_array_add(jobs, j);
		mg_write_pipeline_submit(f->p, j, FALSE);
	}
	g_assert_cmpuint(f->written->len, ==, MG_WRITE_PIPELINE_SLOTS);
	mg_write_pipeline_finished(f->p);
	g_assert_cmpuint(f->written->len, ==, MG_WRITE_PIPELINE_SLOTS + 1);
	g_assert_cmpint(
	    f->written->str[MG_WRITE_PIPELINE_SLOTS], ==, 'a' + MG_WRITE_PIPELINE_SLOTS);
	for (guint i = 0; i < 3; i++)
		mg_write_pipeline_finished(f->p);
	g_assert_cmpuint(f->written->len, ==, n);
	for (guint i = 0; i < n; i++)
		g_assert_cmpint(f->written->str[i], ==, 'a' + i);
	while (mg_write_pipeline_pending(f->p) > 0)
		mg_write_pipeline_finished(f->p);
}

/* While another process (the macguise command) holds the profile lock, no
 * write starts; once it lets go, they do; when none is left, macguised
 * lets go in turn, once idle. */
static void
test_lock(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	int command = mg_profile_lock_open(f->dir, &error);
	Job *a = job_new(f, 'A', NULL);

	g_assert_no_error(error);
	g_assert_true(mg_profile_lock_try(command));
	mg_write_pipeline_submit(f->p, a, FALSE);
	g_assert_cmpstr(f->written->str, ==, "");
	g_assert_false(mg_write_pipeline_holds_lock(f->p));
	mg_profile_lock_release(command);
	wait_until_written(f, 1);
	g_assert_true(mg_write_pipeline_holds_lock(f->p));
	g_assert_false(mg_profile_lock_try(command));
	mg_write_pipeline_finished(f->p);
	/* a write decided at its end keeps the lock: it is let go once idle */
	g_assert_true(mg_write_pipeline_holds_lock(f->p));
	while (mg_write_pipeline_holds_lock(f->p))
		g_main_context_iteration(NULL, TRUE);
	g_assert_true(mg_profile_lock_try(command));
	mg_profile_lock_release(command);
	close(command);
	job_free(a);
}

/* A profile whose writes keep failing is tried after 5 s, 10 s, 20 s, ...
 * up to 10 min; a success starts afresh. */
static void
test_back_off(Fixture *f, gconstpointer data)
{
	static const gint64 delays[] = { 5, 10, 20, 40, 80, 160, 320, 600, 600, 600 };
	MgProfileRecord r = { 0 };

	for (guint i = 0; i < G_N_ELEMENTS(delays); i++) {
		mg_write_pipeline_note_failure(&r, 1000);
		g_assert_cmpuint(r.failures, ==, i + 1);
		g_assert_cmpint(r.retry_at - 1000, ==, delays[i]);
	}
	mg_profile_record_write_ok(&r);
	g_assert_cmpuint(r.failures, ==, 0);
	g_assert_cmpint(r.retry_at, ==, 0);
}

/* At the end, writes still waiting for their record are dropped unwritten,
 * and what changed is saved. */
static void
test_stop_drops_unrecorded(Fixture *f, gconstpointer data)
{
	mg_state_ensure_profile(f->rt.state, "changed");
	mg_write_pipeline_submit(f->p, job_new(f, 'A', NULL), TRUE);
	g_assert_true(mg_write_pipeline_stop(f->p));
	g_assert_cmpuint(f->freed, ==, 1);
	g_assert_cmpuint(mg_write_pipeline_pending(f->p), ==, 0);
	g_assert_true(mg_test_state_holds(f->dir, "changed"));
	while (g_main_context_iteration(NULL, FALSE))
		;
	g_assert_cmpstr(f->written->str, ==, "");
}

/* A save asked for while a slot's worth of writes wait for slots is put
 * off, not dropped: the end saves it, and the jobs not yet written are
 * dropped with it. */
static void
test_stop_saves_what_waited_for_slots(Fixture *f, gconstpointer data)
{
	g_autoptr(GPtrArray) written = g_ptr_array_new_with_free_func(job_free);
	const guint n = 2 * MG_WRITE_PIPELINE_SLOTS;

	for (guint i = 0; i < n; i++) {
		Job *j = job_new(f, (char)('a' + i % 26), NULL);
		if (i < MG_WRITE_PIPELINE_SLOTS)
			g_ptr_array_add(written, j); /* the writer's, the test's to free */
		mg_write_pipeline_submit(f->p, j, FALSE);
	}
	mg_state_ensure_profile(f->rt.state, "changed");
	mg_write_pipeline_save_soon(f->p);
	g_assert_true(mg_write_pipeline_stop(f->p));
	g_assert_true(mg_test_state_holds(f->dir, "changed"));
	g_assert_cmpuint(f->written->len, ==, MG_WRITE_PIPELINE_SLOTS);
	g_assert_cmpuint(f->freed, ==, n - MG_WRITE_PIPELINE_SLOTS);
	while (mg_write_pipeline_pending(f->p) > 0)
		mg_write_pipeline_finished(f->p);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mg_test_keep_warnings();
#define ADD(name, fn) g_test_add("/write-pipeline/" name, Fixture, NULL, setup, fn, teardown)
	ADD("recorded-before-written", test_recorded_before_written);
	ADD("failed-save-writes-nothing", test_failed_save_writes_nothing);
	ADD("slots", test_slots);
	ADD("lock", test_lock);
	ADD("back-off", test_back_off);
	ADD("stop-drops-unrecorded", test_stop_drops_unrecorded);
	ADD("stop-saves-what-waited-for-slots", test_stop_saves_what_waited_for_slots);
#undef ADD
	return g_test_run();
}
