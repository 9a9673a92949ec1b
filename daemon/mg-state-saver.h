/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguised's state saves, off its main loop: a save is the whole file and
 * two fsyncs, which on a slow SD card take longer than the link check's
 * hook waits for an answer over D-Bus. The state is turned into text on the
 * main loop; a thread writes it. One save is under way at a time; asks made
 * meanwhile share the next one. */
#pragma once

#include "mg-profile.h"

G_BEGIN_DECLS

typedef struct _MgStateSaver MgStateSaver;

/* Called on the main loop once a save that holds every change made before
 * the ask has ended: @saved, whether it reached the disk. */
typedef void (*MgStateSaved)(gboolean saved, gpointer user_data);

/* Saves @rt's state (which must outlive the saver) into its directory;
 * @on_result hears of every save's result before the asks it served do. */
MgStateSaver *mg_state_saver_new(MgRuntime *rt, MgStateSaved on_result, gpointer user_data);
/* Without waiting for a save under way: its asks are dropped (their
 * @destroy called); use mg_state_saver_finish() first to keep them. */
void mg_state_saver_free(MgStateSaver *saver);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgStateSaver, mg_state_saver_free)

/* Asks for a save of the state as it is now; @done (may be NULL) hears
 * whether it was saved, then @destroy (may be NULL) frees @user_data. */
void mg_state_saver_save(MgStateSaver *saver,
			 MgStateSaved done,
			 gpointer user_data,
			 GDestroyNotify destroy);
/* Whether a save is under way or asked for. */
gboolean mg_state_saver_busy(MgStateSaver *saver);
/* For the end: waits for a save under way, then saves at once, on this
 * thread, what was asked for since (with @force, in any case). The asks
 * still waiting are dropped unheard. FALSE if a save failed. */
gboolean mg_state_saver_finish(MgStateSaver *saver, gboolean force);

G_END_DECLS
