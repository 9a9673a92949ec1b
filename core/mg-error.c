/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-error.h"

#include <gio/gio.h>

static const char *const mg_error_ids[] = {
	[MG_ERROR_INVALID_MAC] = "invalid-mac",
	[MG_ERROR_INVALID_PREFIX] = "invalid-prefix",
	[MG_ERROR_CATALOGUE] = "catalogue",
	[MG_ERROR_NOT_FOUND] = "not-found",
	[MG_ERROR_NO_CANDIDATE] = "no-candidate",
	[MG_ERROR_REGISTRY] = "registry",
	[MG_ERROR_RANDOMNESS] = "randomness",
	[MG_ERROR_POLICY] = "policy",
	[MG_ERROR_CONFIG] = "config",
	[MG_ERROR_STATE] = "state",
	[MG_ERROR_HOOK_ENV] = "hook-env",
	[MG_ERROR_NM_NOT_RUNNING] = "networkmanager-not-running",
	[MG_ERROR_DAEMON_NOT_RUNNING] = "daemon-not-running",
	[MG_ERROR_PERMISSION] = "permission-denied",
	[MG_ERROR_REFUSED] = "refused",
	[MG_ERROR_BUSY] = "busy",
};

/* The D-Bus names macguised's errors travel under, so that a caller gets
 * the MgError back rather than a generic one. */
static const GDBusErrorEntry mg_error_dbus_names[] = {
	{ MG_ERROR_INVALID_MAC, "org.macguise.Error.InvalidMac" },
	{ MG_ERROR_INVALID_PREFIX, "org.macguise.Error.InvalidPrefix" },
	{ MG_ERROR_CATALOGUE, "org.macguise.Error.Catalogue" },
	{ MG_ERROR_NOT_FOUND, "org.macguise.Error.NotFound" },
	{ MG_ERROR_NO_CANDIDATE, "org.macguise.Error.NoCandidate" },
	{ MG_ERROR_REGISTRY, "org.macguise.Error.Registry" },
	{ MG_ERROR_RANDOMNESS, "org.macguise.Error.Randomness" },
	{ MG_ERROR_POLICY, "org.macguise.Error.Policy" },
	{ MG_ERROR_CONFIG, "org.macguise.Error.Config" },
	{ MG_ERROR_STATE, "org.macguise.Error.State" },
	{ MG_ERROR_HOOK_ENV, "org.macguise.Error.HookEnv" },
	{ MG_ERROR_NM_NOT_RUNNING, "org.macguise.Error.NetworkManagerNotRunning" },
	{ MG_ERROR_DAEMON_NOT_RUNNING, "org.macguise.Error.DaemonNotRunning" },
	{ MG_ERROR_PERMISSION, "org.macguise.Error.PermissionDenied" },
	{ MG_ERROR_REFUSED, "org.macguise.Error.Refused" },
	{ MG_ERROR_BUSY, "org.macguise.Error.Busy" },
};

G_STATIC_ASSERT(G_N_ELEMENTS(mg_error_dbus_names) == G_N_ELEMENTS(mg_error_ids));

GQuark
mg_error_quark(void)
{
	static gsize quark = 0;

	g_dbus_error_register_error_domain(
	    "macguise-error-quark", &quark, mg_error_dbus_names, G_N_ELEMENTS(mg_error_dbus_names));
	return (GQuark)quark;
}

const char *
mg_error_id(const GError *error)
{
	if (error->domain == MG_ERROR && error->code >= 0 &&
	    (gsize)error->code < G_N_ELEMENTS(mg_error_ids))
		return mg_error_ids[error->code];
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED) ||
	    g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_ACCES) ||
	    g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_PERM) ||
	    g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED))
		return "permission-denied";
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
		return "not-found";
	return "failed";
}
