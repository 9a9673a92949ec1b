/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-wall-timer.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <stdint.h>
#include <sys/timerfd.h>
#include <unistd.h>

struct _MgWallTimer {
	int fd;
	guint source_id;
	MgWallTimerFunc func;
	gpointer user_data;
};

static gboolean
mg_wall_timer_ready(int fd, GIOCondition condition, gpointer user_data)
{
	MgWallTimer *timer = user_data;
	uint64_t expirations;
	ssize_t n = read(fd, &expirations, sizeof(expirations));

	(void)condition;
	if (n == (ssize_t)sizeof(expirations))
		timer->func(FALSE, timer->user_data);
	else if (n < 0 && errno == ECANCELED)
		timer->func(TRUE, timer->user_data);
	/* EAGAIN: re-armed between the wake-up and the read; nothing to do */
	return G_SOURCE_CONTINUE;
}

MgWallTimer *
mg_wall_timer_new(MgWallTimerFunc func, gpointer user_data, GError **error)
{
	MgWallTimer *timer;
	int fd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);

	if (fd < 0) {
		int saved = errno;
		g_set_error(error,
			    G_IO_ERROR,
			    g_io_error_from_errno(saved),
			    "timerfd_create: %s",
			    g_strerror(saved));
		return NULL;
	}
	timer = g_new0(MgWallTimer, 1);
	timer->fd = fd;
	timer->func = func;
	timer->user_data = user_data;
	timer->source_id = g_unix_fd_add(fd, G_IO_IN, mg_wall_timer_ready, timer);
	return timer;
}

void
mg_wall_timer_arm(MgWallTimer *timer, gint64 at)
{
	struct itimerspec when = { .it_value = { .tv_sec = (time_t)at } };

	/* TFD_TIMER_CANCEL_ON_SET: a clock step ends the wait with ECANCELED. */
	if (timerfd_settime(timer->fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &when, NULL) !=
	    0)
		g_warning("cannot set the rotation timer: %s", g_strerror(errno));
}

void
mg_wall_timer_free(MgWallTimer *timer)
{
	if (timer == NULL)
		return;
	g_source_remove(timer->source_id);
	close(timer->fd);
	g_free(timer);
}
