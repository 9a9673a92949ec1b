/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-service.h"

#include <NetworkManager.h>
#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <net/if.h>
#include <sodium.h>
#include <string.h>

#include "mg-catalogue.h"
#include "mg-config.h"
#include "mg-error.h"
#include "mg-generator.h"
#include "mg-hook-env.h"
#include "mg-neighbours.h"
#include "mg-profile.h"
#include "mg-schedule.h"
#include "mg-stations.h"
#include "mg-skip-list.h"
#include "mg-state.h"

struct _MgService {
	GObject parent_instance;
	MgRuntime rt;
	NMClient *client;
	GHashTable *active;     /* UUID -> D-Bus path of its active connection */
	gboolean synced;        /* the active connections found at start are known */
	GHashTable *writes;     /* UUID -> MgWriteState: failures, and an unwritten address */
	GHashTable *settling;   /* UUID -> MgMac written, until libnm's copy shows it */
	GHashTable *unchecked;  /* UUIDs whose activation's link address is not checked yet */
	GHashTable *gate;       /* UUID -> re-activations in a row for a wrong link address */
	GHashTable *in_flight;  /* UUIDs whose profile write has not returned */
	GQueue deferred;        /* UUIDs due a write while MG_SERVICE_MAX_WRITES were under way */
	GHashTable *deferred_set;
	GHashTable *wake_at;    /* UUID -> next instant worth waking for */
	GHashTable *reactivate; /* UUID -> interface ("": any) to bring it up on once written */
	guint timer_id;
	guint publish_id; /* the link-check index is to be rewritten */
	guint save_retry_id;
	guint save_failures; /* in a row: the retry backs off */
	gboolean publish_failed;
	char *config_path;
	char *runtime_dir;
};

G_DEFINE_TYPE(MgService, mg_service, G_TYPE_OBJECT)

/* A profile's writes: failures in a row, when to try again, and an address
 * drawn and recorded but not yet in the profile (a retry writes it rather
 * than drawing, and filling the history, again). */
typedef struct {
	guint failures;
	gint64 retry_at;
	gboolean has_drawn;
	MgMac drawn;
} MgWriteState;

/* Profile writes under way at once. The system bus refuses a client more
 * than max_replies_per_connection (128 on Debian) pending calls, and a
 * refused write would stall its profile; a few at a time keep
 * NetworkManager as busy as more would. */
#define MG_SERVICE_MAX_WRITES 16

/* A state file that cannot be written (a full or read-only file system) is
 * tried again with the back-off of a failed profile write: 5 s, 10 s, … up
 * to 10 min (mg_reconcile_retry_at). */

static void mg_service_evaluate_all(MgService *self, MgEvent event);
static void mg_service_evaluate(MgService *self, NMRemoteConnection *rc, MgEvent event);
static void mg_service_rearm(MgService *self);
static void mg_service_schedule_publish(MgService *self);
static gboolean
mg_service_manages(MgService *self, NMConnection *c, const MgProfileState *p);
static void mg_service_reactivate_done(GObject *source, GAsyncResult *result, gpointer user_data);

static void
mg_service_finalize(GObject *object)
{
	MgService *self = MG_SERVICE(object);

	g_clear_handle_id(&self->timer_id, g_source_remove);
	g_clear_handle_id(&self->publish_id, g_source_remove);
	g_clear_handle_id(&self->save_retry_id, g_source_remove);
	if (self->runtime_dir != NULL) {
		/* A stale index would outlive us: the hook then asks over D-Bus. */
		g_autofree char *index = g_build_filename(self->runtime_dir, MG_SKIP_LIST_FILE, NULL);
		(void)g_unlink(index);
	}
	g_clear_object(&self->client);
	g_clear_pointer(&self->active, g_hash_table_unref);
	g_clear_pointer(&self->writes, g_hash_table_unref);
	g_clear_pointer(&self->settling, g_hash_table_unref);
	g_clear_pointer(&self->unchecked, g_hash_table_unref);
	g_clear_pointer(&self->gate, g_hash_table_unref);
	g_clear_pointer(&self->in_flight, g_hash_table_unref);
	g_queue_clear_full(&self->deferred, g_free);
	g_clear_pointer(&self->deferred_set, g_hash_table_unref);
	g_clear_pointer(&self->wake_at, g_hash_table_unref);
	mg_runtime_clear(&self->rt);
	g_clear_pointer(&self->reactivate, g_hash_table_unref);
	g_free(self->config_path);
	g_free(self->runtime_dir);
	G_OBJECT_CLASS(mg_service_parent_class)->finalize(object);
}

static void
mg_service_class_init(MgServiceClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = mg_service_finalize;
}

