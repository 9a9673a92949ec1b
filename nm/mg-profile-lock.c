/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-profile-lock.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <sys/file.h>

int
mg_profile_lock_open(const char *state_dir, GError **error)
{
	g_autofree char *path = g_build_filename(state_dir, MG_PROFILE_LOCK_FILE, NULL);
	/* Read-only is enough for flock, and keeps a remount read-only possible. */
	int fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0) {
		int saved = errno;
		g_set_error(error,
			    G_IO_ERROR,
			    g_io_error_from_errno(saved),
			    _("cannot open the profile lock %s: %s"),
			    path,
			    g_strerror(saved));
	}
	return fd;
}

gboolean
mg_profile_lock_try(int fd)
{
	/* flock, not fcntl: it belongs to the open file, so the daemon's one
	 * descriptor is held across its asynchronous writes. */
	return flock(fd, LOCK_EX | LOCK_NB) == 0;
}

void
mg_profile_lock_release(int fd)
{
	(void)flock(fd, LOCK_UN);
}
