/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CLI's edges: NetworkManager through libnm, macguised through D-Bus,
 * the state file when macguised is not there. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include "mg-cli-nm.h"

#include "mg-cli-config.h"
#include "mg-state-store.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mg-error.h"
#include "mg-cli.h"
#include "mg-profile.h"
#include "mg-profile-lock.h"
#include "mg-profile-status.h"

NMClient *
mg_cli_nm_client(GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(NMClient) client = nm_client_new(NULL, &local);

	if (client == NULL) {
		g_set_error(error,
			    MG_ERROR,
			    MG_ERROR_NM_NOT_RUNNING,
			    _("cannot talk to NetworkManager: %s"),
			    local->message);
		return NULL;
	}
	if (!nm_client_get_nm_running(client)) {
		g_set_error_literal(
		    error, MG_ERROR, MG_ERROR_NM_NOT_RUNNING, _("NetworkManager is not running"));
		return NULL;
	}
	return g_steal_pointer(&client);
}

static gboolean
mg_cli_filename_matches(NMRemoteConnection *rc, const char *name)
{
	const char *path = nm_remote_connection_get_filename(rc);
	g_autofree char *base = NULL;
	g_autofree char *with_suffix = NULL;

	if (path == NULL)
		return FALSE;
	if (g_strcmp0(path, name) == 0)
		return TRUE;
	base = g_path_get_basename(path);
	with_suffix = g_strconcat(name, ".nmconnection", NULL);
	return g_strcmp0(base, name) == 0 || g_strcmp0(base, with_suffix) == 0;
}

NMRemoteConnection *
mg_cli_find_profile(NMClient *client, const char *name, GError **error)
{
	const GPtrArray *all = nm_client_get_connections(client);
	NMRemoteConnection *found = nm_client_get_connection_by_uuid(client, name);
	guint matches = 0;

	if (found == NULL)
		found = nm_client_get_connection_by_id(client, name);
	for (guint i = 0; found == NULL && i < all->len; i++) {
		if (mg_cli_filename_matches(g_ptr_array_index(all, i), name))
			found = g_ptr_array_index(all, i);
	}
	/* Two profiles may share an id; nmcli takes the first, and so do we,
	 * but say so. */
	for (guint i = 0; found != NULL && i < all->len; i++) {
		if (g_strcmp0(nm_connection_get_id(g_ptr_array_index(all, i)), name) == 0)
			matches++;
	}
	if (matches > 1)
		g_printerr(_("macguise: %u profiles are named '%s'; using %s (name it by UUID "
			     "instead)\n"),
			   matches,
			   name,
			   nm_connection_get_uuid(NM_CONNECTION(found)));
	if (found == NULL) {
		g_set_error(error, MG_ERROR, MG_ERROR_NOT_FOUND, _("no profile '%s'"), name);
		return NULL;
	}
	if (mg_profile_class(NM_CONNECTION(found)) == MG_DEVICE_CLASS_NONE) {
		g_set_error(error,
			    MG_ERROR,
			    MG_ERROR_NOT_FOUND,
			    _("'%s' is a %s profile; macguise looks after Ethernet and Wi-Fi ones"),
			    name,
			    nm_connection_get_connection_type(NM_CONNECTION(found)));
		return NULL;
	}
	return found;
}

static int
mg_cli_by_id(gconstpointer a, gconstpointer b)
{
	NMConnection *x = *(NMConnection *const *)a, *y = *(NMConnection *const *)b;
	int c = g_utf8_collate(nm_connection_get_id(x), nm_connection_get_id(y));
	return c != 0 ? c : g_strcmp0(nm_connection_get_uuid(x), nm_connection_get_uuid(y));
}

GPtrArray *
mg_cli_profiles(NMClient *client, char **names, GError **error)
{
	g_autoptr(GPtrArray) out = g_ptr_array_new();

	if (names != NULL && names[0] != NULL) {
		for (guint i = 0; names[i] != NULL; i++) {
			NMRemoteConnection *rc = mg_cli_find_profile(client, names[i], error);
			if (rc == NULL)
				return NULL;
			if (!g_ptr_array_find(out, rc, NULL))
				g_ptr_array_add(out, rc);
		}
		return g_steal_pointer(&out);
	}
	{
		const GPtrArray *all = nm_client_get_connections(client);
		for (guint i = 0; i < all->len; i++) {
			NMConnection *c = g_ptr_array_index(all, i);
			if (mg_profile_class(c) != MG_DEVICE_CLASS_NONE)
				g_ptr_array_add(out, c);
		}
	}
	g_ptr_array_sort(out, mg_cli_by_id);
	return g_steal_pointer(&out);
}