static void
mg_service_init(MgService *self)
{
	self->active = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	self->writes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	self->settling = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	self->unchecked = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->gate = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->in_flight = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_queue_init(&self->deferred);
	self->deferred_set = g_hash_table_new(g_str_hash, g_str_equal);
	self->wake_at = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	self->reactivate = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

static gboolean mg_service_save(MgService *self);

static gboolean
mg_service_save_retry(gpointer user_data)
{
	MgService *self = user_data;
	self->save_retry_id = 0;
	/* A success also lets the rotations that waited for it proceed. */
	if (mg_service_save(self)) {
		g_message("the state directory is writable again");
		if (self->client != NULL && nm_client_get_nm_running(self->client))
			mg_service_evaluate_all(self, MG_EVENT_TIMER);
	}
	return G_SOURCE_REMOVE;
}

/* Writes the state; on failure the old file stays as it was (mg_state_save
 * writes a new one and renames it), and a retry is scheduled. */
static gboolean
mg_service_save(MgService *self)
{
	guint delay;

	mg_service_schedule_publish(self);
	if (mg_runtime_save(&self->rt)) {
		self->save_failures = 0;
		g_clear_handle_id(&self->save_retry_id, g_source_remove);
		return TRUE;
	}
	self->save_failures++;
	delay = (guint)mg_reconcile_retry_at(self->save_failures, 0);
	if (self->save_retry_id == 0)
		self->save_retry_id = g_timeout_add_seconds(delay, mg_service_save_retry, self);
	return FALSE;
}

/* The link-check index: the profiles the pre-up hook has nothing to check
 * for, so that it leaves without a D-Bus round trip (see mg-skip-list.h). */
static gboolean
mg_service_publish(gpointer user_data)
{
	MgService *self = user_data;
	const MgConfig *config = &self->rt.config;
	gboolean all = config->probe_window_ms == 0 || config->probes == 0;
	g_autoptr(GPtrArray) skip = g_ptr_array_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *path = g_build_filename(self->runtime_dir, MG_SKIP_LIST_FILE, NULL);
	g_autofree char *data = NULL;
	gsize len = 0;

	self->publish_id = 0;
	if (!all && self->client != NULL && nm_client_get_nm_running(self->client)) {
		const GPtrArray *connections = nm_client_get_connections(self->client);
		for (guint i = 0; connections != NULL && i < connections->len; i++) {
			NMConnection *c = g_ptr_array_index(connections, i);
			const char *uuid = nm_connection_get_uuid(c);
			if (uuid != NULL &&
			    !mg_service_manages(self, c, mg_state_get_profile(self->rt.state, uuid)))
				g_ptr_array_add(skip, (gpointer)uuid);
		}
	}
	data = mg_skip_list_to_data(skip, all, &len);
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

/* Once events settle: a burst of changes costs one rewrite. */
static void
mg_service_schedule_publish(MgService *self)
{
	if (self->publish_id == 0 && self->runtime_dir != NULL)
		self->publish_id =
		    g_idle_add_full(G_PRIORITY_LOW, mg_service_publish, self, NULL);
}

/* The addresses local interfaces use or were made with, and those of the
 * stations in the kernel's neighbour tables: never a candidate. */
static GArray *
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

/* Writing a profile ----------------------------------------------------------- */

static const char *
mg_device_permanent_mac(NMDevice *dev)
{
	if (NM_IS_DEVICE_ETHERNET(dev))
		return nm_device_ethernet_get_permanent_hw_address(NM_DEVICE_ETHERNET(dev));
	if (NM_IS_DEVICE_WIFI(dev))
		return nm_device_wifi_get_permanent_hw_address(NM_DEVICE_WIFI(dev));
	return NULL;
}

/* For keep-vendor: the permanent address of the device the profile is for
 * (its interface-name, else the only device of its kind), else the
 * profile's current macguise address, whose block came from it. */
static const MgMac *
mg_service_hardware_mac(MgService *self, NMConnection *connection, MgClass klass, MgMac *out)
{
	const char *iface = nm_connection_get_interface_name(connection);
	const GPtrArray *devices = nm_client_get_devices(self->client);
	const MgProfileState *p = mg_state_get_profile(self->rt.state, nm_connection_get_uuid(connection));
	NMDevice *device = iface != NULL ? nm_client_get_device_by_iface(self->client, iface) : NULL;
	const char *perm;

	for (guint i = 0; iface == NULL && devices != NULL && i < devices->len; i++) {
		NMDevice *d = g_ptr_array_index(devices, i);
		gboolean kind = (klass & MG_CLASS_WIRELESS) != 0 ? NM_IS_DEVICE_WIFI(d) : NM_IS_DEVICE_ETHERNET(d);
		if (kind && device != NULL) {
			device = NULL; /* more than one: which one is not known */
			break;
		}
		if (kind)
			device = d;
	}
	perm = device != NULL ? mg_device_permanent_mac(device) : NULL;
	if (perm != NULL && mg_mac_parse(perm, out, NULL) && mg_mac_is_global_unicast(out) &&
	    !mg_mac_is_zero(out))
		return out;
	if (p != NULL && p->has_address) {
		*out = p->address;
		return out;
	}
	return NULL;
}

typedef struct {
	MgService *self;
	char *uuid;
	char *id;
	MgMac mac;
	gboolean assign;       /* a new address (else the current one written again) */
	gint64 due_at;         /* for a new address */
	gboolean for_conflict; /* a recovery, not a rotation */
} MgWrite;

static void
mg_write_free(MgWrite *w)
{
	g_object_unref(w->self);
	g_free(w->uuid);
	g_free(w->id);
	g_free(w);
}

static MgWriteState *
mg_service_write_state(MgService *self, const char *uuid)
{
	MgWriteState *ws = g_hash_table_lookup(self->writes, uuid);
	if (ws == NULL) {
		ws = g_new0(MgWriteState, 1);
		g_hash_table_insert(self->writes, g_strdup(uuid), ws);
	}
	return ws;
}

static void
mg_service_write_failed(MgService *self, MgWrite *w, const GError *error)
{
	MgWriteState *ws = mg_service_write_state(self, w->uuid);
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;

	ws->failures++;
	ws->retry_at = mg_reconcile_retry_at(ws->failures, now);
	if (w->assign) {
		ws->has_drawn = TRUE;
		ws->drawn = w->mac;
	}
	g_hash_table_remove(self->reactivate, w->uuid);
	g_warning("profile '%s': cannot write its address (trying again in %" G_GINT64_FORMAT
		  " s): %s",
		  w->id,
		  ws->retry_at - now,
		  error->message);
}

static void
mg_service_write_succeeded(MgService *self, MgWrite *w)
{
	MgProfileState *p = mg_state_ensure_profile(self->rt.state, w->uuid);
	g_autofree char *digest = mg_state_log_digest(self->rt.state, &w->mac);
	g_autofree char *text = mg_mac_to_string(&w->mac);

	g_hash_table_remove(self->writes, w->uuid);
	/* libnm's copy of the profile lags the write: until it shows the new
	 * address, the old one there is not a revert. */
	g_hash_table_replace(self->settling, g_strdup(w->uuid), g_memdup2(&w->mac, sizeof(w->mac)));
	if (!w->assign) {
		g_message("profile '%s': address #%s written again", w->id, digest);
		return;
	}
	mg_state_assign(self->rt.state,
			p,
			&w->mac,
			g_get_real_time() / G_USEC_PER_SEC,
			w->due_at,
			self->rt.boot_id);
	if (!w->for_conflict) {
		/* A rotation starts afresh: earlier conflicts were elsewhere. */
		p->recovery_attempts = 0;
		p->recovery_failed = FALSE;
	}
	mg_service_save(self);
	g_message("profile '%s': new address #%s (generation %" G_GUINT64_FORMAT ")",
		  w->id,
		  digest,
		  p->generation);
	g_debug("profile '%s': new address %s", w->id, text);
}

/* Rotated while up (on request, for a conflict, a spent address, a revert):
 * up again on the same device, so the new MAC takes effect now. */
static void
mg_service_reactivate_now(MgService *self, NMRemoteConnection *rc, const char *uuid)
{
	const char *iface = g_hash_table_lookup(self->reactivate, uuid);
	NMDevice *device;

	if (iface == NULL)
		return;
	device = iface[0] != '\0' ? nm_client_get_device_by_iface(self->client, iface) : NULL;
	nm_client_activate_connection_async(
	    self->client, NM_CONNECTION(rc), device, NULL, NULL, mg_service_reactivate_done, NULL);
	g_hash_table_remove(self->reactivate, uuid);
}

static void
mg_service_write_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	MgWrite *w = user_data;
	MgService *self = w->self;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) ret =
	    nm_remote_connection_update2_finish(NM_REMOTE_CONNECTION(source), result, &error);

	g_hash_table_remove(self->in_flight, w->uuid);
	if (ret == NULL) {
		mg_service_write_failed(self, w, error);
	} else {
		mg_service_write_succeeded(self, w);
		mg_service_reactivate_now(self, NM_REMOTE_CONNECTION(source), w->uuid);
	}
	/* Anything that happened to it while the write was under way; then
	 * the writes that waited for a free slot, oldest first. */
	mg_service_evaluate(self, NM_REMOTE_CONNECTION(source), MG_EVENT_TIMER);
	while (g_hash_table_size(self->in_flight) < MG_SERVICE_MAX_WRITES &&
	       !g_queue_is_empty(&self->deferred)) {
		g_autofree char *uuid = g_queue_pop_head(&self->deferred);
		NMRemoteConnection *rc;
		g_hash_table_remove(self->deferred_set, uuid);
		rc = nm_client_get_connection_by_uuid(self->client, uuid);
		if (rc != NULL)
			mg_service_evaluate(self, rc, MG_EVENT_TIMER);
	}
	mg_service_rearm(self);
	mg_write_free(w);
}

