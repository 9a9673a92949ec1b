/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-write-pipeline.h"

#include <unistd.h>

#include "mg-profile-lock.h"
#include "mg-reconcile.h"

struct _MgWritePipeline {
	MgStateSaver *saver;
	MgWritePipelineOps ops;
	gpointer owner;
	int lock_fd;
	gboolean lock_held;
	guint pending;       /* jobs taken in, not over */
	guint writing;       /* jobs in a slot */
	GQueue to_commit;    /* waiting for the save that records them */
	GQueue waiting_slot; /* recorded, waiting for a slot */
	GQueue locked_out;   /* in a slot, waiting for the lock */
	guint commit_id;     /* a save of what waits to be recorded, once idle */
	guint record_id;     /* a save of what writes made, soon */
	guint lock_retry_id;
	guint release_id; /* the lock is let go once idle, if no job came */
	guint save_retry_id;
	guint save_failures;  /* in a row: the retry backs off */
	gboolean save_wanted; /* a save was put off while writes waited for slots */
};

/* The jobs a save records, started once it has. */
typedef struct {
	MgWritePipeline *p;
	GPtrArray *jobs;
} MgCommit;

static gboolean
mg_write_pipeline_release(gpointer user_data)
{
	MgWritePipeline *p = user_data;

	p->release_id = 0;
	if (p->lock_held && p->pending == 0) {
		mg_profile_lock_release(p->lock_fd);
		p->lock_held = FALSE;
	}
	return G_SOURCE_REMOVE;
}

/* No job left: the lock goes once the main loop is idle, after what the
 * last write's end decided (a write decided again at once keeps it). */
static void
mg_write_pipeline_release_if_idle(MgWritePipeline *p)
{
	if (p->lock_held && p->pending == 0 && p->release_id == 0)
		p->release_id = g_idle_add(mg_write_pipeline_release, p);
}

static gboolean
mg_write_pipeline_take_lock(MgWritePipeline *p)
{
	if (p->lock_fd < 0 || p->lock_held)
		return TRUE;
	p->lock_held = mg_profile_lock_try(p->lock_fd);
	return p->lock_held;
}

static gboolean
mg_write_pipeline_lock_retry(gpointer user_data)
{
	MgWritePipeline *p = user_data;

	if (!mg_write_pipeline_take_lock(p))
		return G_SOURCE_CONTINUE;
	p->lock_retry_id = 0;
	g_debug("the profile lock is free again; %u writes go ahead",
		g_queue_get_length(&p->locked_out));
	while (!g_queue_is_empty(&p->locked_out))
		p->ops.write(p->owner, g_queue_pop_head(&p->locked_out));
	return G_SOURCE_REMOVE;
}

/* @job (recorded, if it had to be) goes ahead once it has a slot and the
 * lock. */
static void
mg_write_pipeline_start(MgWritePipeline *p, gpointer job)
{
	if (p->writing >= MG_WRITE_PIPELINE_SLOTS) {
		g_queue_push_tail(&p->waiting_slot, job);
		return;
	}
	p->writing++;
	if (mg_write_pipeline_take_lock(p)) {
		p->ops.write(p->owner, job);
		return;
	}
	if (g_queue_is_empty(&p->locked_out))
		g_debug("the macguise command holds the profile lock; writes wait for it");
	g_queue_push_tail(&p->locked_out, job);
	if (p->lock_retry_id == 0)
		p->lock_retry_id =
		    g_timeout_add(MG_WRITE_PIPELINE_LOCK_RETRY_MS, mg_write_pipeline_lock_retry, p);
}

static void
mg_commit_free(gpointer data)
{
	MgCommit *commit = data;
	g_ptr_array_unref(commit->jobs);
	g_free(commit);
}

