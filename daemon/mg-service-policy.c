/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-service-policy.h"

#include "mg-service-core.h"

/* Each profile's policy, resolved once and kept until its settings or
 * macguise.conf change: not at every status request, link check or
 * decision. A bad value is reported when it first shows, not again while the
 * profile keeps it (macguised's own writes change the profile too). */

static void
mg_service_policy_resolve(MgService *self,
			  MgProfileRecord *r,
			  NMConnection *connection,
			  MgDeviceClass device_class)
{
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *text = NULL;

	mg_policy_clear(&r->policy);
	mg_profile_policy_full(
	    &self->rt.config, self->rt.catalogue, connection, device_class, &r->policy, problems);
	g_ptr_array_add(problems, NULL);
	text = problems->len > 1 ? g_strjoinv("\n", (char **)problems->pdata) : NULL;
	if (text != NULL && g_strcmp0(text, r->policy_problems) != 0) {
		for (guint i = 0; i + 1 < problems->len; i++)
			g_warning("profile '%s': %s",
				  nm_connection_get_id(connection),
				  (const char *)g_ptr_array_index(problems, i));
	}
	g_free(r->policy_problems);
	r->policy_problems = g_steal_pointer(&text);
	r->policy_class = device_class;
	r->policy_stale = FALSE;
}

const MgPolicy *
mg_service_policy(MgService *self, NMConnection *connection, MgDeviceClass device_class)
{
	const char *uuid = nm_connection_get_uuid(connection);
	MgProfileRecord *r;

	/* NetworkManager never sends a profile without one; were it to, the
	 * profile is left alone. */
	if (uuid == NULL)
		return &self->policy_off;
	r = mg_profile_records_ensure(self->records, uuid);
	if (r->policy_stale || r->policy_class != device_class)
		mg_service_policy_resolve(self, r, connection, device_class);
	return &r->policy;
}

void
mg_service_policy_changed(MgService *self, const char *uuid)
{
	GHashTableIter iter;
	MgProfileRecord *r;

	if (uuid != NULL) {
		r = mg_profile_records_get(self->records, uuid);
		if (r != NULL)
			r->policy_stale = TRUE;
		return;
	}
	mg_profile_records_iter_init(self->records, &iter);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&r))
		r->policy_stale = TRUE;
}

gboolean
mg_service_leaves_alone(MgService *self, NMConnection *c)
{
	MgDeviceClass device_class = mg_profile_class(c);
	const char *uuid = nm_connection_get_uuid(c);
	const MgProfileState *p = uuid != NULL ? mg_state_get_profile(self->rt.state, uuid) : NULL;

	/* (a profile without a UUID is off: mg_service_policy) */
	if (uuid == NULL || device_class == MG_DEVICE_CLASS_NONE || (p != NULL && p->user_owned))
		return TRUE;
	return mg_service_policy(self, c, device_class)->mode == MG_MODE_OFF;
}

gboolean
mg_service_list_left_alone(gpointer user_data, GPtrArray *uuids)
{
	MgService *self = user_data;
	const MgConfig *config = &self->rt.config;
	const GPtrArray *connections;

	if (config->probe_window_ms == 0 || config->probes == 0)
		return FALSE;
	if (self->client == NULL || !nm_client_get_nm_running(self->client))
		return TRUE;
	connections = nm_client_get_connections(self->client);
	for (guint i = 0; connections != NULL && i < connections->len; i++) {
		NMConnection *c = g_ptr_array_index(connections, i);
		const char *uuid = nm_connection_get_uuid(c);
		if (uuid != NULL && mg_service_leaves_alone(self, c))
			g_ptr_array_add(uuids, (gpointer)uuid);
	}
	return TRUE;
}
