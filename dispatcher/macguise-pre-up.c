/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise-pre-up: the front of the dispatcher hook. NetworkManager's
 * dispatcher runs it for every event of every profile once pre-up.d holds
 * a script, and waits for pre-up and pre-down; most of those need nothing.
 * This part links nothing but libc, so that it costs what a shell script
 * would: it leaves at once for other events, for loopback and for the
 * profiles macguised's link-check index lists, and hands every other
 * pre-up, argv and environment unchanged but for the instant it started,
 * to macguise-link-check, which asks macguised and checks the link. At
 * pre-down (installed in pre-down.d too) it removes the interface's IPv6
 * addresses while the link is up and waits, bounded, until the kernel has
 * sent its MLD leave reports, so that none is left for the next session's
 * address to send (mg-mld-leave.h). It never fails the activation. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mg-hook-started.h"
#include "mg-link-check-index.h"
#include "mg-mld-leave.h"

/* An index of thousands of profiles fits; anything larger is not ours. */
#define MG_INDEX_MAX_BYTES (1024 * 1024)

/* Whether the index, read by @lookup, says SKIP for @uuid. Only a
 * root-owned regular file nobody else may write is believed. */
static int
mg_index_skips(const char *uuid,
	       MgLinkCheckIndexAnswer (*lookup)(const char *, size_t, const char *))
{
	static char data[MG_INDEX_MAX_BYTES];
	struct stat st;
	size_t got = 0;
	int fd = open(MG_LINK_CHECK_INDEX, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) != 0 || st.st_size <= 0 ||
	    st.st_size > MG_INDEX_MAX_BYTES) {
		close(fd);
		return 0;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, data + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return got == (size_t)st.st_size && lookup(data, got, uuid) == MG_LINK_CHECK_INDEX_SKIP;
}

/* Whether @iface is a loopback device, which has no address to check
 * (NetworkManager 1.52 activates lo at its start, before macguised runs). */
static int
mg_is_loopback(const char *iface)
{
	char path[64], text[32];
	ssize_t n;
	int fd;

	if (iface == NULL || iface[0] == '\0' || strchr(iface, '/') != NULL ||
	    strlen(iface) >= IFNAMSIZ)
		return 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/flags", iface);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	return (strtoul(text, NULL, 16) & IFF_LOOPBACK) != 0;
}

/* The hook's start, for the checker: its window counts from here, so that
 * the checker's own start is spent inside the window, not after it. */
static void
mg_note_start(void)
{
	struct timespec now;
	char text[32];

	if (clock_gettime(CLOCK_MONOTONIC, &now) != 0)
		return;
	snprintf(text,
		 sizeof(text),
		 "%lld",
		 (long long)now.tv_sec * 1000000LL + (long long)(now.tv_nsec / 1000));
	setenv(MG_HOOK_STARTED_ENV, text, 1);
}

/* pre-down: the leave reports go now, from this session's address. Only
 * profiles macguise leaves alone are passed over; NetworkManager removes
 * the addresses itself a moment later. Says nothing of an address. */
static void
mg_pre_down(const char *iface, const char *uuid)
{
	MgMldLeave leave;

	if (mg_is_loopback(iface) ||
	    (uuid != NULL && mg_index_skips(uuid, mg_link_check_index_lists)))
		return;
	if (mg_mld_leave(iface, &leave) != 0)
		return;
	if (leave.end == MG_MLD_DRAIN_TIMEOUT)
		fprintf(stderr,
			"macguise-pre-up: %s: the kernel had not sent its MLD leave reports "
			"after %ld ms; some may follow from the next address\n",
			iface,
			leave.waited_ms);
}

int
main(int argc, char **argv)
{
	const char *action = getenv("NM_DISPATCHER_ACTION");
	const char *uuid = getenv("CONNECTION_UUID");

	mg_note_start();
	/* --help, --version and the like: the full program answers. */
	if (argc <= 1 || argv[1][0] != '-') {
		const char *iface = argc > 1 ? argv[1] : getenv("DEVICE_IFACE");
		if (action == NULL && argc > 2)
			action = argv[2];
		if (action != NULL && strcmp(action, "pre-down") == 0) {
			mg_pre_down(getenv("DEVICE_IP_IFACE") != NULL ? getenv("DEVICE_IP_IFACE")
								      : iface,
				    uuid);
			return 0;
		}
		if (action != NULL &&
		    (strcmp(action, "down") == 0 || strcmp(action, "pre-up") == 0) &&
		    !(uuid != NULL && mg_index_skips(uuid, mg_link_check_index_lists)))
			mg_mld_restore(iface);
		if (action == NULL || strcmp(action, "pre-up") != 0)
			return 0;
		if (mg_is_loopback(iface))
			return 0;
		if (uuid != NULL && mg_index_skips(uuid, mg_link_check_index_lookup))
			return 0;
	}
	execv(MG_LINK_CHECK_PATH, argv);
	/* Installed without its other half: say so, and stay out of the way. */
	fprintf(
	    stderr, "macguise-pre-up: cannot run %s: %s\n", MG_LINK_CHECK_PATH, strerror(errno));
	return 0;
}
