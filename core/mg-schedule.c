/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-schedule"

#include "config.h"

#include "mg-schedule.h"

#include "mg-words.h"

static const char *const mg_event_names[] = {
	[MG_EVENT_SEEN] = "seen",
	[MG_EVENT_ACTIVATED] = "activated",
	[MG_EVENT_DEACTIVATED] = "deactivated",
	[MG_EVENT_TIMER] = "timer",
	[MG_EVENT_BOOT] = "boot",
	[MG_EVENT_CLOCK_JUMP] = "clock-jump",
	[MG_EVENT_LINK_SET] = "link-set",
	[MG_EVENT_REMOVED] = "removed",
};

static const char *const mg_action_names[] = {
	[MG_ACTION_KEEP] = "keep",
	[MG_ACTION_ASSIGN_NOW] = "assign-now",
	[MG_ACTION_ASSIGN_AT_DEACTIVATION] = "assign-at-deactivation",
	[MG_ACTION_ASSIGN_AND_REACTIVATE] = "assign-and-reactivate",
};

gboolean
mg_event_parse(const char *text, MgEvent *event)
{
	guint i;

	if (!mg_word_index(mg_event_names, G_N_ELEMENTS(mg_event_names), text, &i))
		return FALSE;
	*event = (MgEvent)i;
	return TRUE;
}

gboolean
mg_action_parse(const char *text, MgAction *action)
{
	guint i;

	if (!mg_word_index(mg_action_names, G_N_ELEMENTS(mg_action_names), text, &i))
		return FALSE;
	*action = (MgAction)i;
	return TRUE;
}

const char *
mg_action_to_string(MgAction action)
{
	return mg_action_names[action];
}

gint64
mg_schedule_due_at(const MgPolicy *policy, gint64 now, guint32 random)
{
	gint64 span;

	if (policy->mode == MG_MODE_OFF || policy->rotate != MG_ROTATE_INTERVAL)
		return 0;
	/* Uniform over [interval - interval/10, interval + interval/10). */
	span = policy->interval / 5;
	return now + policy->interval - policy->interval / 10 +
	       (gint64)(((guint64)random * (guint64)span) >> 32);
}

/* A new address is due: now if the profile is down, else when it goes down,
 * because changing a live connection's MAC means cutting it. */
static MgDecision
mg_rotate(gboolean active, const char *reason)
{
	MgDecision d = { active ? MG_ACTION_ASSIGN_AT_DEACTIVATION : MG_ACTION_ASSIGN_NOW,
			 reason,
			 0 };
	return d;
}

static MgDecision
mg_keep(const char *reason, gint64 wake_at)
{
	MgDecision d = { MG_ACTION_KEEP, reason, wake_at };
	return d;
}

static MgDecision
mg_schedule_decide_base(const MgPolicy *policy,
			const MgScheduleState *state,
			gboolean active,
			const char *boot_id,
			gint64 now,
			MgEvent event)
{
	gint64 due;

	if (policy->mode == MG_MODE_OFF)
		return mg_keep("off", 0);
	if (!state->has_address)
		return mg_rotate(active, "new");
	/* The decision depends on the state, not on the event alone, so an
	 * event the daemon missed while it was down is made up for on the
	 * next one: a rotation is never skipped. */
	if (state->pending || (policy->rotate == MG_ROTATE_ACTIVATION && state->used))
		return mg_rotate(active, event == MG_EVENT_DEACTIVATED ? "deactivated" : "pending");

	switch (policy->rotate) {
	case MG_ROTATE_NEVER:
		return mg_keep("never", 0);
	case MG_ROTATE_ACTIVATION:
		/* Up with this address now: the next activation needs another. */
		if (active)
			return mg_rotate(TRUE, "activation");
		return mg_keep("unused", 0);
	case MG_ROTATE_BOOT:
		if (g_strcmp0(state->boot_id, boot_id) != 0)
			return mg_rotate(active, "boot");
		return mg_keep("same-boot", 0);
	case MG_ROTATE_INTERVAL:
		/* A clock far behind the assignment (a board without RTC before
		 * NTP, a reset CMOS) would make the wait years long: rotate
		 * rather than skip. Its due time then follows the clock. */
		if (now + MG_SCHEDULE_CLOCK_SLACK < state->assigned_at)
			return mg_rotate(active, "clock-behind");
		/* Never wait longer than the policy allows now, even if the
		 * address was given a longer life under an earlier policy. */
		due = state->assigned_at + policy->interval + policy->interval / 10;
		if (state->due_at != 0)
			due = MIN(due, state->due_at);
		if (now >= due)
			return mg_rotate(active, "due");
		return mg_keep("not-due", due);
	default:
		g_assert_not_reached();
	}
}

/* A rotation waiting for a hotspot to go down may instead restart it in
 * its quiet hours, but only with nobody connected: clients would lose the
 * link for the restart (they find the same SSID again, with its new
 * BSSID). Outside the hours, wake at their start; inside with clients,
 * look again later. rotate=activation waits for the next activation by
 * design and is left alone. */
static MgDecision
mg_schedule_quiet_hours(const MgPolicy *policy,
			const MgScheduleState *state,
			gint64 now,
			MgDecision d)
{
	int until_start;

	if (d.action != MG_ACTION_ASSIGN_AT_DEACTIVATION || policy->quiet_start < 0 ||
	    state->local_minute < 0 || g_strcmp0(d.reason, "activation") == 0)
		return d;
	if (mg_policy_in_quiet_hours(policy, state->local_minute)) {
		if (state->idle) {
			d.action = MG_ACTION_ASSIGN_AND_REACTIVATE;
			d.reason = "quiet-hours";
		} else {
			d.reason = "clients-connected";
			d.wake_at = now + MG_SCHEDULE_QUIET_RECHECK;
		}
		return d;
	}
	until_start = (policy->quiet_start - state->local_minute + 24 * 60) % (24 * 60);
	d.wake_at = now + (gint64)until_start * 60;
	return d;
}

MgDecision
mg_schedule_decide(const MgPolicy *policy,
		   const MgScheduleState *state,
		   gboolean active,
		   const char *boot_id,
		   gint64 now,
		   MgEvent event)
{
	MgDecision d = mg_schedule_decide_base(policy, state, active, boot_id, now, event);
	return mg_schedule_quiet_hours(policy, state, now, d);
}