gboolean
mg_cli_lock_profiles(GError **error)
{
	static int fd = -1; /* open, and so held, until the process ends */
	g_autofree char *dir = mg_state_default_dir();
	g_autoptr(GError) local = NULL;
	gint64 start = g_get_monotonic_time();
	gboolean said = FALSE;

	if (fd >= 0)
		return TRUE;
	fd = mg_profile_lock_open(dir, &local);
	if (fd < 0) {
		g_debug("%s: writing without it", local->message);
		return TRUE;
	}
	while (!mg_profile_lock_try(fd)) {
		gint64 waited = g_get_monotonic_time() - start;
		if (waited > MG_CLI_LOCK_WAIT_S * G_USEC_PER_SEC) {
			g_set_error(error,
				    MG_ERROR,
				    MG_ERROR_BUSY,
				    _("macguised has been writing profiles for more than %d s; try "
				      "again later"),
				    MG_CLI_LOCK_WAIT_S);
			return FALSE;
		}
		if (!said && waited > G_USEC_PER_SEC) {
			g_printerr(_("Waiting for macguised to finish writing profiles…\n"));
			said = TRUE;
		}
		g_usleep(20 * 1000);
	}
	return TRUE;
}

int
mg_cli_open(const char *command, char **names, NMClient **client, GPtrArray **profiles)
{
	g_autoptr(GError) error = NULL;

	if (mg_cli_catalogue(&error) == NULL || (*client = mg_cli_nm_client(&error)) == NULL ||
	    (*profiles = mg_cli_profiles(*client, names, &error)) == NULL)
		return mg_cli_failure(command, error);
	return MG_EXIT_OK;
}

gboolean
mg_cli_profile_is_active(NMClient *client, NMConnection *connection)
{
	const GPtrArray *acs = nm_client_get_active_connections(client);
	for (guint i = 0; acs != NULL && i < acs->len; i++) {
		if (g_strcmp0(nm_active_connection_get_uuid(g_ptr_array_index(acs, i)),
			      nm_connection_get_uuid(connection)) == 0)
			return TRUE;
	}
	return FALSE;
}

typedef struct {
	GMainLoop *loop;
	GError *error;
} MgCliWait;

static void
mg_cli_update_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	MgCliWait *w = user_data;
	GVariant *ret =
	    nm_remote_connection_update2_finish(NM_REMOTE_CONNECTION(source), result, &w->error);
	if (ret != NULL)
		g_variant_unref(ret);
	g_main_loop_quit(w->loop);
}

gboolean
mg_cli_update_profile(NMRemoteConnection *rc, NMConnection *changed, GError **error)
{
	MgCliWait w = { g_main_loop_new(NULL, FALSE), NULL };
	/* A profile only in memory stays there; one on disk is written. */
	NMSettingsUpdate2Flags flags = nm_remote_connection_get_unsaved(rc)
					   ? NM_SETTINGS_UPDATE2_FLAG_IN_MEMORY
					   : NM_SETTINGS_UPDATE2_FLAG_TO_DISK;

	nm_remote_connection_update2(rc,
				     nm_connection_to_dbus(changed, NM_CONNECTION_SERIALIZE_ALL),
				     flags,
				     NULL,
				     NULL,
				     mg_cli_update_done,
				     &w);
	g_main_loop_run(w.loop);
	g_main_loop_unref(w.loop);
	if (w.error != NULL) {
		g_autofree char *remote = g_dbus_error_get_remote_error(w.error);
		gboolean denied =
		    g_error_matches(
			w.error, NM_SETTINGS_ERROR, NM_SETTINGS_ERROR_PERMISSION_DENIED) ||
		    g_error_matches(w.error, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED) ||
		    (remote != NULL && g_str_has_suffix(remote, "PermissionDenied"));
		g_dbus_error_strip_remote_error(w.error);
		g_set_error(error,
			    MG_ERROR,
			    denied ? MG_ERROR_PERMISSION : MG_ERROR_REFUSED,
			    _("NetworkManager refused to change '%s': %s"),
			    nm_connection_get_id(NM_CONNECTION(rc)),
			    w.error->message);
		g_error_free(w.error);
		return FALSE;
	}
	return TRUE;
}

