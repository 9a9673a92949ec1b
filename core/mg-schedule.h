/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-policy.h"

G_BEGIN_DECLS

/* What happened to a profile, as the daemon sees it. */
typedef enum {
	MG_EVENT_SEEN, /* the profile appeared, or the daemon (re)started */
	MG_EVENT_ACTIVATED,
	MG_EVENT_DEACTIVATED,
	MG_EVENT_TIMER,      /* a wake-up the schedule asked for */
	MG_EVENT_BOOT,       /* the boot step, before NetworkManager starts */
	MG_EVENT_CLOCK_JUMP, /* the wall clock moved (suspend, NTP) */
	MG_EVENT_LINK_SET,   /* an activation has set the link's address */
	MG_EVENT_REMOVED,    /* the profile is gone from NetworkManager */
} MgEvent;

typedef enum {
	MG_ACTION_KEEP,
	MG_ACTION_ASSIGN_NOW,             /* write a new address into the profile */
	MG_ACTION_ASSIGN_AT_DEACTIVATION, /* it is active: wait until it goes down */
	MG_ACTION_ASSIGN_AND_REACTIVATE,  /* an idle hotspot in its quiet hours: restart it now */
} MgAction;

/* The part of a profile's state the schedule reads. Times are wall-clock
 * seconds since the epoch. */
typedef struct {
	gboolean has_address;
	gint64 assigned_at;
	gint64 due_at;       /* 0: no time-based rotation pending */
	gboolean used;       /* activated since the address was assigned */
	gboolean pending;    /* a rotation waits for the next deactivation */
	const char *boot_id; /* the boot the address was assigned in */
	/* For policies with quiet hours: the minute of the local day now
	 * (-1: unknown), and whether the link has no client at all (an
	 * access point with no associated station; FALSE when unknown). */
	int local_minute;
	gboolean idle;
} MgScheduleState;

typedef struct {
	MgAction action;
	const char *reason; /* a stable word for logs and tests */
	gint64 wake_at;     /* the next instant worth waking for; 0 for none */
} MgDecision;

/* A wall clock more than this far behind the recorded assignment time is
 * treated as wrong, so the rotation happens rather than waiting years. */
#define MG_SCHEDULE_CLOCK_SLACK 3600
/* In quiet hours with clients still connected: look again this much later. */
#define MG_SCHEDULE_QUIET_RECHECK 600

MgDecision mg_schedule_decide(const MgPolicy *policy,
			      const MgScheduleState *state,
			      gboolean active,
			      const char *boot_id,
			      gint64 now,
			      MgEvent event);

/* When an address assigned at @now falls due: the interval, shortened or
 * lengthened by up to a tenth at random (@random is a uniform 32-bit draw),
 * so machines do not rotate in lock-step. 0 for policies without an interval. */
gint64 mg_schedule_due_at(const MgPolicy *policy, gint64 now, guint32 random);

gboolean mg_event_parse(const char *text, MgEvent *event);
gboolean mg_action_parse(const char *text, MgAction *action);
const char *mg_action_to_string(MgAction action);

G_END_DECLS
