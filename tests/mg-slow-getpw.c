/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A directory service that does not answer, for one program, preloaded
 * (LD_PRELOAD): getpwuid_r() for one uid waits while a file exists, as a
 * lookup in an LDAP or SSSD that is down does.
 *
 *   MG_SLOW_GETPW_UID=N    the uid whose lookups wait
 *   MG_SLOW_GETPW_GATE=F   each waits while file F exists
 *   MG_SLOW_GETPW_MARK=F   F exists while one waits */

#ifndef _GNU_SOURCE /* the build gives it; a testbed's gcc alone does not */
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void
mg_wait_at_gate(uid_t uid)
{
	const char *which = getenv("MG_SLOW_GETPW_UID");
	const char *gate = getenv("MG_SLOW_GETPW_GATE");
	const char *mark = getenv("MG_SLOW_GETPW_MARK");
	struct timespec ten_ms = { .tv_sec = 0, .tv_nsec = 10000000L };

	if (which == NULL || gate == NULL || (uid_t)strtoul(which, NULL, 10) != uid ||
	    access(gate, F_OK) != 0)
		return;
	if (mark != NULL) {
		int fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (fd >= 0)
			close(fd);
	}
	while (access(gate, F_OK) == 0)
		nanosleep(&ten_ms, NULL);
	if (mark != NULL)
		unlink(mark);
}

int
getpwuid_r(uid_t uid, struct passwd *pwd, char *buf, size_t buflen, struct passwd **result)
{
	int (*real)(uid_t, struct passwd *, char *, size_t, struct passwd **) =
	    (int (*)(uid_t, struct passwd *, char *, size_t, struct passwd **))dlsym(RTLD_NEXT,
										     "getpwuid_r");

	mg_wait_at_gate(uid);
	return real(uid, pwd, buf, buflen, result);
}
