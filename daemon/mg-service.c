/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-service-private.h"

G_DEFINE_TYPE(MgService, mg_service, G_TYPE_OBJECT)

enum { SIGNAL_PROFILES_CHANGED, N_SIGNALS };
static guint mg_service_signals[N_SIGNALS];

static gboolean
mg_service_emit_changed(gpointer user_data)
{
	MgService *self = user_data;
	g_autofree char **uuids = (char **)g_hash_table_get_keys_as_array(self->changed, NULL);

	self->changed_id = 0;
	g_signal_emit(self, mg_service_signals[SIGNAL_PROFILES_CHANGED], 0, uuids);
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

static void
mg_service_finalize(GObject *object)
{
	MgService *self = MG_SERVICE(object);

	g_clear_pointer(&self->pipeline, mg_write_pipeline_free);
	g_clear_pointer(&self->timer, mg_wall_timer_free);
	if (self->resume_watch != 0)
		g_dbus_connection_signal_unsubscribe(self->resume_bus, self->resume_watch);
	g_clear_object(&self->resume_bus);
	if (self->updated_watch != 0)
		g_dbus_connection_signal_unsubscribe(self->updated_bus, self->updated_watch);
	g_clear_object(&self->updated_bus);
	g_clear_handle_id(&self->rearm_id, g_source_remove);
	g_clear_handle_id(&self->publish_id, g_source_remove);
	g_clear_handle_id(&self->changed_id, g_source_remove);
	g_clear_pointer(&self->changed, g_hash_table_unref);
	mg_policy_clear(&self->policy_off);
	if (self->runtime_dir != NULL) {
		/* A stale index would outlive us: the hook then asks over D-Bus. */
		g_autofree char *index =
		    g_build_filename(self->runtime_dir, MG_LINK_CHECK_INDEX_FILE, NULL);
		(void)g_unlink(index);
	}
	if (self->gone_checks != NULL)
		g_cancellable_cancel(self->gone_checks);
	g_clear_object(&self->gone_checks);
	g_clear_object(&self->client);
	g_clear_pointer(&self->records, mg_profile_records_free);
	g_clear_handle_id(&self->removed_id, g_source_remove);
	g_clear_pointer(&self->removed, g_hash_table_unref);
	/* before the runtime: it draws from its catalogue */
	g_clear_pointer(&self->first_contact, mg_first_contact_keeper_free);
	mg_runtime_clear(&self->rt);
	g_free(self->config_path);
	g_free(self->runtime_dir);
	g_free(self->nm_state_dir);
	G_OBJECT_CLASS(mg_service_parent_class)->finalize(object);
}

static void
mg_service_class_init(MgServiceClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = mg_service_finalize;
	/* The profiles (their UUIDs) whose status changed. */
	mg_service_signals[SIGNAL_PROFILES_CHANGED] = g_signal_new("profiles-changed",
								   G_TYPE_FROM_CLASS(klass),
								   G_SIGNAL_RUN_LAST,
								   0,
								   NULL,
								   NULL,
								   NULL,
								   G_TYPE_NONE,
								   1,
								   G_TYPE_STRV);
}

static void
mg_service_init(MgService *self)
{
	self->changed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->records = mg_profile_records_new(mg_service_watch_free);
	self->removed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	mg_policy_init_default(&self->policy_off);
	self->policy_off.mode = MG_MODE_OFF;
}

/* The state directory is writable again: the rotations that waited for a
 * save proceed. */
static void
mg_service_saved_again(gpointer owner)
{
	MgService *self = owner;

	if (self->client != NULL && nm_client_get_nm_running(self->client))
		mg_service_evaluate_all(self, MG_EVENT_TIMER);
}

/* Writes the state could not record: what waited on them goes ahead. */
static void
mg_service_unrecorded_done(gpointer owner)
{
	mg_service_write_over(owner, NULL);
}

static void
mg_service_write_job(gpointer owner, gpointer job)
{
	mg_service_update(job);
}

static const MgWritePipelineOps mg_service_pipeline_ops = {
	.write = mg_service_write_job,
	.unrecorded = mg_service_write_unrecorded,
	.unrecorded_done = mg_service_unrecorded_done,
	.saved_again = mg_service_saved_again,
	.job_free = (GDestroyNotify)mg_write_free,
};

void
mg_service_stop(MgService *self)
{
	/* What waits to be written into profiles stays unwritten: its
	 * addresses are in the history, never given out again. */
	if (!mg_write_pipeline_stop(self->pipeline))
		g_warning("what changed since the last save is lost");
}

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

/* The addresses local interfaces use or were made with, and those of the
 * stations in the kernel's neighbour tables: never a candidate. */
GArray *
mg_service_device_macs(MgService *self)
{
	GArray *taken = g_array_new(FALSE, FALSE, sizeof(MgMac));
	const GPtrArray *devices = nm_client_get_devices(self->client);
	g_autoptr(GArray) neighbours = NULL;
	g_autoptr(GError) error = NULL;

	for (guint i = 0; devices != NULL && i < devices->len; i++) {
		NMDevice *dev = g_ptr_array_index(devices, i);
		const char *addrs[2] = { nm_device_get_hw_address(dev), NULL };
		if (NM_IS_DEVICE_ETHERNET(dev))
			addrs[1] =
			    nm_device_ethernet_get_permanent_hw_address(NM_DEVICE_ETHERNET(dev));
		else if (NM_IS_DEVICE_WIFI(dev))
			addrs[1] = nm_device_wifi_get_permanent_hw_address(NM_DEVICE_WIFI(dev));
		for (guint j = 0; j < G_N_ELEMENTS(addrs); j++) {
			MgMac m;
			if (addrs[j] != NULL && mg_mac_parse(addrs[j], &m, NULL))
				g_array_append_val(taken, m);
		}
	}
	neighbours = mg_neighbours_read(&error);
	if (neighbours == NULL)
		g_warning("cannot read the neighbour tables: %s", error->message);
	else
		g_array_append_vals(taken, neighbours->data, neighbours->len);
	return taken;
}

void
mg_service_start(MgService *self)
{
	nm_client_new_async(NULL, mg_service_client_ready, g_object_ref(self));
}

MgService *
mg_service_new(const char *state_dir,
	       const char *config_path,
	       const char *runtime_dir,
	       GError **error)
{
	g_autoptr(MgService) self = g_object_new(MG_TYPE_SERVICE, NULL);
	g_autoptr(GError) local = NULL;
	int profile_lock;

	if (!mg_runtime_init(&self->rt, state_dir, config_path, error))
		return NULL;
	self->timer = mg_wall_timer_new(mg_service_timer_fired, self, error);
	if (self->timer == NULL)
		return NULL;
	profile_lock = mg_profile_lock_open(state_dir, &local);
	if (profile_lock < 0)
		g_warning("%s; profile writes go ahead without it", local->message);
	self->pipeline =
	    mg_write_pipeline_new(&self->rt, profile_lock, &mg_service_pipeline_ops, self);
	self->config_path = g_strdup(config_path);
	self->runtime_dir = g_strdup(runtime_dir);
	self->nm_state_dir = g_strdup(MG_NM_DEFAULT_STATE_DIR);
	return g_steal_pointer(&self);
}

void
mg_service_set_nm_state_dir(MgService *self, const char *nm_state_dir)
{
	g_free(self->nm_state_dir);
	self->nm_state_dir = g_strdup(nm_state_dir);
}

void
mg_service_keep_first_contact(MgService *self, const char *nm_conf_dir)
{
	g_clear_pointer(&self->first_contact, mg_first_contact_keeper_free);
	self->first_contact =
	    mg_first_contact_keeper_new(nm_conf_dir, self->rt.catalogue, self->rt.rng);
}
