/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-error.h"

#include <gio/gio.h>

G_DEFINE_QUARK(mg - error - quark, mg_error)

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

const char *
mg_error_id(const GError *error)
{
	if (error->domain == MG_ERROR && error->code >= 0 &&
	    (gsize)error->code < G_N_ELEMENTS(mg_error_ids))
		return mg_error_ids[error->code];
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED) ||
	    g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED))
		return "permission-denied";
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
		return "not-found";
	return "failed";
}
