/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MG_ERROR (mg_error_quark())

typedef enum {
	MG_ERROR_INVALID_MAC,        /* text is not a MAC address */
	MG_ERROR_INVALID_PREFIX,     /* text is not a registry block */
	MG_ERROR_CATALOGUE,          /* the vendor table is malformed */
	MG_ERROR_NOT_FOUND,          /* no such vendor, prefix or resource */
	MG_ERROR_NO_CANDIDATE,       /* nothing left to draw from */
	MG_ERROR_REGISTRY,           /* the IEEE registry files are unreadable */
	MG_ERROR_RANDOMNESS,         /* libsodium could not be initialised */
	MG_ERROR_POLICY,             /* a bad macguise.* key or value */
	MG_ERROR_CONFIG,             /* a bad macguise.conf */
	MG_ERROR_STATE,              /* the state file or key cannot be used */
	MG_ERROR_HOOK_ENV,           /* the dispatcher's environment is malformed */
	MG_ERROR_NM_NOT_RUNNING,     /* NetworkManager is not there */
	MG_ERROR_DAEMON_NOT_RUNNING, /* macguised is not there */
	MG_ERROR_PERMISSION,         /* the caller may not do this */
	MG_ERROR_REFUSED,            /* NetworkManager refused a change */
	MG_ERROR_BUSY,               /* another writer holds the profile lock too long */
} MgError;

GQuark mg_error_quark(void);

/* A stable word for @error, for programs reading `--json` output
 * ("not-found", "daemon-not-running", …; "failed" for any other): the
 * message is translated, the word is not. */
const char *mg_error_id(const GError *error);

G_END_DECLS
