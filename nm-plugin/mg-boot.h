/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MG_BOOT_DEFAULT_KEYFILE_DIR "/etc/NetworkManager/system-connections"

/* The boot step, run before NetworkManager starts: every managed profile
 * whose address is due (the machine may have been off for a week) gets a new
 * one written straight into its keyfile, so none comes up with a stale
 * address. Sets @rewritten to how many were. */
gboolean mg_boot_run(const char *keyfile_dir,
		     const char *state_dir,
		     const char *config_path,
		     guint *rewritten,
		     GError **error);

G_END_DECLS
