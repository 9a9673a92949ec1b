/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"
#include "config.h"

#include "mg-state-saver.h"
#include "mg-state-store.h"

typedef struct {
	MgStateSaved done;
	gpointer user_data;
	GDestroyNotify destroy;
} MgSaveAsk;

/* One save, shared by the thread that writes it and the main loop. */
typedef struct {
	MgStateSaver *saver; /* NULL once the saver no longer waits for it */
	char *dir;
	char *text;
	gsize len;
	gboolean saved;
	GError *error;
} MgSaveJob;

struct _MgStateSaver {
	MgRuntime *rt;
	MgStateSaved on_result;
	gpointer result_data;
	GPtrArray *asked;    /* MgSaveAsk: for the next save */
	GPtrArray *serving;  /* MgSaveAsk: for the save under way */
	GThread *thread;     /* writing the save under way; NULL: none */
	MgSaveJob *job;      /* the save under way */
	gboolean delivering; /* telling the asks: a save asked for now waits */
};

static void
mg_save_ask_drop(gpointer data)
{
	MgSaveAsk *ask = data;
	if (ask->destroy != NULL)
		ask->destroy(ask->user_data);
	g_free(ask);
}

static void
mg_save_job_clear(gpointer data)
{
	MgSaveJob *job = data;
	g_free(job->dir);
	g_free(job->text);
	g_clear_error(&job->error);
}

static void
mg_save_job_release(gpointer data)
{
	g_atomic_rc_box_release_full(data, mg_save_job_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgSaveJob, mg_save_job_release)

static void
mg_save_job_write(MgSaveJob *job)
{
	job->saved = mg_state_save_data(job->dir, job->text, job->len, &job->error);
}

/* The save's result, to the saver's watcher and then to each ask it served. */
static void
mg_state_saver_deliver(MgStateSaver *s, GPtrArray *asks, const MgSaveJob *job)
{
	if (!job->saved)
		g_warning("%s", job->error->message);
	s->delivering = TRUE;
	if (s->on_result != NULL)
		s->on_result(job->saved, s->result_data);
	for (guint i = 0; i < asks->len; i++) {
		MgSaveAsk *ask = g_ptr_array_index(asks, i);
		if (ask->done != NULL)
			ask->done(job->saved, ask->user_data);
	}
	g_ptr_array_set_size(asks, 0);
	s->delivering = FALSE;
}

/* The save under way has ended: its thread is done with it. */
static MgSaveJob *
mg_state_saver_take_job(MgStateSaver *s)
{
	g_thread_join(g_steal_pointer(&s->thread));
	s->job->saver = NULL;
	return g_steal_pointer(&s->job);
}

static void mg_state_saver_start(MgStateSaver *s);

/* A save has ended: the asks it served hear of it, and those made since
 * have theirs. */
static void
mg_state_saver_ended(MgStateSaver *s, const MgSaveJob *job)
{
	mg_state_saver_deliver(s, s->serving, job);
	if (s->asked->len > 0)
		mg_state_saver_start(s);
}

static gboolean
mg_state_saver_written(gpointer data)
{
	MgSaveJob *job = data;
	MgStateSaver *s = job->saver;

	if (s == NULL)
		return G_SOURCE_REMOVE;
	mg_save_job_release(mg_state_saver_take_job(s));
	mg_state_saver_ended(s, job);
	return G_SOURCE_REMOVE;
}

static gpointer
mg_state_saver_thread(gpointer data)
{
	MgSaveJob *job = data;
	mg_save_job_write(job);
	/* The thread's reference goes with the idle, which drops it. */
	g_idle_add_full(G_PRIORITY_DEFAULT, mg_state_saver_written, job, mg_save_job_release);
	return NULL;
}

static MgSaveJob *
mg_state_saver_job_new(MgStateSaver *s)
{
	MgSaveJob *job = g_atomic_rc_box_new0(MgSaveJob);
	job->dir = g_strdup(s->rt->state_dir);
	job->text = mg_runtime_state_text(s->rt, &job->len);
	return job;
}

static void
mg_state_saver_start(MgStateSaver *s)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(MgSaveJob) job = NULL;
	GPtrArray *swap = s->serving;

	s->serving = s->asked;
	s->asked = swap;
	s->job = mg_state_saver_job_new(s);
	s->job->saver = s;
	s->thread = g_thread_try_new(
	    "mg-save", mg_state_saver_thread, g_atomic_rc_box_acquire(s->job), &error);
	if (s->thread != NULL)
		return;
	/* No thread to be had: saved here, as before there were threads. */
	g_debug("saving on the main loop: %s", error->message);
	mg_save_job_release(s->job); /* the thread's reference */
	job = g_steal_pointer(&s->job);
	job->saver = NULL;
	mg_save_job_write(job);
	mg_state_saver_ended(s, job);
}

MgStateSaver *
mg_state_saver_new(MgRuntime *rt, MgStateSaved on_result, gpointer user_data)
{
	MgStateSaver *s = g_new0(MgStateSaver, 1);
	s->rt = rt;
	s->on_result = on_result;
	s->result_data = user_data;
	s->asked = g_ptr_array_new_with_free_func(mg_save_ask_drop);
	s->serving = g_ptr_array_new_with_free_func(mg_save_ask_drop);
	return s;
}

void
mg_state_saver_free(MgStateSaver *s)
{
	if (s->thread != NULL)
		mg_save_job_release(mg_state_saver_take_job(s));
	g_ptr_array_unref(s->asked);
	g_ptr_array_unref(s->serving);
	g_free(s);
}

void
mg_state_saver_save(MgStateSaver *s, MgStateSaved done, gpointer user_data, GDestroyNotify destroy)
{
	MgSaveAsk *ask = g_new0(MgSaveAsk, 1);
	ask->done = done;
	ask->user_data = user_data;
	ask->destroy = destroy;
	g_ptr_array_add(s->asked, ask);
	if (s->thread == NULL && !s->delivering)
		mg_state_saver_start(s);
}

gboolean
mg_state_saver_busy(MgStateSaver *s)
{
	return s->thread != NULL || s->asked->len > 0;
}

gboolean
mg_state_saver_finish(MgStateSaver *s, gboolean force)
{
	gboolean saved = TRUE;

	g_ptr_array_set_size(s->serving, 0);
	if (s->thread != NULL) {
		g_autoptr(MgSaveJob) job = mg_state_saver_take_job(s);
		mg_state_saver_deliver(s, s->serving, job);
		saved = job->saved;
	}
	if (s->asked->len > 0 || force) {
		g_autoptr(MgSaveJob) job = mg_state_saver_job_new(s);
		g_ptr_array_set_size(s->asked, 0);
		mg_save_job_write(job);
		mg_state_saver_deliver(s, s->serving, job);
		saved = saved && job->saved;
	}
	return saved;
}
