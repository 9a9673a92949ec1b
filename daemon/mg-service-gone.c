/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Profiles the state keeps that NetworkManager no longer has, though no
 * removal was seen: found when NetworkManager has started, confirmed by
 * NetworkManager itself, forgotten. */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-service-gone.h"

#include "mg-service-core.h"

/* A profile left NetworkManager: what macguise knew of it goes. */
void
mg_service_forget(MgService *self, const char *uuid)
{
	MgSnapshot none = { 0 };
	MgReconcile r = mg_reconcile(
	    &none, self->rt.boot_id, g_get_real_time() / G_USEC_PER_SEC, MG_EVENT_REMOVED);

	if ((r.actions & MG_DO_FORGET) == 0)
		return;
	if (mg_state_remove_profile(self->rt.state, uuid))
		mg_write_pipeline_save_soon(self->pipeline);
	mg_change_notice_add(self->notice, uuid);
	mg_profile_records_remove(self->records, uuid);
	mg_link_index_update_soon(self->index);
}

typedef struct {
	MgService *self; /* not a reference: @checks is cancelled when it goes */
	char *uuid;
} MgGoneCheck;

/* NetworkManager's answer for a profile the state keeps and libnm does not
 * list: only its "no connection with the UUID" forgets it. libnm lists a
 * profile once it has fetched its settings, which a NetworkManager that has
 * just started may not have sent yet. */
static void
mg_service_gone_checked(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autofree MgGoneCheck *check = user_data;
	g_autofree char *uuid = check->uuid;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	    g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
	g_autofree char *name = NULL;
	MgService *self = check->self;

	if (reply != NULL || g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	name = g_dbus_error_get_remote_error(error);
	if (g_strcmp0(name, "org.freedesktop.NetworkManager.Settings.InvalidConnection") != 0 ||
	    !nm_client_get_nm_running(self->client) ||
	    nm_client_get_connection_by_uuid(self->client, uuid) != NULL)
		return;
	g_message("profile %s is gone from NetworkManager; forgotten", uuid);
	mg_service_forget(self, uuid);
}

/* Profiles the state keeps that NetworkManager, done starting, does not
 * have: deleted while it was stopped or while macguised did not run (a
 * keyfile removed, an in-memory profile gone with a reboot). No removal is
 * signalled for them, so without this they would be kept for ever. */
void
mg_service_forget_missing(MgService *self, GCancellable *checks)
{
	g_autoptr(GPtrArray) uuids = mg_state_list_profiles(self->rt.state);
	GHashTableIter iter;
	MgProfileRecord *r;

	/* and those only this run knew of */
	mg_profile_records_iter_init(self->records, &iter);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&r))
		if (mg_state_get_profile(self->rt.state, r->uuid) == NULL)
			g_ptr_array_add(uuids, r->uuid);
	for (guint i = 0; i < uuids->len; i++) {
		const char *uuid = g_ptr_array_index(uuids, i);
		MgGoneCheck *check;

		if (nm_client_get_connection_by_uuid(self->client, uuid) != NULL)
			continue;
		check = g_new0(MgGoneCheck, 1);
		check->self = self;
		check->uuid = g_strdup(uuid);
		g_dbus_connection_call(nm_client_get_dbus_connection(self->client),
				       nm_client_get_dbus_name_owner(self->client),
				       NM_DBUS_PATH_SETTINGS,
				       NM_DBUS_INTERFACE_SETTINGS,
				       "GetConnectionByUuid",
				       g_variant_new("(s)", uuid),
				       G_VARIANT_TYPE("(o)"),
				       G_DBUS_CALL_FLAGS_NONE,
				       -1,
				       checks,
				       mg_service_gone_checked,
				       check);
	}
}
