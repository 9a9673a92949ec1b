/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* NetworkManager's Update2 (before 1.44, without a version check) replaces
 * a profile whole, so a writer that read the profile before another's
 * write undoes that write when it writes its copy back. macguise's own
 * writers, macguised and the macguise command, take this lock, a file in
 * the state directory, from reading a profile to having written it back. */
#define MG_PROFILE_LOCK_FILE "profiles.lock"

/* Opens the lock in @state_dir, creating its file: a descriptor (close on
 * exec), or -1 and @error. */
int mg_profile_lock_open(const char *state_dir, GError **error);

/* Takes the lock on @fd if no other process holds it: TRUE once held. */
gboolean mg_profile_lock_try(int fd);

void mg_profile_lock_release(int fd);

G_END_DECLS
