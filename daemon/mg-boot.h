/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MG_BOOT_DEFAULT_KEYFILE_DIR "/etc/NetworkManager/system-connections"
/* Where NetworkManager reads configuration that lasts until shutdown. */
#define MG_BOOT_DEFAULT_NM_CONF_DIR "/run/NetworkManager/conf.d"

/* The boot step, run before NetworkManager starts: every managed profile
 * whose address is due (the machine may have been off for a week) gets a new
 * one written straight into its keyfile, so none comes up with a stale
 * address. Sets @rewritten to how many were. Then it writes NetworkManager's
 * first-contact defaults (mg-first-contact.h) into @paths->nm_conf_dir, drawn
 * anew.
 * A failure there is logged: the profiles' addresses matter more. */
typedef struct {
	const char *keyfile_dir;  /* NetworkManager's profiles */
	const char *nm_conf_dir;  /* where the first-contact defaults go */
	const char *nm_state_dir; /* NetworkManager's DHCP leases */
	const char *state_dir;    /* macguise's state */
	const char *config_path;  /* macguise.conf */
} MgBootPaths;

/* What the boot step did. */
typedef struct {
	/* macguised owns the state (mg_state_owner_lock()): nothing was done */
	gboolean daemon_runs;
	guint rewritten; /* profiles given a new address */
} MgBootResult;

/* A profile given a new address forgets its DHCP lease in
 * @paths->nm_state_dir (see mg_nm_forget_leases()). It owns the state while
 * it runs; where macguised owns it, it does nothing and says so in @result
 * (not an error: macguised keeps the addresses itself, and a NetworkManager
 * restart under it is no boot). While NetworkManager runs (it has its name
 * on the system bus) it refuses with MG_ERROR_BUSY and changes nothing:
 * NetworkManager keeps the profiles in memory and would write them back
 * over the new addresses. */
gboolean mg_boot_run(const MgBootPaths *paths, MgBootResult *result, GError **error);

G_END_DECLS
