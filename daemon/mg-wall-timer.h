/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A timer for an instant of wall-clock time. Rotations are due at wall-clock
 * instants, and GLib's timeouts count monotonic time, which stands still
 * while the machine is suspended: a laptop that slept past a due time would
 * wake up, reconnect and keep the spent address until the timeout ran out.
 * This one (a CLOCK_REALTIME timerfd) fires at the instant itself, at resume
 * if it passed during sleep, and at once when the clock is set (NTP's first
 * step on a board without a real-time clock): then @clock_set is TRUE. */
typedef void (*MgWallTimerFunc)(gboolean clock_set, gpointer user_data);
typedef struct _MgWallTimer MgWallTimer;

MgWallTimer *mg_wall_timer_new(MgWallTimerFunc func, gpointer user_data, GError **error);
/* Fires at @at (seconds since the epoch; one already past: at once), or
 * never with 0. */
void mg_wall_timer_arm(MgWallTimer *timer, gint64 at);
void mg_wall_timer_free(MgWallTimer *timer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgWallTimer, mg_wall_timer_free)

G_END_DECLS