static void
mg_write_pipeline_committed(gboolean saved, gpointer user_data)
{
	MgCommit *commit = user_data;
	MgWritePipeline *p = commit->p;
	GPtrArray *jobs = commit->jobs;

	if (saved) {
		g_ptr_array_set_free_func(jobs, NULL);
		for (guint i = 0; i < jobs->len; i++)
			mg_write_pipeline_start(p, g_ptr_array_index(jobs, i));
		return;
	}
	/* Not durably ours yet: their profiles must not have them. */
	for (guint i = 0; i < jobs->len; i++) {
		p->ops.unrecorded(p->owner, g_ptr_array_index(jobs, i));
		p->pending--;
	}
	mg_write_pipeline_release_if_idle(p);
	if (jobs->len > 0 && p->ops.unrecorded_done != NULL)
		p->ops.unrecorded_done(p->owner);
}

/* The state is saved once for every address drawn, and every write
 * recorded, since the last save: a save is the whole file and two fsyncs,
 * so one per address would cost more than the writes. While one save is
 * under way, the next gathers what comes meanwhile. */
static gboolean
mg_write_pipeline_commit(gpointer user_data)
{
	MgWritePipeline *p = user_data;
	MgCommit *commit = g_new0(MgCommit, 1);

	p->commit_id = 0;
	p->save_wanted = FALSE;
	g_clear_handle_id(&p->record_id, g_source_remove); /* this save records it */
	commit->p = p;
	commit->jobs = g_ptr_array_new_with_free_func(p->ops.job_free);
	while (!g_queue_is_empty(&p->to_commit))
		g_ptr_array_add(commit->jobs, g_queue_pop_head(&p->to_commit));
	mg_state_saver_save(p->saver, mg_write_pipeline_committed, commit, mg_commit_free);
	return G_SOURCE_REMOVE;
}

void
mg_write_pipeline_save_soon(MgWritePipeline *p)
{
	/* While a slot's worth of recorded writes wait for one, the save can
	 * wait too, and take more addresses with it (finished() asks again). */
	if (g_queue_get_length(&p->waiting_slot) >= MG_WRITE_PIPELINE_SLOTS)
		p->save_wanted = TRUE;
	else if (p->commit_id == 0)
		p->commit_id = g_idle_add(mg_write_pipeline_commit, p);
}

static gboolean
mg_write_pipeline_record(gpointer user_data)
{
	MgWritePipeline *p = user_data;

	p->record_id = 0;
	mg_state_saver_save(p->saver, NULL, NULL, NULL);
	return G_SOURCE_REMOVE;
}

void
mg_write_pipeline_record_soon(MgWritePipeline *p)
{
	if (p->commit_id == 0 && p->record_id == 0)
		p->record_id =
		    g_timeout_add(MG_WRITE_PIPELINE_RECORD_DELAY_MS, mg_write_pipeline_record, p);
}

void
mg_write_pipeline_submit(MgWritePipeline *p, gpointer job, gboolean record_first)
{
	p->pending++;
	if (!record_first) {
		mg_write_pipeline_start(p, job);
		return;
	}
	g_queue_push_tail(&p->to_commit, job);
	mg_write_pipeline_save_soon(p);
}

void
mg_write_pipeline_finished(MgWritePipeline *p)
{
	g_return_if_fail(p->writing > 0 && p->pending > 0);
	p->writing--;
	p->pending--;
	while (p->writing < MG_WRITE_PIPELINE_SLOTS && !g_queue_is_empty(&p->waiting_slot))
		mg_write_pipeline_start(p, g_queue_pop_head(&p->waiting_slot));
	if (!g_queue_is_empty(&p->to_commit) || p->save_wanted)
		mg_write_pipeline_save_soon(p);
	mg_write_pipeline_release_if_idle(p);
}

guint
mg_write_pipeline_pending(MgWritePipeline *p)
{
	return p->pending;
}

gboolean
mg_write_pipeline_holds_lock(MgWritePipeline *p)
{
	return p->lock_held;
}

