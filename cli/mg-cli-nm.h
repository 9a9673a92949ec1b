/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <NetworkManager.h>

#include "mg-config.h"
#include "mg-state.h"

G_BEGIN_DECLS

/* Before reading profiles it will write: waits for macguised's profile
 * writes under way to finish, and keeps its next ones waiting until this
 * process ends (mg-profile-lock.h), so that neither undoes the other's. No
 * lock to take (no state directory, or a user who cannot open it) is no
 * wait; FALSE with @error if macguised keeps it longer than
 * MG_CLI_LOCK_WAIT_S. */
#define MG_CLI_LOCK_WAIT_S 60
gboolean mg_cli_lock_profiles(GError **error);

/* How long the command waits for an answer over D-Bus. */
#define MG_CLI_CALL_TIMEOUT_MS 10000

/* NetworkManager, or an error saying it is not running. */
NMClient *mg_cli_nm_client(GError **error);
/* A profile by UUID, id or keyfile name (path or base name, with or without
 * .nmconnection), as nmcli takes them. */
NMRemoteConnection *mg_cli_find_profile(NMClient *client, const char *name, GError **error);
/* Every Ethernet and Wi-Fi profile, sorted by id, or those named. */
GPtrArray *mg_cli_profiles(NMClient *client, char **names, GError **error);
/* What status, audit, harden and rotate start with: the catalogue,
 * NetworkManager and the profiles named (all when none). MG_EXIT_OK, or a
 * failure printed and its exit status (mg_cli_failure). */
int mg_cli_open(const char *command, char **names, NMClient **client, GPtrArray **profiles);
gboolean mg_cli_profile_is_active(NMClient *client, NMConnection *connection);
/* Writes @changed over @rc (to disk where it is kept there), waiting for
 * NetworkManager's answer: its authorization applies. */
gboolean mg_cli_update_profile(NMRemoteConnection *rc, NMConnection *changed, GError **error);

/* The system bus and macguised's API: NULL with @error when it is not there. */
GDBusConnection *mg_cli_bus(GError **error);
GVariant *mg_cli_daemon_call(const char *method,
			     GVariant *args,
			     const char *reply_type,
			     gboolean auto_start,
			     GError **error);

/* The mode and rotation macguised applies to a profile (GetStatus). */
typedef struct {
	char *mode;
	char *rotate;
} MgAppliedPolicy;

/* What the CLI knows about each profile's macguise state: from macguised
 * when it runs, else from the state file (root only), else nothing. */
typedef struct {
	gboolean daemon_running;
	gboolean state_readable;
	char *state_problem; /* why not, for people */
	MgConfig config;
	GPtrArray *config_problems; /* MgConfigProblem: the lines left out */
	MgState *state;             /* the profiles' states, from either source */
	GHashTable *applied;        /* UUID -> MgAppliedPolicy, when macguised runs */
} MgCliState;

void mg_cli_state_load(MgCliState *st);
void mg_cli_state_clear(MgCliState *st);

G_END_DECLS
