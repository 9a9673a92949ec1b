/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-service-api.h"

#include "mg-rotation.h"

#include "mg-service-assign.h"
#include "mg-service-decide.h"
#include "mg-service-nm.h"
#include "mg-service-policy.h"
#include "mg-service-core.h"

#include "mg-profile-status.h"

/* What NetworkManager would show the user: a profile whose
 * connection.permissions name users is theirs (and root's) alone. */
static gboolean
mg_service_visible_to(NMConnection *c, const char *user)
{
	NMSettingConnection *s = nm_connection_get_setting_connection(c);

	if (g_strcmp0(user, "root") == 0 || s == NULL ||
	    nm_setting_connection_get_num_permissions(s) == 0)
		return TRUE;
	return user != NULL && nm_setting_connection_permissions_user_allowed(s, user);
}

gboolean
mg_service_profile_is_public(MgService *self, const char *uuid)
{
	NMRemoteConnection *rc =
	    self->client != NULL ? nm_client_get_connection_by_uuid(self->client, uuid) : NULL;

	return rc != NULL && mg_service_visible_to(NM_CONNECTION(rc), NULL);
}

GVariant *
mg_service_get_status(MgService *self, const char *user)
{
	GVariantBuilder list;
	const GPtrArray *connections =
	    self->client != NULL ? nm_client_get_connections(self->client) : NULL;

	g_variant_builder_init(&list, G_VARIANT_TYPE("aa{sv}"));
	for (guint i = 0; connections != NULL && i < connections->len; i++) {
		NMConnection *c = NM_CONNECTION(g_ptr_array_index(connections, i));
		MgDeviceClass device_class = mg_profile_class(c);
		const char *uuid = nm_connection_get_uuid(c);
		MgProfileStatus status;
		const MgProfileRecord *record;
		const MgPolicy *policy;
		g_autofree char *mode = NULL;
		g_autofree char *rotate = NULL;

		if (device_class == MG_DEVICE_CLASS_NONE || uuid == NULL ||
		    !mg_service_visible_to(c, user))
			continue;
		policy = mg_service_policy(self, c, device_class);
		mode = mg_policy_get(policy, "mode");
		rotate = mg_policy_get(policy, "rotate");
		status.uuid = uuid;
		status.id = nm_connection_get_id(c);
		status.device_class = device_class;
		status.mode = mode;
		status.rotate = rotate;
		record = mg_profile_records_get(self->records, uuid);
		status.active = mg_service_is_up(self, record);
		g_variant_builder_add_value(
		    &list,
		    mg_profile_status_to_variant(&status,
						 mg_state_get_profile(self->rt.state, uuid)));
	}
	return g_variant_builder_end(&list);
}

/* A rotation the daemon began, which it can still see fail: no address to
 * draw, or a state that cannot be saved, leave no write started. */
static MgRotation
mg_service_rotation_started(MgService *self, const char *uuid, MgRotation r)
{
	const MgProfileRecord *record = mg_profile_records_get(self->records, uuid);

	if (r.outcome != MG_ROTATION_ROTATED ||
	    (record != NULL && (record->in_flight || record->deferred != NULL)))
		return r;
	r.outcome = MG_ROTATION_FAILED;
	r.reason = "not-written";
	return r;
}

static MgRotation
mg_service_rotate_one(MgService *self, NMRemoteConnection *rc, gboolean now)
{
	NMConnection *c = NM_CONNECTION(rc);
	const char *uuid = nm_connection_get_uuid(c);
	MgDeviceClass device_class = mg_profile_class(c);
	const MgPolicy *policy = mg_service_policy(self, c, device_class);
	MgSnapshot snap;
	MgRotation r;

	mg_service_snapshot(self, c, device_class, policy, &snap);
	r = mg_rotation_decide(&snap, now, g_get_real_time() / G_USEC_PER_SEC);
	if ((r.actions & MG_DO_MARK_PENDING) != 0) {
		mg_state_ensure_profile(self->rt.state, uuid)->pending = TRUE;
		mg_write_pipeline_save_soon(self->pipeline);
		mg_change_notice_add(self->notice, uuid);
	}
	if ((r.actions & MG_DO_ASSIGN) != 0)
		mg_service_assign(self, rc, device_class, policy, FALSE, "");
	else if (r.outcome == MG_ROTATION_ROTATED)
		mg_service_evaluate(self, rc, MG_EVENT_SEEN);
	return mg_service_rotation_started(self, uuid, r);
}

static void
mg_service_add_rotation(GVariantBuilder *list, NMConnection *c, MgRotation r)
{
	g_variant_builder_add(list,
			      "(sss)",
			      nm_connection_get_uuid(c),
			      mg_rotation_outcome_to_string(r.outcome),
			      r.reason);
}

GVariant *
mg_service_rotate(MgService *self, const char *profile, gboolean now, GError **error)
{
	NMRemoteConnection *one = NULL;
	GVariantBuilder list;

	if (profile[0] != '\0' && (one = mg_service_lookup_profile(self, profile, error)) == NULL)
		return NULL;
	g_variant_builder_init(&list, G_VARIANT_TYPE("a(sss)"));
	if (one != NULL) {
		mg_service_add_rotation(
		    &list, NM_CONNECTION(one), mg_service_rotate_one(self, one, now));
	} else if (self->client != NULL) {
		const GPtrArray *connections = nm_client_get_connections(self->client);
		for (guint i = 0; connections != NULL && i < connections->len; i++) {
			NMRemoteConnection *rc = g_ptr_array_index(connections, i);
			if (mg_profile_class(NM_CONNECTION(rc)) != MG_DEVICE_CLASS_NONE)
				mg_service_add_rotation(
				    &list, NM_CONNECTION(rc), mg_service_rotate_one(self, rc, now));
		}
	}
	mg_wake_schedule_update_soon(self->wake);
	return g_variant_builder_end(&list);
}

void
mg_service_reload(MgService *self)
{
	mg_runtime_load_config(&self->rt, self->config_path);
	mg_service_policy_changed(self, NULL);
	mg_link_index_update_soon(self->index);
	if (self->client != NULL && nm_client_get_nm_running(self->client))
		mg_service_evaluate_all(self, MG_EVENT_SEEN);
	if (self->first_contact != NULL)
		mg_first_contact_keeper_check(self->first_contact);
}
