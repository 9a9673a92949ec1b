/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-service-index.h"

#include <errno.h>

#include "mg-link-check-index-write.h"
#include "mg-service-policy.h"
#include "mg-service-private.h"

/* Whether macguise leaves @c alone for good, until its settings or policy
 * change: not Ethernet or Wi-Fi, mode off, or its address set by hand. A
 * profile only waiting for an address is not, so the index need not change
 * with every write. */
static gboolean
mg_service_leaves_alone(MgService *self, NMConnection *c)
{
	MgDeviceClass device_class = mg_profile_class(c);
	const MgProfileState *p = mg_state_get_profile(self->rt.state, nm_connection_get_uuid(c));

	if (device_class == MG_DEVICE_CLASS_NONE || (p != NULL && p->user_owned))
		return TRUE;
	return mg_service_policy(self, c, device_class)->mode == MG_MODE_OFF;
}

/* Which profiles the index lists: @listed's UUIDs. */
static void
mg_service_mark_published(MgService *self, GPtrArray *listed)
{
	GHashTableIter iter;
	MgProfileRecord *r;

	mg_profile_records_iter_init(self->records, &iter);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&r))
		r->published = FALSE;
	for (guint i = 0; i < listed->len; i++)
		mg_profile_records_ensure(self->records, g_ptr_array_index(listed, i))->published =
		    TRUE;
}

/* The link-check index: the profiles the pre-up hook has nothing to check
 * for, so that it leaves without a D-Bus round trip (see mg-link-check-index-write.h).
 * It lists only those macguise leaves alone for good: the hook asks about
 * the others, so a profile never misses a check for an index not yet
 * rewritten. It is rewritten when that set can change: a profile added,
 * changed or removed, handed back or found set by hand, a reload. */
static gboolean
mg_service_publish(gpointer user_data)
{
	MgService *self = user_data;
	const MgConfig *config = &self->rt.config;
	gboolean all = config->probe_window_ms == 0 || config->probes == 0;
	g_autoptr(GPtrArray) skip = g_ptr_array_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *path = g_build_filename(self->runtime_dir, MG_LINK_CHECK_INDEX_FILE, NULL);
	g_autofree char *data = NULL;
	gsize len = 0;

	self->publish_id = 0;
	if (!all && self->client != NULL && nm_client_get_nm_running(self->client)) {
		const GPtrArray *connections = nm_client_get_connections(self->client);
		for (guint i = 0; connections != NULL && i < connections->len; i++) {
			NMConnection *c = g_ptr_array_index(connections, i);
			const char *uuid = nm_connection_get_uuid(c);
			if (uuid != NULL && mg_service_leaves_alone(self, c))
				g_ptr_array_add(skip, (gpointer)uuid);
		}
	}
	mg_service_mark_published(self, skip);
	data = mg_link_check_index_to_data(skip, all, &len);
	if (g_mkdir_with_parents(self->runtime_dir, 0700) != 0 ||
	    !g_file_set_contents_full(
		path, data, (gssize)len, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error)) {
		/* The hook then asks over D-Bus: slower, still right. */
		if (!self->publish_failed)
			g_warning("cannot write the link-check index %s: %s",
				  path,
				  error != NULL ? error->message : g_strerror(errno));
		self->publish_failed = TRUE;
		return G_SOURCE_REMOVE;
	}
	self->publish_failed = FALSE;
	return G_SOURCE_REMOVE;
}

/* @c changed: the index is rewritten if it no longer lists it right. */
void
mg_service_index_check(MgService *self, NMConnection *c)
{
	const char *uuid = nm_connection_get_uuid(c);

	const MgProfileRecord *r = mg_profile_records_get(self->records, uuid);

	if (uuid != NULL && mg_service_leaves_alone(self, c) != (r != NULL && r->published))
		mg_service_schedule_publish(self);
}

/* Once events settle: a burst of changes costs one rewrite. */
void
mg_service_schedule_publish(MgService *self)
{
	if (self->publish_id == 0 && self->runtime_dir != NULL)
		self->publish_id = g_idle_add_full(G_PRIORITY_LOW, mg_service_publish, self, NULL);
}