/* Starts writing @w's address into the profile (and a new stable-id epoch
 * with @new_stable_id). */
static void
mg_service_write(MgService *self, NMRemoteConnection *rc, MgClass klass, gboolean new_stable_id, MgWrite *w)
{
	g_autoptr(NMConnection) copy = nm_simple_connection_new_clone(NM_CONNECTION(rc));
	char text[MG_MAC_STRLEN];

	mg_mac_format(&w->mac, text);
	if ((klass & MG_CLASS_WIRELESS) != 0) {
		NMSettingWireless *s = nm_connection_get_setting_wireless(copy);
		g_object_set(s, NM_SETTING_WIRELESS_CLONED_MAC_ADDRESS, text, NULL);
	} else {
		NMSettingWired *s = nm_connection_get_setting_wired(copy);
		if (s == NULL) {
			s = NM_SETTING_WIRED(nm_setting_wired_new());
			nm_connection_add_setting(copy, NM_SETTING(s));
		}
		g_object_set(s, NM_SETTING_WIRED_CLONED_MAC_ADDRESS, text, NULL);
	}
	if (new_stable_id) {
		/* A new stable-id epoch: NetworkManager derives IPv6
		 * stable-privacy addresses and DHCP identifiers from it, so they
		 * change with the MAC instead of linking old and new. */
		g_autofree char *stable_id = mg_profile_new_stable_id();
		g_object_set(nm_connection_get_setting_connection(copy),
			     NM_SETTING_CONNECTION_STABLE_ID,
			     stable_id,
			     NULL);
	}
	g_hash_table_add(self->in_flight, g_strdup(w->uuid));
	nm_remote_connection_update2(rc,
				     nm_connection_to_dbus(copy, NM_CONNECTION_SERIALIZE_ALL),
				     NM_SETTINGS_UPDATE2_FLAG_TO_DISK,
				     NULL,
				     NULL,
				     mg_service_write_done,
				     w);
}

static MgWrite *
mg_write_new(MgService *self, NMConnection *connection, const MgMac *mac)
{
	MgWrite *w = g_new0(MgWrite, 1);
	w->self = g_object_ref(self);
	w->uuid = g_strdup(nm_connection_get_uuid(connection));
	w->id = g_strdup(nm_connection_get_id(connection));
	w->mac = *mac;
	return w;
}

/* Draws an address (or takes the one a failed write left) and starts
 * writing it into the profile; FALSE if there is none to give. With
 * @reactivate_iface ("": any device), the profile comes up again with it. */
static gboolean
mg_service_assign(MgService *self,
		  NMRemoteConnection *rc,
		  MgClass klass,
		  const MgPolicy *policy,
		  gboolean for_conflict,
		  const char *reactivate_iface)
{
	NMConnection *connection = NM_CONNECTION(rc);
	MgWriteState *ws = g_hash_table_lookup(self->writes, nm_connection_get_uuid(connection));
	g_autoptr(GError) error = NULL;
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	MgWrite *w;
	guint32 jitter;
	MgMac mac, hardware;

	if (ws != NULL && ws->has_drawn && !for_conflict) {
		mac = ws->drawn;
	} else {
		g_autoptr(GArray) taken = mg_service_device_macs(self);
		if (!mg_profile_draw(self->rt.catalogue,
				     self->rt.state,
				     self->rt.rng,
				     klass,
				     policy,
				     mg_service_hardware_mac(self, connection, klass, &hardware),
				     taken,
				     &mac,
				     &error)) {
			g_warning("profile '%s': no address to give it: %s",
				  nm_connection_get_id(connection),
				  error->message);
			return FALSE;
		}
		/* Into the history before NetworkManager has it: whatever
		 * happens next, it is never handed out again and is known as
		 * ours. */
		mg_state_remember(self->rt.state, &mac, now);
	}
	w = mg_write_new(self, connection, &mac);
	if (!mg_service_save(self)) {
		/* Not durably ours yet: NetworkManager must not have it. */
		g_warning("profile '%s': keeps its address until a new one can be recorded in "
			  "the state; trying again later",
			  w->id);
		mg_write_free(w);
		return FALSE;
	}
	mg_random_fill(self->rt.rng, &jitter, sizeof(jitter));
	w->assign = TRUE;
	w->due_at = mg_schedule_due_at(policy, now, jitter);
	w->for_conflict = for_conflict;
	if (reactivate_iface != NULL)
		g_hash_table_replace(self->reactivate, g_strdup(w->uuid), g_strdup(reactivate_iface));
	mg_service_write(self, rc, klass, policy->harden, w);
	return TRUE;
}

/* Deciding -------------------------------------------------------------------- */

/* The interface the profile is active on, or NULL. */
static const char *
mg_service_active_iface(MgService *self, const char *uuid)
{
	const GPtrArray *acs = nm_client_get_active_connections(self->client);
	for (guint i = 0; acs != NULL && i < acs->len; i++) {
		NMActiveConnection *ac = g_ptr_array_index(acs, i);
		const GPtrArray *devices = nm_active_connection_get_devices(ac);
		if (g_strcmp0(nm_active_connection_get_uuid(ac), uuid) == 0 && devices != NULL &&
		    devices->len > 0)
			return nm_device_get_iface(g_ptr_array_index(devices, 0));
	}
	return NULL;
}

/* What quiet hours need to know about an active hotspot: the local time
 * of day and whether any client is associated. Not knowing means busy. */
static void
mg_service_quiet_hours_state(MgService *self, const char *uuid, MgScheduleState *st)
{
	g_autoptr(GDateTime) local = g_date_time_new_now_local();
	g_autoptr(GError) error = NULL;
	const char *iface = mg_service_active_iface(self, uuid);
	unsigned int ifindex = iface != NULL ? if_nametoindex(iface) : 0;
	guint stations = 0;

	st->local_minute = g_date_time_get_hour(local) * 60 + g_date_time_get_minute(local);
	st->idle = FALSE;
	if (ifindex == 0)
		return;
	if (!mg_stations_count((int)ifindex, &stations, &error)) {
		g_debug("%s: cannot count its clients (%s); taking it as busy",
			iface,
			error->message);
		return;
	}
	st->idle = stations == 0;
}

/* A write that returned but that libnm's copy does not show yet. */
static gboolean
mg_service_settling(MgService *self, const char *uuid, const char *cloned)
{
	const MgMac *written = g_hash_table_lookup(self->settling, uuid);
	MgMac mac;

	if (written == NULL)
		return FALSE;
	if (cloned != NULL && mg_mac_parse(cloned, &mac, NULL) && mg_mac_equal(&mac, written)) {
		g_hash_table_remove(self->settling, uuid);
		return FALSE;
	}
	return TRUE;
}

