/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One wall-clock timer (mg-wall-timer.h) for the earliest instant any
 * profile asked to be decided again at (its record's wake_at): no polling. */
#pragma once

#include "mg-profile-record.h"
#include "mg-wall-timer.h"

G_BEGIN_DECLS

typedef struct _MgWakeSchedule MgWakeSchedule;

/* @fired is called with @owner when the instant comes (or the clock is
 * set). @records is read, never changed, and outlives the schedule. */
MgWakeSchedule *mg_wake_schedule_new(MgProfileRecords *records,
				     MgWallTimerFunc fired,
				     gpointer owner,
				     GError **error);
void mg_wake_schedule_free(MgWakeSchedule *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgWakeSchedule, mg_wake_schedule_free)

/* The records' wake-up instants changed: the timer is set again once the
 * main loop is idle, for a burst of changes at once. */
void mg_wake_schedule_update_soon(MgWakeSchedule *s);
/* Nothing is to be decided until the next update (NetworkManager left). */
void mg_wake_schedule_stop(MgWakeSchedule *s);

G_END_DECLS
