/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "profiles-changed": which profiles' status changed, said once the main
 * loop is idle. */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-service-notify.h"

#include "mg-service-private.h"

static gboolean
mg_service_emit_changed(gpointer user_data)
{
	MgService *self = user_data;
	g_autofree char **uuids = (char **)g_hash_table_get_keys_as_array(self->changed, NULL);

	self->changed_id = 0;
	g_signal_emit_by_name(self, "profiles-changed", uuids);
	g_hash_table_remove_all(self->changed);
	return G_SOURCE_REMOVE;
}

/* The status of @uuid changed: "profiles-changed" says so once the main
 * loop is idle, for every profile that changed meanwhile. */
void
mg_service_note_changed(MgService *self, const char *uuid)
{
	g_hash_table_add(self->changed, g_strdup(uuid));
	if (self->changed_id == 0)
		self->changed_id = g_idle_add(mg_service_emit_changed, self);
}
