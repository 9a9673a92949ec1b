/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The way every profile write of macguised goes, whatever it writes and
 * whatever it writes to (mg-nm-write.h writes into NetworkManager):
 *
 *  1. Record before write: a write of a new address waits for the save of
 *     the state that records it (the address is then never handed out
 *     again, and is known as ours, whatever happens next). One save serves
 *     every write recorded meanwhile; a save that fails writes nothing.
 *  2. Slots: at most MG_WRITE_PIPELINE_SLOTS writes at once; the others
 *     wait, oldest first.
 *  3. The profile lock (mg-profile-lock.h): a write starts once it is had;
 *     while the macguise command holds it, writes try again every
 *     MG_WRITE_PIPELINE_LOCK_RETRY_MS. It is let go when no write is left,
 *     once the main loop is idle.
 *  4. Back-off: a state that cannot be saved is saved again after 5 s,
 *     10 s, ... up to 10 min; so is a profile whose write failed
 *     (mg_write_pipeline_note_failure()).
 *
 * A job is the caller's; the pipeline only orders it. */
#pragma once

#include "mg-profile-record.h"
#include "mg-state-saver.h"

G_BEGIN_DECLS

/* Writes under way at once. The system bus refuses a client more than
 * max_replies_per_connection (128 on Debian) pending calls, and a refused
 * write would stall its profile; a few at a time keep NetworkManager as
 * busy as more would. */
#define MG_WRITE_PIPELINE_SLOTS 16

#define MG_WRITE_PIPELINE_LOCK_RETRY_MS 100

/* A profile's first address, once written, is saved this long after, with
 * whatever else changed meanwhile (mg_write_pipeline_record_soon()). */
#define MG_WRITE_PIPELINE_RECORD_DELAY_MS 500

typedef struct {
	/* Writes @job: it has a slot and the lock. Its end, however it ends,
	 * is told with mg_write_pipeline_finished(), from within this call
	 * too (a write with nothing to do ends at once): the pipeline then
	 * gives the freed slot to the next job before this call returns. */
	void (*write)(gpointer owner, gpointer job);
	/* @job's new address could not be recorded: it is not written, and
	 * is freed after. */
	void (*unrecorded)(gpointer owner, gpointer job);
	/* The jobs of a failed save were all told of; NULL: nothing to do. */
	void (*unrecorded_done)(gpointer owner);
	/* A save succeeded after one failed. */
	void (*saved_again)(gpointer owner);
	GDestroyNotify job_free;
} MgWritePipelineOps;

typedef struct _MgWritePipeline MgWritePipeline;

/* Saves @rt's state (mg-state-saver.h) and takes the lock on @lock_fd (-1:
 * none, writes go ahead without it; closed with the pipeline). */
MgWritePipeline *
mg_write_pipeline_new(MgRuntime *rt, int lock_fd, const MgWritePipelineOps *ops, gpointer owner);
void mg_write_pipeline_free(MgWritePipeline *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgWritePipeline, mg_write_pipeline_free)

/* Takes @job in: written once the state as it is now is saved (with
 * @record_first), else as soon as a slot and the lock are had. */
void mg_write_pipeline_submit(MgWritePipeline *p, gpointer job, gboolean record_first);
/* A job given to ops->write is over: its slot is free. */
void mg_write_pipeline_finished(MgWritePipeline *p);

/* Saves the state once the main loop is idle, with every job waiting to
 * be recorded. */
void mg_write_pipeline_save_soon(MgWritePipeline *p);
/* Saves the state within MG_WRITE_PIPELINE_RECORD_DELAY_MS. */
void mg_write_pipeline_record_soon(MgWritePipeline *p);

/* Jobs taken in and not yet over (or told unrecorded). */
guint mg_write_pipeline_pending(MgWritePipeline *p);
/* Whether the lock is held. */
gboolean mg_write_pipeline_holds_lock(MgWritePipeline *p);

/* A profile's write failed at @now: the next is tried after a back-off
 * that doubles with each failure in a row (mg_reconcile_retry_at). */
void mg_write_pipeline_note_failure(MgProfileRecord *r, gint64 now);

/* The end: jobs not yet given to ops->write are dropped (those waiting to
 * be recorded, for a slot or for the lock; new addresses among them are in
 * the history, never given out again); the save under way is waited for,
 * and what changed since saved (a save put off while writes waited for
 * slots too). FALSE if that save failed. */
gboolean mg_write_pipeline_stop(MgWritePipeline *p);

G_END_DECLS