GDBusConnection *
mg_cli_bus(GError **error)
{
	static GDBusConnection *bus = NULL;
	if (bus == NULL)
		bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, error);
	return bus;
}

GVariant *
mg_cli_daemon_call(
    const char *method, GVariant *args, const char *reply_type, gboolean auto_start, GError **error)
{
	GDBusConnection *bus = mg_cli_bus(error);
	g_autoptr(GError) local = NULL;
	GVariant *ret;

	/* macguised's errors come back as MgErrors once the domain is known. */
	(void)MG_ERROR;
	if (bus == NULL) {
		if (args != NULL)
			g_variant_unref(g_variant_ref_sink(args));
		return NULL;
	}
	ret = g_dbus_connection_call_sync(bus,
					  MG_DBUS_NAME,
					  MG_DBUS_PATH,
					  MG_DBUS_INTERFACE,
					  method,
					  args,
					  G_VARIANT_TYPE(reply_type),
					  auto_start ? G_DBUS_CALL_FLAGS_NONE
						     : G_DBUS_CALL_FLAGS_NO_AUTO_START,
					  MG_CLI_CALL_TIMEOUT_MS,
					  NULL,
					  &local);
	if (ret != NULL)
		return ret;
	if (g_error_matches(local, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
	    g_error_matches(local, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER)) {
		g_set_error_literal(
		    error, MG_ERROR, MG_ERROR_DAEMON_NOT_RUNNING, _("macguised is not running"));
	} else if (g_error_matches(local, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED)) {
		g_set_error_literal(error,
				    MG_ERROR,
				    MG_ERROR_PERMISSION,
				    _("only root may ask macguised for this"));
	} else {
		g_dbus_error_strip_remote_error(local);
		g_propagate_prefixed_error(error, g_steal_pointer(&local), "macguised: ");
	}
	return NULL;
}

static void
mg_applied_policy_free(gpointer data)
{
	MgAppliedPolicy *applied = data;

	g_free(applied->mode);
	g_free(applied->rotate);
	g_free(applied);
}

/* One GetStatus entry into the state shape the file has, and the mode and
 * rotation macguised applies. */
static void
mg_cli_state_from_status(MgCliState *st, GVariant *entry)
{
	g_autoptr(GError) error = NULL;
	MgProfileStatus status;
	MgAppliedPolicy *applied;

	if (!mg_profile_status_from_variant(entry, &status, st->state, &error)) {
		g_printerr(_("macguise: macguised's status of a profile is unusable: %s\n"),
			   error->message);
		return;
	}
	applied = g_new0(MgAppliedPolicy, 1);
	applied->mode = g_strdup(status.mode);
	applied->rotate = g_strdup(status.rotate);
	g_hash_table_replace(st->applied, g_strdup(status.uuid), applied);
}

void
mg_cli_state_load(MgCliState *st)
{
	static const guint8 no_key[32] = { 0 };
	g_autofree char *dir = mg_state_default_dir();
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) status = NULL;

	memset(st, 0, sizeof(*st));
	st->applied =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, mg_applied_policy_free);
	st->config_problems = mg_config_problems_new();
	mg_cli_config_load(&st->config, st->config_problems);
	status = mg_cli_daemon_call("GetStatus", NULL, "(aa{sv})", FALSE, &error);
	if (status != NULL) {
		g_autoptr(GVariant) list = g_variant_get_child_value(status, 0);
		GVariantIter iter;
		GVariant *entry;
		st->daemon_running = TRUE;
		st->state_readable = TRUE;
		st->state = mg_state_new_empty(no_key, sizeof(no_key));
		g_variant_iter_init(&iter, list);
		while ((entry = g_variant_iter_next_value(&iter)) != NULL) {
			mg_cli_state_from_status(st, entry);
			g_variant_unref(entry);
		}
		return;
	}
	g_clear_error(&error);
	st->state = mg_state_read(dir, &error);
	if (st->state != NULL) {
		st->state_readable = TRUE;
		return;
	}
	st->state_problem = g_strdup(error->message);
	st->state = mg_state_new_empty(no_key, sizeof(no_key));
}

void
mg_cli_state_clear(MgCliState *st)
{
	mg_config_clear(&st->config);
	g_clear_pointer(&st->config_problems, g_ptr_array_unref);
	g_clear_pointer(&st->state, mg_state_free);
	g_clear_pointer(&st->applied, g_hash_table_unref);
	g_clear_pointer(&st->state_problem, g_free);
}
