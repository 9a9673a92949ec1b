/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A slow disk for one program, preloaded (LD_PRELOAD): fsync() and
 * fdatasync() take longer, as on a worn SD card.
 *
 *   MG_SLOW_FSYNC_MS=N     each takes N ms more
 *   MG_SLOW_FSYNC_GATE=F   each waits while file F exists (a test holds a
 *                          save inside its fsync for as long as it likes)
 *   MG_SLOW_FSYNC_MARK=F   F exists while one waits */

#ifndef _GNU_SOURCE /* the build gives it; a testbed's gcc alone does not */
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void
mg_sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

static void
mg_slow_down(void)
{
	const char *ms = getenv("MG_SLOW_FSYNC_MS");
	const char *gate = getenv("MG_SLOW_FSYNC_GATE");
	const char *mark = getenv("MG_SLOW_FSYNC_MARK");

	if (mark != NULL) {
		int fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (fd >= 0)
			close(fd);
	}
	if (ms != NULL)
		mg_sleep_ms(strtol(ms, NULL, 10));
	while (gate != NULL && access(gate, F_OK) == 0)
		mg_sleep_ms(10);
	if (mark != NULL)
		unlink(mark);
}

int
fsync(int fd)
{
	int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	mg_slow_down();
	return real(fd);
}

int
fdatasync(int fd)
{
	int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
	mg_slow_down();
	return real(fd);
}
