/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-hook-env.h"
#include "mg-hook-started.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-error.h"
#include "mg-paths.h"

/* IFNAMSIZ less its NUL */
static const char *
mg_env_lookup(const char *const *envp, const char *name)
{
	gsize n = strlen(name);
	for (guint i = 0; envp != NULL && envp[i] != NULL; i++) {
		if (strncmp(envp[i], name, n) == 0 && envp[i][n] == '=')
			return envp[i] + n + 1;
	}
	return NULL;
}

/* "10.77.0.2/24 10.77.0.1": the address before the prefix length. */
static gboolean
mg_parse_ip4_item(const char *text, guint8 out[4])
{
	g_auto(GStrv) parts = g_strsplit_set(text, "/ ", 2);
	g_auto(GStrv) octets = NULL;

	if (parts[0] == NULL)
		return FALSE;
	octets = g_strsplit(parts[0], ".", -1);
	if (g_strv_length(octets) != 4)
		return FALSE;
	for (guint i = 0; i < 4; i++) {
		guint64 v;
		if (octets[i][0] == '\0' ||
		    !g_ascii_string_to_unsigned(octets[i], 10, 0, 255, &v, NULL))
			return FALSE;
		out[i] = (guint8)v;
	}
	return TRUE;
}

/* The front's note of when the hook started; our own, so a bad one is
 * ignored rather than an error. */
static void
mg_hook_request_parse_started(MgHookRequest *request, const char *text)
{
	gint64 started;

	if (text != NULL && g_ascii_string_to_signed(text, 10, 1, G_MAXINT64, &started, NULL))
		request->started_us = started;
}

gboolean
mg_hook_request_parse(MgHookRequest *request,
		      int argc,
		      const char *const *argv,
		      const char *const *envp,
		      GError **error)
{
	const char *action = mg_env_lookup(envp, "NM_DISPATCHER_ACTION");
	const char *iface = mg_env_lookup(envp, "DEVICE_IFACE");
	const char *uuid = mg_env_lookup(envp, "CONNECTION_UUID");

	memset(request, 0, sizeof(*request));
	if (action == NULL && argc > 2)
		action = argv[2];
	if (iface == NULL && argc > 1)
		iface = argv[1];
	request->action = g_strdup(action != NULL ? action : "");
	if (!mg_hook_request_wants_check(request))
		return TRUE;

	if (iface == NULL || !mg_iface_name_is_valid(iface)) {
		g_set_error(error,
			    MG_ERROR,
			    MG_ERROR_HOOK_ENV,
			    _("DEVICE_IFACE is missing or not an interface name"));
		return FALSE;
	}
	request->iface = g_strdup(iface);
	mg_hook_request_parse_started(request, mg_env_lookup(envp, MG_HOOK_STARTED_ENV));
	if (uuid != NULL && uuid[0] != '\0') {
		if (!mg_uuid_is_valid(uuid)) {
			g_set_error(
			    error, MG_ERROR, MG_ERROR_HOOK_ENV, _("CONNECTION_UUID is not a UUID"));
			return FALSE;
		}
		request->uuid = g_strdup(uuid);
	}
	/* IP4_ADDRESS_0, _1, ... as NetworkManager numbers them; a gap ends the list. */
	for (guint i = 0; i < 256; i++) {
		g_autofree char *name = g_strdup_printf("IP4_ADDRESS_%u", i);
		const char *item = mg_env_lookup(envp, name);
		guint8 addr[4];
		if (item == NULL)
			break;
		if (!mg_parse_ip4_item(item, addr)) {
			g_set_error(error,
				    MG_ERROR,
				    MG_ERROR_HOOK_ENV,
				    _("%s is not an IPv4 address"),
				    name);
			return FALSE;
		}
		if (request->n_ipv4 < MG_PROBE_MAX_IPV4)
			memcpy(request->ipv4[request->n_ipv4++], addr, 4);
	}
	return TRUE;
}

void
mg_hook_request_clear(MgHookRequest *request)
{
	g_clear_pointer(&request->action, g_free);
	g_clear_pointer(&request->uuid, g_free);
	g_clear_pointer(&request->iface, g_free);
}

gboolean
mg_hook_request_wants_check(const MgHookRequest *request)
{
	return g_strcmp0(request->action, "pre-up") == 0;
}