/* What one evaluation saw of an active profile's link: the address its
 * activation set (once it has set one), and whether that activation is
 * still to be checked. */
typedef struct {
	gboolean new_activation;
	MgLinkAddress link;
	MgMac mac;
} MgLinkView;

static MgReconcile
mg_service_decide(MgService *self,
		  NMConnection *connection,
		  MgClass klass,
		  const MgPolicy *policy,
		  const MgLinkView *view,
		  MgEvent event)
{
	const char *uuid = nm_connection_get_uuid(connection);
	const char *cloned = mg_profile_cloned_mac(connection, klass);
	MgWriteState *ws = g_hash_table_lookup(self->writes, uuid);
	MgSnapshot snap;

	mg_profile_snapshot(
	    self->rt.state, mg_state_get_profile(self->rt.state, uuid), cloned, policy, &snap);
	snap.active = g_hash_table_contains(self->active, uuid);
	snap.in_flight =
	    g_hash_table_contains(self->in_flight, uuid) || mg_service_settling(self, uuid, cloned);
	snap.new_activation = view->new_activation;
	snap.link = view->link;
	snap.gate_attempts = GPOINTER_TO_UINT(g_hash_table_lookup(self->gate, uuid));
	snap.retry_at = ws != NULL ? ws->retry_at : 0;
	if (snap.active && klass == MG_CLASS_AP && policy->quiet_start >= 0)
		mg_service_quiet_hours_state(self, uuid, &snap.schedule);
	return mg_reconcile(&snap, self->rt.boot_id, g_get_real_time() / G_USEC_PER_SEC, event);
}

/* What changes the state alone; the decision is then made again. */
static void
mg_service_apply_state(MgService *self, NMConnection *connection, MgClass klass, const MgPolicy *policy, guint actions)
{
	const char *uuid = nm_connection_get_uuid(connection);
	const char *id = nm_connection_get_id(connection);
	MgProfileState *p = mg_state_ensure_profile(self->rt.state, uuid);

	if ((actions & MG_DO_HAND_BACK) != 0) {
		p->user_owned = FALSE;
		p->has_address = FALSE;
		g_message("profile '%s': handed back to macguise", id);
	}
	if ((actions & MG_DO_ADOPT_UNRECORDED) != 0) {
		MgMac mac;
		gint64 drawn_at;
		g_assert(mg_mac_parse(mg_profile_cloned_mac(connection, klass), &mac, NULL));
		drawn_at = mg_state_remembered_at(self->rt.state, &mac);
		mg_state_assign(self->rt.state,
				p,
				&mac,
				drawn_at,
				mg_schedule_due_at(policy, drawn_at, G_MAXUINT32 / 2),
				self->rt.boot_id);
		g_message("profile '%s': took up the address it was given before a restart", id);
	}
	if ((actions & MG_DO_MARK_USER_OWNED) != 0) {
		p->user_owned = TRUE;
		g_message("profile '%s': its MAC address was set by hand; macguise leaves it alone",
			  id);
	}
	if ((actions & MG_DO_MARK_USED) != 0)
		p->used = TRUE;
	if ((actions & MG_DO_MARK_PENDING) != 0)
		p->pending = TRUE;
	mg_service_save(self);
}

/* First contact: the address NetworkManager drew from macguise's defaults
 * becomes the profile's, recorded durably before it is written. */
static gboolean
mg_service_adopt_link(MgService *self, NMConnection *connection, const MgPolicy *policy, const MgMac *mac)
{
	MgProfileState *p = mg_state_ensure_profile(self->rt.state, nm_connection_get_uuid(connection));
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	g_autofree char *digest = NULL;
	guint32 jitter;

	mg_random_fill(self->rt.rng, &jitter, sizeof(jitter));
	mg_state_assign(
	    self->rt.state, p, mac, now, mg_schedule_due_at(policy, now, jitter), self->rt.boot_id);
	p->used = TRUE;
	if (!mg_service_save(self))
		return FALSE;
	digest = mg_state_log_digest(self->rt.state, mac);
	g_message("profile '%s': first contact with address #%s from macguise's defaults; kept",
		  nm_connection_get_id(connection),
		  digest);
	return TRUE;
}

/* A write waits for a free slot among MG_SERVICE_MAX_WRITES. */
static gboolean
mg_service_defer(MgService *self, const char *uuid)
{
	char *key;

	if (g_hash_table_size(self->in_flight) < MG_SERVICE_MAX_WRITES)
		return FALSE;
	if (!g_hash_table_contains(self->deferred_set, uuid)) {
		key = g_strdup(uuid);
		g_queue_push_tail(&self->deferred, key);
		g_hash_table_add(self->deferred_set, key);
	}
	return TRUE;
}

/* The profile's address is right but its link's is not: up again, so the
 * link takes the profile's. Counted, so that a driver that keeps its own
 * address is not re-activated forever. */
static void
mg_service_gate(MgService *self, NMRemoteConnection *rc, const char *iface)
{
	const char *uuid = nm_connection_get_uuid(NM_CONNECTION(rc));
	guint attempts = GPOINTER_TO_UINT(g_hash_table_lookup(self->gate, uuid)) + 1;

	g_hash_table_replace(self->gate, g_strdup(uuid), GUINT_TO_POINTER(attempts));
	g_message("profile '%s': its link came up with another address; up again with its own "
		  "(attempt %u of %u)",
		  nm_connection_get_id(NM_CONNECTION(rc)),
		  attempts,
		  MG_RECONCILE_MAX_GATE);
	g_hash_table_replace(self->reactivate, g_strdup(uuid), g_strdup(iface));
	mg_service_reactivate_now(self, rc, uuid);
}

/* The writes a decision asks for. */
static void
mg_service_apply_writes(MgService *self,
			NMRemoteConnection *rc,
			MgClass klass,
			const MgPolicy *policy,
			const MgLinkView *view,
			guint actions)
{
	NMConnection *connection = NM_CONNECTION(rc);
	const char *uuid = nm_connection_get_uuid(connection);
	const char *iface = NULL;
	MgProfileState *p;

	if ((actions & MG_DO_REACTIVATE) != 0) {
		iface = mg_service_active_iface(self, uuid);
		iface = iface != NULL ? iface : "";
	}
	if ((actions & (MG_DO_ASSIGN | MG_DO_REWRITE | MG_DO_REACTIVATE)) == MG_DO_REACTIVATE) {
		mg_service_gate(self, rc, iface);
		return;
	}
	if ((actions & (MG_DO_ASSIGN | MG_DO_REWRITE)) == 0 || mg_service_defer(self, uuid))
		return;
	if ((actions & MG_DO_ASSIGN) != 0) {
		mg_service_assign(self, rc, klass, policy, FALSE, iface);
		return;
	}
	if ((actions & MG_DO_ADOPT_LINK) != 0 &&
	    !mg_service_adopt_link(self, connection, policy, &view->mac))
		return;
	p = mg_state_get_profile(self->rt.state, uuid);
	if (iface != NULL)
		g_hash_table_replace(self->reactivate, g_strdup(uuid), g_strdup(iface));
	mg_service_write(self, rc, klass, FALSE, mg_write_new(self, connection, &p->address));
}

