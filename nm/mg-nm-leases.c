/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-nm-leases.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

static const char *const mg_lease_clients[] = { "internal-", "dhclient-", "dhclient6-" };

/* "CLIENT-UUID-IFACE.lease" for one of NetworkManager's DHCP clients. */
static gboolean
mg_is_lease_of(const char *name, const char *uuid)
{
	gsize uuid_len = strlen(uuid);

	if (!g_str_has_suffix(name, ".lease"))
		return FALSE;
	for (gsize i = 0; i < G_N_ELEMENTS(mg_lease_clients); i++) {
		const char *rest = name;
		if (!g_str_has_prefix(rest, mg_lease_clients[i]))
			continue;
		rest += strlen(mg_lease_clients[i]);
		if (strncmp(rest, uuid, uuid_len) == 0 && rest[uuid_len] == '-' &&
		    strlen(rest + uuid_len + 1) > strlen(".lease"))
			return TRUE;
	}
	return FALSE;
}

guint
mg_nm_forget_leases(const char *nm_state_dir, const char *uuid, const char *id)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GDir) dir = NULL;
	const char *name;
	guint removed = 0;

	/* A UUID is hex and dashes; anything else names no lease of ours. */
	if (uuid == NULL || uuid[0] == '\0' ||
	    strspn(uuid, "0123456789abcdefABCDEF-") != strlen(uuid))
		return 0;
	dir = g_dir_open(nm_state_dir, 0, &error);
	if (dir == NULL) {
		if (!g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			g_warning("cannot read NetworkManager's leases in %s: %s",
				  nm_state_dir,
				  error->message);
		return 0;
	}
	while ((name = g_dir_read_name(dir)) != NULL) {
		g_autofree char *path = NULL;
		if (!mg_is_lease_of(name, uuid))
			continue;
		path = g_build_filename(nm_state_dir, name, NULL);
		if (g_unlink(path) == 0)
			removed++;
		else if (errno != ENOENT)
			g_warning(
			    "cannot remove NetworkManager's lease %s: %s", path, g_strerror(errno));
	}
	if (removed > 0)
		g_message("profile '%s': its DHCP lease forgotten, so the new address does not ask "
			  "for it",
			  id);
	return removed;
}