void
mg_write_pipeline_note_failure(MgProfileRecord *r, gint64 now)
{
	r->failures++;
	r->retry_at = mg_reconcile_retry_at(r->failures, now);
}

static void
mg_write_pipeline_retried(gboolean saved, gpointer user_data)
{
	MgWritePipeline *p = user_data;

	/* A success also lets the writes that waited for it proceed. */
	if (!saved)
		return;
	g_message("the state directory is writable again");
	if (p->ops.saved_again != NULL)
		p->ops.saved_again(p->owner);
}

static gboolean
mg_write_pipeline_save_retry(gpointer user_data)
{
	MgWritePipeline *p = user_data;

	p->save_retry_id = 0;
	mg_state_saver_save(p->saver, mg_write_pipeline_retried, p, NULL);
	return G_SOURCE_REMOVE;
}

/* Every save's result: on failure the old file stays as it was (a save
 * writes a new one and renames it), and a retry is scheduled. */
static void
mg_write_pipeline_saved(gboolean saved, gpointer user_data)
{
	MgWritePipeline *p = user_data;
	guint delay;

	if (saved) {
		p->save_failures = 0;
		g_clear_handle_id(&p->save_retry_id, g_source_remove);
		return;
	}
	p->save_failures++;
	delay = (guint)mg_reconcile_retry_at(p->save_failures, 0);
	if (p->save_retry_id == 0)
		p->save_retry_id = g_timeout_add_seconds(delay, mg_write_pipeline_save_retry, p);
}

MgWritePipeline *
mg_write_pipeline_new(MgRuntime *rt, int lock_fd, const MgWritePipelineOps *ops, gpointer owner)
{
	MgWritePipeline *p = g_new0(MgWritePipeline, 1);

	p->saver = mg_state_saver_new(rt, mg_write_pipeline_saved, p);
	p->ops = *ops;
	p->owner = owner;
	p->lock_fd = lock_fd;
	g_queue_init(&p->to_commit);
	g_queue_init(&p->waiting_slot);
	g_queue_init(&p->locked_out);
	return p;
}

gboolean
mg_write_pipeline_stop(MgWritePipeline *p)
{
	gboolean unsaved =
	    p->commit_id != 0 || p->record_id != 0 || p->save_retry_id != 0 || p->save_wanted;

	g_clear_handle_id(&p->commit_id, g_source_remove);
	g_clear_handle_id(&p->record_id, g_source_remove);
	g_clear_handle_id(&p->save_retry_id, g_source_remove);
	g_clear_handle_id(&p->lock_retry_id, g_source_remove);
	p->save_wanted = FALSE;
	p->pending -= g_queue_get_length(&p->to_commit) + g_queue_get_length(&p->waiting_slot) +
		      g_queue_get_length(&p->locked_out);
	p->writing -= g_queue_get_length(&p->locked_out);
	g_queue_clear_full(&p->to_commit, p->ops.job_free);
	g_queue_clear_full(&p->waiting_slot, p->ops.job_free);
	g_queue_clear_full(&p->locked_out, p->ops.job_free);
	return mg_state_saver_finish(p->saver, unsaved);
}

void
mg_write_pipeline_free(MgWritePipeline *p)
{
	if (p == NULL)
		return;
	g_clear_pointer(&p->saver, mg_state_saver_free);
	g_clear_handle_id(&p->commit_id, g_source_remove);
	g_clear_handle_id(&p->record_id, g_source_remove);
	g_clear_handle_id(&p->lock_retry_id, g_source_remove);
	g_clear_handle_id(&p->release_id, g_source_remove);
	g_clear_handle_id(&p->save_retry_id, g_source_remove);
	g_queue_clear_full(&p->to_commit, p->ops.job_free);
	g_queue_clear_full(&p->waiting_slot, p->ops.job_free);
	g_queue_clear_full(&p->locked_out, p->ops.job_free);
	if (p->lock_fd >= 0)
		(void)close(p->lock_fd);
	g_free(p);
}