static MgLinkAddress mg_service_link_address(MgService *self, const char *uuid, MgClass klass, MgMac *out);

/* An activation's check is over once a decision no longer waits for it. */
static void
mg_service_note_checked(MgService *self, NMConnection *connection, const MgLinkView *view, const MgReconcile *r)
{
	const char *uuid = nm_connection_get_uuid(connection);

	if (!view->new_activation || (r->actions & MG_DO_WATCH_LINK) != 0)
		return;
	g_hash_table_remove(self->unchecked, uuid);
	if (view->link == MG_LINK_CURRENT || view->link == MG_LINK_ADOPTABLE)
		g_hash_table_remove(self->gate, uuid);
	else if (g_strcmp0(r->reason, "wrong-address-gave-up") == 0)
		g_warning("profile '%s': its link keeps another address after %u re-activations; "
			  "its driver may not allow a cloned address",
			  nm_connection_get_id(connection),
			  MG_RECONCILE_MAX_GATE);
}

static void
mg_service_evaluate(MgService *self, NMRemoteConnection *rc, MgEvent event)
{
	NMConnection *connection = NM_CONNECTION(rc);
	const char *uuid = nm_connection_get_uuid(connection);
	MgClass klass = mg_profile_class(connection);
	guint state_only = MG_DO_HAND_BACK | MG_DO_ADOPT_UNRECORDED | MG_DO_MARK_USER_OWNED |
			   MG_DO_MARK_USED | MG_DO_MARK_PENDING;
	MgLinkView view = { FALSE, MG_LINK_UNKNOWN, { { 0 } } };
	g_autofree char *words = NULL;
	MgReconcile r;
	MgPolicy policy;

	if (klass == MG_CLASS_NONE || uuid == NULL)
		return;
	mg_service_schedule_publish(self);
	if (g_hash_table_contains(self->active, uuid)) {
		view.new_activation = g_hash_table_contains(self->unchecked, uuid);
		view.link = mg_service_link_address(self, uuid, klass, &view.mac);
	}
	mg_profile_policy(&self->rt.config, self->rt.catalogue, connection, klass, &policy);
	r = mg_service_decide(self, connection, klass, &policy, &view, event);
	/* A hand-back or an adopted address changes what the profile is: decide
	 * again on the new state (at most once more each). */
	for (guint pass = 0; pass < 2 && (r.actions & (MG_DO_HAND_BACK | MG_DO_ADOPT_UNRECORDED)) != 0; pass++) {
		mg_service_apply_state(self, connection, klass, &policy, r.actions & state_only);
		r = mg_service_decide(self, connection, klass, &policy, &view, event);
	}
	words = mg_reconcile_actions_to_string(r.actions);
	g_debug("profile '%s': %s (%s)", nm_connection_get_id(connection), words, r.reason);
	if ((r.actions & state_only) != 0)
		mg_service_apply_state(self, connection, klass, &policy, r.actions & state_only);
	if (r.wake_at != 0)
		g_hash_table_replace(
		    self->wake_at, g_strdup(uuid), g_memdup2(&r.wake_at, sizeof(r.wake_at)));
	else
		g_hash_table_remove(self->wake_at, uuid);
	mg_service_note_checked(self, connection, &view, &r);
	mg_service_apply_writes(self, rc, klass, &policy, &view, r.actions);
	mg_policy_clear(&policy);
}

static gboolean mg_service_timer_cb(gpointer user_data);

/* One timer, for the earliest instant any profile asked for: no polling. */
static void
mg_service_rearm(MgService *self)
{
	GHashTableIter iter;
	gpointer v;
	gint64 earliest = G_MAXINT64;
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;

	g_clear_handle_id(&self->timer_id, g_source_remove);
	g_hash_table_iter_init(&iter, self->wake_at);
	while (g_hash_table_iter_next(&iter, NULL, &v))
		earliest = MIN(earliest, *(gint64 *)v);
	if (earliest == G_MAXINT64)
		return;
	self->timer_id = g_timeout_add_seconds(
	    (guint)CLAMP(earliest - now, 1, G_MAXUINT / 2), mg_service_timer_cb, self);
}

static gboolean
mg_service_timer_cb(gpointer user_data)
{
	MgService *self = user_data;
	self->timer_id = 0;
	mg_service_evaluate_all(self, MG_EVENT_TIMER);
	return G_SOURCE_REMOVE;
}

static void
mg_service_evaluate_all(MgService *self, MgEvent event)
{
	const GPtrArray *connections = nm_client_get_connections(self->client);
	for (guint i = 0; connections != NULL && i < connections->len; i++)
		mg_service_evaluate(self, g_ptr_array_index(connections, i), event);
	mg_service_rearm(self);
}

/* Following NetworkManager ------------------------------------------------------ */

/* The profile's active connection, if it is up. */
static NMActiveConnection *
mg_service_active_connection(MgService *self, const char *uuid)
{
	const char *path = g_hash_table_lookup(self->active, uuid);
	const GPtrArray *acs = nm_client_get_active_connections(self->client);

	for (guint i = 0; path != NULL && acs != NULL && i < acs->len; i++) {
		NMActiveConnection *ac = g_ptr_array_index(acs, i);
		if (g_strcmp0(nm_object_get_path(NM_OBJECT(ac)), path) == 0)
			return ac;
	}
	return NULL;
}

/* The device the profile's activation runs on, once that activation has
 * set the link's address (from stage 2, config, on: NetworkManager sets the
 * cloned address in stage 1, before any frame leaves). */
static NMDevice *
mg_service_link_device(MgService *self, const char *uuid)
{
	NMActiveConnection *ac = mg_service_active_connection(self, uuid);
	const GPtrArray *devices = ac != NULL ? nm_active_connection_get_devices(ac) : NULL;
	NMDevice *device = devices != NULL && devices->len > 0 ? g_ptr_array_index(devices, 0) : NULL;
	NMDeviceState state = device != NULL ? nm_device_get_state(device) : NM_DEVICE_STATE_UNKNOWN;

	if (device == NULL || nm_device_get_active_connection(device) != ac ||
	    state < NM_DEVICE_STATE_CONFIG || state > NM_DEVICE_STATE_ACTIVATED)
		return NULL;
	return device;
}

/* Whether @mac is the current address of any profile. */
static gboolean
mg_service_is_some_current(MgService *self, const MgMac *mac)
{
	g_autoptr(GPtrArray) uuids = mg_state_list_profiles(self->rt.state);

	for (guint i = 0; i < uuids->len; i++) {
		const MgProfileState *p = mg_state_get_profile(self->rt.state, g_ptr_array_index(uuids, i));
		if (p->has_address && mg_mac_equal(&p->address, mac))
			return TRUE;
	}
	return FALSE;
}

/* What the profile's activation put on its link. Adoptable is
 * what macguise's first-contact defaults give: a globally administered
 * address from a current catalogue block of the profile's class, not the
 * card's own, never used here before and no profile's. */
