/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-wake-schedule.h"

struct _MgWakeSchedule {
	MgProfileRecords *records;
	MgWallTimer *timer;
	guint update_id; /* the timer is to be set again, once idle */
};

MgWakeSchedule *
mg_wake_schedule_new(MgProfileRecords *records,
		     MgWallTimerFunc fired,
		     gpointer owner,
		     GError **error)
{
	g_autoptr(MgWallTimer) timer = mg_wall_timer_new(fired, owner, error);
	MgWakeSchedule *s;

	if (timer == NULL)
		return NULL;
	s = g_new0(MgWakeSchedule, 1);
	s->records = records;
	s->timer = g_steal_pointer(&timer);
	return s;
}

void
mg_wake_schedule_free(MgWakeSchedule *s)
{
	if (s == NULL)
		return;
	g_clear_handle_id(&s->update_id, g_source_remove);
	mg_wall_timer_free(s->timer);
	g_free(s);
}

/* An instant already past (the decision waits for something) is looked at
 * again a second from now, not in a loop. */
static gboolean
mg_wake_schedule_update_now(gpointer user_data)
{
	MgWakeSchedule *s = user_data;
	GHashTableIter iter;
	MgProfileRecord *r;
	gint64 earliest = G_MAXINT64;
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;

	mg_profile_records_iter_init(s->records, &iter);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&r))
		if (r->wake_at != 0)
			earliest = MIN(earliest, r->wake_at);
	/* (once per burst of decisions: a cheap place to look at them all) */
	mg_profile_records_check(s->records);
	mg_wall_timer_arm(s->timer, earliest == G_MAXINT64 ? 0 : MAX(earliest, now + 1));
	s->update_id = 0;
	return G_SOURCE_REMOVE;
}

void
mg_wake_schedule_update_soon(MgWakeSchedule *s)
{
	if (s->update_id == 0)
		s->update_id = g_idle_add(mg_wake_schedule_update_now, s);
}

void
mg_wake_schedule_stop(MgWakeSchedule *s)
{
	g_clear_handle_id(&s->update_id, g_source_remove);
	mg_wall_timer_arm(s->timer, 0);
}