static MgLinkAddress
mg_service_link_address(MgService *self, const char *uuid, MgClass klass, MgMac *out)
{
	NMDevice *device = mg_service_link_device(self, uuid);
	const char *perm = device != NULL ? mg_device_permanent_mac(device) : NULL;
	const MgProfileState *p = mg_state_get_profile(self->rt.state, uuid);
	const MgCatalogueEntry *e;
	MgMac own;

	if (device == NULL || !mg_mac_parse(nm_device_get_hw_address(device), out, NULL))
		return MG_LINK_UNKNOWN;
	if (p != NULL && p->has_address && mg_mac_equal(&p->address, out))
		return MG_LINK_CURRENT;
	if (!mg_mac_is_global_unicast(out) || mg_mac_is_zero(out) ||
	    (perm != NULL && mg_mac_parse(perm, &own, NULL) && mg_mac_equal(&own, out)) ||
	    mg_state_was_used(self->rt.state, out) || mg_service_is_some_current(self, out))
		return MG_LINK_FOREIGN;
	e = mg_catalogue_lookup(self->rt.catalogue, out);
	if (e == NULL || (e->classes & klass) == 0 || e->era != MG_ERA_CURRENT)
		return MG_LINK_FOREIGN;
	return MG_LINK_ADOPTABLE;
}

/* A device moved on (stage, address): an activation waiting for its link
 * address may be checked now. */
static void
mg_service_device_changed(NMDevice *device, GParamSpec *pspec, gpointer user_data)
{
	MgService *self = user_data;
	NMActiveConnection *ac = nm_device_get_active_connection(device);
	const char *uuid = ac != NULL ? nm_active_connection_get_uuid(ac) : NULL;
	NMRemoteConnection *rc;

	if (uuid == NULL || !g_hash_table_contains(self->unchecked, uuid))
		return;
	rc = nm_client_get_connection_by_uuid(self->client, uuid);
	if (rc == NULL)
		return;
	mg_service_evaluate(self, rc, MG_EVENT_LINK_SET);
	mg_service_rearm(self);
}

static void
mg_service_watch_device(MgService *self, NMDevice *device)
{
	g_signal_handlers_disconnect_by_data(device, self);
	g_signal_connect_object(
	    device, "notify::" NM_DEVICE_STATE, G_CALLBACK(mg_service_device_changed), self, 0);
	g_signal_connect_object(
	    device, "notify::" NM_DEVICE_HW_ADDRESS, G_CALLBACK(mg_service_device_changed), self, 0);
}

static void
mg_service_device_added(NMClient *client, NMDevice *device, gpointer user_data)
{
	mg_service_watch_device(user_data, device);
}

/* Activations and deactivations, from the list of active connections. An
 * active connection is one activation: `nmcli connection up` on a profile
 * that is up replaces it with another (a new path, no deactivation seen). */
static void
mg_service_active_changed(NMClient *client, GParamSpec *pspec, gpointer user_data)
{
	MgService *self = user_data;
	const GPtrArray *acs = nm_client_get_active_connections(client);
	g_autoptr(GHashTable) now = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GPtrArray) gone = g_ptr_array_new_with_free_func(g_free);
	GHashTableIter iter;
	gpointer k;

	for (guint i = 0; acs != NULL && i < acs->len; i++) {
		NMActiveConnection *ac = g_ptr_array_index(acs, i);
		NMRemoteConnection *rc;
		const char *uuid = nm_active_connection_get_uuid(ac);
		const char *path = nm_object_get_path(NM_OBJECT(ac));
		if (uuid == NULL || path == NULL)
			continue;
		g_hash_table_add(now, (gpointer)uuid);
		if (g_strcmp0(g_hash_table_lookup(self->active, uuid), path) == 0)
			continue;
		g_hash_table_replace(self->active, g_strdup(uuid), g_strdup(path));
		/* Those found up at start are not new activations. */
		if (self->synced)
			g_hash_table_add(self->unchecked, g_strdup(uuid));
		rc = nm_client_get_connection_by_uuid(self->client, uuid);
		if (rc != NULL)
			mg_service_evaluate(self, rc, self->synced ? MG_EVENT_ACTIVATED : MG_EVENT_SEEN);
	}
	g_hash_table_iter_init(&iter, self->active);
	while (g_hash_table_iter_next(&iter, &k, NULL)) {
		if (!g_hash_table_contains(now, k)) {
			g_ptr_array_add(gone, g_strdup(k));
			g_hash_table_iter_remove(&iter);
		}
	}
	for (guint i = 0; i < gone->len; i++) {
		NMRemoteConnection *rc =
		    nm_client_get_connection_by_uuid(self->client, g_ptr_array_index(gone, i));
		g_hash_table_remove(self->unchecked, g_ptr_array_index(gone, i));
		if (rc != NULL)
			mg_service_evaluate(self, rc, MG_EVENT_DEACTIVATED);
	}
	mg_service_rearm(self);
}

static void
mg_service_connection_changed(NMConnection *connection, gpointer user_data)
{
	MgService *self = user_data;
	mg_service_evaluate(self, NM_REMOTE_CONNECTION(connection), MG_EVENT_SEEN);
	mg_service_rearm(self);
}

static void
mg_service_watch_connection(MgService *self, NMRemoteConnection *rc)
{
	g_signal_handlers_disconnect_by_data(rc, self);
	g_signal_connect_object(rc, "changed", G_CALLBACK(mg_service_connection_changed), self, 0);
}

static void
mg_service_connection_added(NMClient *client, NMRemoteConnection *rc, gpointer user_data)
{
	MgService *self = user_data;
	mg_service_watch_connection(self, rc);
	mg_service_evaluate(self, rc, MG_EVENT_SEEN);
	mg_service_rearm(self);
}

static void
mg_service_connection_removed(NMClient *client, NMRemoteConnection *rc, gpointer user_data)
{
	MgService *self = user_data;
	const char *uuid = nm_connection_get_uuid(NM_CONNECTION(rc));
	/* The history keeps its addresses; only the profile's entry goes. */
	if (uuid != NULL && mg_state_remove_profile(self->rt.state, uuid))
		mg_service_save(self);
	if (uuid != NULL) {
		g_hash_table_remove(self->wake_at, uuid);
		g_hash_table_remove(self->writes, uuid);
		g_hash_table_remove(self->settling, uuid);
		g_hash_table_remove(self->unchecked, uuid);
		g_hash_table_remove(self->gate, uuid);
	}
	mg_service_schedule_publish(self);
}

/* NetworkManager (re)appeared: catch up with everything. */
static void
mg_service_nm_running_changed(NMClient *client, GParamSpec *pspec, gpointer user_data)
{
	MgService *self = user_data;
	const GPtrArray *connections;
	const GPtrArray *devices;

	if (!nm_client_get_nm_running(client)) {
		g_message("NetworkManager is not running; waiting for it");
		g_hash_table_remove_all(self->active);
		g_hash_table_remove_all(self->unchecked);
		g_clear_handle_id(&self->timer_id, g_source_remove);
		return;
	}
	g_message("following NetworkManager %s", nm_client_get_version(client));
	connections = nm_client_get_connections(client);
	for (guint i = 0; connections != NULL && i < connections->len; i++)
		mg_service_watch_connection(self, g_ptr_array_index(connections, i));
	devices = nm_client_get_devices(client);
	for (guint i = 0; devices != NULL && i < devices->len; i++)
		mg_service_watch_device(self, g_ptr_array_index(devices, i));
	g_hash_table_remove_all(self->active);
	self->synced = FALSE;
	mg_service_active_changed(client, NULL, self);
	self->synced = TRUE;
	mg_service_evaluate_all(self, MG_EVENT_SEEN);
}

static void
mg_service_client_ready(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(MgService) self = user_data;
	g_autoptr(GError) error = NULL;

	self->client = nm_client_new_finish(result, &error);
	if (self->client == NULL) {
		g_critical("cannot talk to NetworkManager: %s", error->message);
		return;
	}
	g_signal_connect_object(self->client,
				"notify::" NM_CLIENT_NM_RUNNING,
				G_CALLBACK(mg_service_nm_running_changed),
				self,
				0);
	g_signal_connect_object(self->client,
				"notify::" NM_CLIENT_ACTIVE_CONNECTIONS,
				G_CALLBACK(mg_service_active_changed),
				self,
				0);
	g_signal_connect_object(self->client,
				NM_CLIENT_CONNECTION_ADDED,
				G_CALLBACK(mg_service_connection_added),
				self,
				0);
	g_signal_connect_object(
	    self->client, NM_CLIENT_DEVICE_ADDED, G_CALLBACK(mg_service_device_added), self, 0);
	g_signal_connect_object(self->client,
				NM_CLIENT_CONNECTION_REMOVED,
				G_CALLBACK(mg_service_connection_removed),
				self,
				0);
	mg_service_nm_running_changed(self->client, NULL, self);
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

	if (!mg_runtime_init(&self->rt, state_dir, config_path, error))
		return NULL;
	self->config_path = g_strdup(config_path);
	self->runtime_dir = g_strdup(runtime_dir);
	return g_steal_pointer(&self);
}

/* The D-Bus API's operations ------------------------------------------------------ */

/* The link checks' part of a profile's status. */
static void
mg_service_add_checks(GVariantBuilder *d, const MgProfileState *p)
{
	if (p->verdict != MG_VERDICT_NONE) {
		g_variant_builder_add(
		    d, "{sv}", "verdict", g_variant_new_string(mg_verdict_to_string(p->verdict)));
		g_variant_builder_add(d, "{sv}", "evidence", g_variant_new_string(p->evidence));
		g_variant_builder_add(d, "{sv}", "checked-at", g_variant_new_int64(p->checked_at));
	}
	if (p->conflict_at != 0) {
		g_variant_builder_add(
		    d, "{sv}", "conflict-at", g_variant_new_int64(p->conflict_at));
		g_variant_builder_add(
		    d, "{sv}", "conflict-evidence", g_variant_new_string(p->conflict_evidence));
	}
	if (p->recovery_attempts != 0 || p->recovery_failed) {
		g_variant_builder_add(
		    d, "{sv}", "recovery-attempts", g_variant_new_uint32(p->recovery_attempts));
		g_variant_builder_add(
		    d, "{sv}", "recovery-failed", g_variant_new_boolean(p->recovery_failed));
	}
}

GVariant *
mg_service_get_status(MgService *self)
{
	GVariantBuilder list;
	const GPtrArray *connections =
	    self->client != NULL ? nm_client_get_connections(self->client) : NULL;

	g_variant_builder_init(&list, G_VARIANT_TYPE("aa{sv}"));
	for (guint i = 0; connections != NULL && i < connections->len; i++) {
		NMConnection *c = NM_CONNECTION(g_ptr_array_index(connections, i));
		MgClass klass = mg_profile_class(c);
		const char *uuid = nm_connection_get_uuid(c);
		const MgProfileState *p;
		GVariantBuilder d;
		MgPolicy policy;
		g_autofree char *mode = NULL;
		g_autofree char *rotate = NULL;

		if (klass == MG_CLASS_NONE || uuid == NULL)
			continue;
		mg_profile_policy(&self->rt.config, self->rt.catalogue, c, klass, &policy);
		mode = mg_policy_get(&policy, "mode");
		rotate = mg_policy_get(&policy, "rotate");
		mg_policy_clear(&policy);
		p = mg_state_get_profile(self->rt.state, uuid);
		g_variant_builder_init(&d, G_VARIANT_TYPE("a{sv}"));
		g_variant_builder_add(&d, "{sv}", "uuid", g_variant_new_string(uuid));
		g_variant_builder_add(
		    &d, "{sv}", "id", g_variant_new_string(nm_connection_get_id(c)));
		g_variant_builder_add(
		    &d, "{sv}", "class", g_variant_new_string(mg_class_to_string(klass)));
		g_variant_builder_add(&d, "{sv}", "mode", g_variant_new_string(mode));
		g_variant_builder_add(&d, "{sv}", "rotate", g_variant_new_string(rotate));
		g_variant_builder_add(
		    &d,
		    "{sv}",
		    "active",
		    g_variant_new_boolean(g_hash_table_contains(self->active, uuid)));
		g_variant_builder_add(
		    &d, "{sv}", "user-owned", g_variant_new_boolean(p != NULL && p->user_owned));
		g_variant_builder_add(
		    &d, "{sv}", "pending", g_variant_new_boolean(p != NULL && p->pending));
		if (p != NULL && p->has_address) {
			g_autofree char *mac = mg_mac_to_string(&p->address);
			g_variant_builder_add(&d, "{sv}", "address", g_variant_new_string(mac));
			g_variant_builder_add(
			    &d, "{sv}", "assigned-at", g_variant_new_int64(p->assigned_at));
			g_variant_builder_add(&d, "{sv}", "due-at", g_variant_new_int64(p->due_at));
			g_variant_builder_add(
			    &d, "{sv}", "generation", g_variant_new_uint64(p->generation));
			g_variant_builder_add(
			    &d, "{sv}", "conflicts", g_variant_new_uint32(p->conflicts));
		}
		if (p != NULL)
			mg_service_add_checks(&d, p);
		g_variant_builder_add_value(&list, g_variant_builder_end(&d));
	}
	return g_variant_builder_end(&list);
}

static NMRemoteConnection *
mg_service_lookup_profile(MgService *self, const char *profile, GError **error)
{
	NMRemoteConnection *rc = NULL;

	if (self->client != NULL) {
		rc = nm_client_get_connection_by_uuid(self->client, profile);
		if (rc == NULL)
			rc = nm_client_get_connection_by_id(self->client, profile);
	}
	if (rc == NULL || mg_profile_class(NM_CONNECTION(rc)) == MG_CLASS_NONE) {
		g_set_error(error,
			    G_IO_ERROR,
			    G_IO_ERROR_NOT_FOUND,
			    "no Ethernet or Wi-Fi profile '%s'",
			    profile);
		return NULL;
	}
	return rc;
}

static void
mg_service_reactivate_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(NMActiveConnection) ac =
	    nm_client_activate_connection_finish(NM_CLIENT(source), result, &error);
	if (ac == NULL)
		g_warning("cannot re-activate with the new address: %s", error->message);
}

static gboolean
mg_service_rotate_one(MgService *self, NMRemoteConnection *rc, gboolean now)
{
	NMConnection *c = NM_CONNECTION(rc);
	const char *uuid = nm_connection_get_uuid(c);
	MgClass klass = mg_profile_class(c);
	MgProfileState *p = mg_state_get_profile(self->rt.state, uuid);
	gboolean active = g_hash_table_contains(self->active, uuid);
	MgPolicy policy;

	mg_profile_policy(&self->rt.config, self->rt.catalogue, c, klass, &policy);
	if (policy.mode == MG_MODE_OFF || (p != NULL && p->user_owned) ||
	    g_hash_table_contains(self->in_flight, uuid)) {
		mg_policy_clear(&policy);
		return FALSE;
	}
	if (active && now) {
		mg_service_assign(self, rc, klass, &policy, FALSE, "");
	} else {
		/* Down: the schedule assigns it at once, within the bound on
		 * writes under way; up: when it goes down. */
		p = mg_state_ensure_profile(self->rt.state, uuid);
		p->pending = TRUE;
		mg_service_save(self);
		if (!active)
			mg_service_evaluate(self, rc, MG_EVENT_SEEN);
	}
	mg_policy_clear(&policy);
	return TRUE;
}

guint
mg_service_rotate(MgService *self, const char *profile, gboolean now, GError **error)
{
	guint count = 0;

	if (profile[0] != '\0') {
		NMRemoteConnection *rc = mg_service_lookup_profile(self, profile, error);
		if (rc == NULL)
			return 0;
		return mg_service_rotate_one(self, rc, now) ? 1 : 0;
	}
	if (self->client != NULL) {
		const GPtrArray *connections = nm_client_get_connections(self->client);
		for (guint i = 0; connections != NULL && i < connections->len; i++) {
			NMRemoteConnection *rc = g_ptr_array_index(connections, i);
			if (mg_profile_class(NM_CONNECTION(rc)) != MG_CLASS_NONE &&
			    mg_service_rotate_one(self, rc, now))
				count++;
		}
	}
	return count;
}

gboolean
mg_service_reload(MgService *self, GError **error)
{
	MgConfig fresh;

	mg_config_init_default(&fresh);
	if (!mg_config_load_file(&fresh, self->config_path, error)) {
		mg_config_clear(&fresh);
		return FALSE;
	}
	mg_config_clear(&self->rt.config);
	self->rt.config = fresh;
	mg_service_schedule_publish(self);
	if (self->client != NULL && nm_client_get_nm_running(self->client))
		mg_service_evaluate_all(self, MG_EVENT_SEEN);
	return TRUE;
}

/* Whether macguised manages @uuid's profile with the address it holds now. */
static gboolean
mg_service_manages(MgService *self, NMConnection *c, const MgProfileState *p)
{
	MgClass klass = mg_profile_class(c);
	const char *cloned;
	MgPolicy policy;
	gboolean on;
	MgMac mac;

	if (klass == MG_CLASS_NONE || p == NULL || !p->has_address || p->user_owned ||
	    g_hash_table_contains(self->in_flight, p->uuid))
		return FALSE;
	cloned = mg_profile_cloned_mac(c, klass);
	if (cloned == NULL || !mg_mac_parse(cloned, &mac, NULL) || !mg_mac_equal(&mac, &p->address))
		return FALSE;
	mg_profile_policy(&self->rt.config, self->rt.catalogue, c, klass, &policy);
	on = policy.mode != MG_MODE_OFF;
	mg_policy_clear(&policy);
	return on;
}

GVariant *
mg_service_get_link_check(MgService *self, const char *profile)
{
	NMRemoteConnection *rc =
	    self->client != NULL ? nm_client_get_connection_by_uuid(self->client, profile) : NULL;
	const MgProfileState *p = rc != NULL ? mg_state_get_profile(self->rt.state, profile) : NULL;
	gboolean managed = rc != NULL && mg_service_manages(self, NM_CONNECTION(rc), p);
	g_autofree char *probes = mg_probe_kinds_to_string(self->rt.config.probes);
	char address[MG_MAC_STRLEN] = "";

	if (managed)
		mg_mac_format(&p->address, address);
	return g_variant_new(
	    "(bsus)", managed, address, self->rt.config.probe_window_ms, probes);
}

const char *
mg_service_report_verdict(MgService *self,
			  const char *profile,
			  const char *iface,
			  const char *address,
			  const char *verdict_text,
			  const char *evidence,
			  guint duration_ms,
			  GError **error)
{
	NMRemoteConnection *rc;
	NMConnection *c;
	MgProfileState *p;
	MgVerdict verdict;
	MgPolicy policy;
	MgMac mac;
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	g_autofree char *digest = NULL;

	if (!mg_verdict_report_check(iface, address, verdict_text, evidence, &verdict, &mac, error))
		return NULL;
	rc = mg_service_lookup_profile(self, profile, error);
	if (rc == NULL)
		return NULL;
	c = NM_CONNECTION(rc);
	p = mg_state_get_profile(self->rt.state, nm_connection_get_uuid(c));
	if (p == NULL || !p->has_address || !mg_mac_equal(&p->address, &mac) ||
	    g_hash_table_contains(self->in_flight, p->uuid))
		return "stale";

	digest = mg_state_log_digest(self->rt.state, &mac);
	mg_state_record_verdict(p, verdict, evidence, now);
	if (verdict != MG_VERDICT_CONFLICT || !mg_service_manages(self, c, p)) {
		mg_service_save(self);
		g_message("profile '%s' on %s: address #%s: link check %s after %u ms: %s",
			  nm_connection_get_id(c),
			  iface,
			  digest,
			  verdict_text,
			  duration_ms,
			  evidence);
		return "recorded";
	}

	/* Burned: the history keeps it from ever being handed out again. */
	p->conflicts++;
	mg_state_remember(self->rt.state, &mac, now);
	g_message("profile '%s' on %s: another station uses address #%s: %s",
		  nm_connection_get_id(c),
		  iface,
		  digest,
		  evidence);
	if (p->recovery_attempts >= self->rt.config.conflict_max_attempts) {
		p->recovery_failed = TRUE;
		mg_service_save(self);
		g_warning("profile '%s': still in conflict after %u new address(es); macguise stops "
			  "and leaves the connection as it is",
			  nm_connection_get_id(c),
			  p->recovery_attempts);
		return "gave-up";
	}
	p->recovery_attempts++;
	mg_service_save(self);
	mg_profile_policy(&self->rt.config, self->rt.catalogue, c, mg_profile_class(c), &policy);
	if (!mg_service_assign(self, rc, mg_profile_class(c), &policy, TRUE, iface)) {
		mg_policy_clear(&policy);
		return "recorded";
	}
	mg_policy_clear(&policy);
	return "recovering";
}
