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
	GHashTable *active;     /* UUIDs of profiles with an active connection */
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

/* Profile writes under way at once. The system bus refuses a client more
 * than max_replies_per_connection (128 on Debian) pending calls, and a
 * refused write would stall its profile; a few at a time keep
 * NetworkManager as busy as more would. */
#define MG_SERVICE_MAX_WRITES 16

/* A state file that cannot be written (a full or read-only file system) is
 * tried again after 5 s, then 10 s, … up to 10 min. */
#define MG_SERVICE_SAVE_RETRY_FIRST 5
#define MG_SERVICE_SAVE_RETRY_MAX 600

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
	self->active = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
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
	delay = MG_SERVICE_SAVE_RETRY_FIRST << MIN(self->save_failures, 7);
	delay = MIN(delay, MG_SERVICE_SAVE_RETRY_MAX);
	self->save_failures++;
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
	gint64 due_at;
	gboolean for_conflict; /* a recovery, not a rotation */
} MgAssignment;

static void
mg_assignment_free(MgAssignment *a)
{
	g_object_unref(a->self);
	g_free(a->uuid);
	g_free(a->id);
	g_free(a);
}

static void
mg_service_assign_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	MgAssignment *a = user_data;
	MgService *self = a->self;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) ret =
	    nm_remote_connection_update2_finish(NM_REMOTE_CONNECTION(source), result, &error);

	g_hash_table_remove(self->in_flight, a->uuid);
	if (ret == NULL) {
		g_warning("profile '%s': cannot write its new address: %s", a->id, error->message);
	} else {
		MgProfileState *p = mg_state_ensure_profile(self->rt.state, a->uuid);
		g_autofree char *digest = mg_state_log_digest(self->rt.state, &a->mac);
		g_autofree char *text = mg_mac_to_string(&a->mac);
		mg_state_assign(self->rt.state,
				p,
				&a->mac,
				g_get_real_time() / G_USEC_PER_SEC,
				a->due_at,
				self->rt.boot_id);
		if (!a->for_conflict) {
			/* A rotation starts afresh: earlier conflicts were elsewhere. */
			p->recovery_attempts = 0;
			p->recovery_failed = FALSE;
		}
		mg_service_save(self);
		g_message("profile '%s': new address #%s (generation %" G_GUINT64_FORMAT ")",
			  a->id,
			  digest,
			  p->generation);
		g_debug("profile '%s': new address %s", a->id, text);
	}
	if (g_hash_table_lookup(self->reactivate, a->uuid) != NULL) {
		/* Rotated while up, on request or after a conflict: bring it up
		 * again so the new MAC takes effect now, on the same device. */
		const char *iface = g_hash_table_lookup(self->reactivate, a->uuid);
		NMDevice *device =
		    iface[0] != '\0' ? nm_client_get_device_by_iface(self->client, iface) : NULL;
		if (ret != NULL)
			nm_client_activate_connection_async(self->client,
							    NM_CONNECTION(source),
							    device,
							    NULL,
							    NULL,
							    mg_service_reactivate_done,
							    NULL);
		g_hash_table_remove(self->reactivate, a->uuid);
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
	mg_assignment_free(a);
}

/* Draws an address and starts writing it into the profile; FALSE if there
 * is none to give. */
static gboolean
mg_service_assign(MgService *self,
		  NMRemoteConnection *rc,
		  MgClass klass,
		  const MgPolicy *policy,
		  gboolean for_conflict)
{
	NMConnection *connection = NM_CONNECTION(rc);
	g_autoptr(NMConnection) copy = nm_simple_connection_new_clone(connection);
	g_autoptr(GError) error = NULL;
	char text[MG_MAC_STRLEN];
	MgAssignment *a;
	guint32 jitter;
	MgMac mac, hardware;
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
	mg_mac_format(&mac, text);
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
	if (policy->harden) {
		/* A new stable-id epoch: NetworkManager derives IPv6
		 * stable-privacy addresses and DHCP identifiers from it, so they
		 * change with the MAC instead of linking old and new. */
		g_autofree char *stable_id = mg_profile_new_stable_id();
		g_object_set(nm_connection_get_setting_connection(copy),
			     NM_SETTING_CONNECTION_STABLE_ID,
			     stable_id,
			     NULL);
	}

	mg_random_fill(self->rt.rng, &jitter, sizeof(jitter));
	a = g_new0(MgAssignment, 1);
	a->self = g_object_ref(self);
	a->uuid = g_strdup(nm_connection_get_uuid(connection));
	a->id = g_strdup(nm_connection_get_id(connection));
	a->mac = mac;
	a->due_at = mg_schedule_due_at(policy, g_get_real_time() / G_USEC_PER_SEC, jitter);
	a->for_conflict = for_conflict;
	/* Into the history before NetworkManager has it: whatever happens
	 * next, it is never handed out again and is known as ours. */
	mg_state_remember(self->rt.state, &mac, g_get_real_time() / G_USEC_PER_SEC);
	if (!mg_service_save(self)) {
		/* Not durably ours yet: NetworkManager must not have it. */
		g_warning("profile '%s': keeps its address until a new one can be recorded in "
			  "the state; trying again later",
			  a->id);
		mg_assignment_free(a);
		return FALSE;
	}
	g_hash_table_add(self->in_flight, g_strdup(a->uuid));
	nm_remote_connection_update2(rc,
				     nm_connection_to_dbus(copy, NM_CONNECTION_SERIALIZE_ALL),
				     NM_SETTINGS_UPDATE2_FLAG_TO_DISK,
				     NULL,
				     NULL,
				     mg_service_assign_done,
				     a);
	return TRUE;
}

/* Deciding -------------------------------------------------------------------- */

/* An address drawn for the profile is recorded in the history before it is
 * written; if macguised stopped after NetworkManager took it but before the
 * state said so, the profile holds an address newer than the state's. It is
 * ours: make it the current one. (An older one is libnm's cache lagging a
 * write, and is not taken back.) */
static gboolean
mg_service_adopt_unrecorded(MgService *self,
			    NMConnection *connection,
			    const MgPolicy *policy,
			    MgProfileState *p)
{
	const char *cloned = mg_profile_cloned_mac(connection, mg_profile_class(connection));
	gint64 drawn_at;
	MgMac mac;

	if (p == NULL || cloned == NULL || !mg_mac_parse(cloned, &mac, NULL) ||
	    (p->has_address && mg_mac_equal(&mac, &p->address)))
		return FALSE;
	drawn_at = mg_state_remembered_at(self->rt.state, &mac);
	if (drawn_at == 0 || (p->has_address && drawn_at <= p->assigned_at))
		return FALSE;
	mg_state_assign(self->rt.state,
			p,
			&mac,
			drawn_at,
			mg_schedule_due_at(policy, drawn_at, G_MAXUINT32 / 2),
			self->rt.boot_id);
	g_message("profile '%s': took up the address it was given before a restart",
		  nm_connection_get_id(connection));
	return TRUE;
}

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

static void
mg_service_evaluate(MgService *self, NMRemoteConnection *rc, MgEvent event)
{
	NMConnection *connection = NM_CONNECTION(rc);
	const char *uuid = nm_connection_get_uuid(connection);
	MgClass klass = mg_profile_class(connection);
	gboolean active;
	MgProfileState *p;
	MgScheduleState st;
	MgPolicy policy;
	MgDecision d;
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;

	if (klass == MG_CLASS_NONE || uuid == NULL || g_hash_table_contains(self->in_flight, uuid))
		return;
	mg_service_schedule_publish(self);
	mg_profile_policy(&self->rt.config, self->rt.catalogue, connection, klass, &policy);
	p = mg_state_get_profile(self->rt.state, uuid);
	if (p != NULL && p->user_owned) {
		const char *cloned = mg_profile_cloned_mac(connection, klass);
		/* Clearing the setting (nmcli ... cloned-mac-address "") hands
		 * the profile back to macguise. */
		if (cloned == NULL || cloned[0] == '\0') {
			p->user_owned = FALSE;
			p->has_address = FALSE;
			mg_service_save(self);
			g_message("profile '%s': handed back to macguise",
				  nm_connection_get_id(connection));
		}
	}
	if (policy.mode == MG_MODE_OFF || (p != NULL && p->user_owned)) {
		g_hash_table_remove(self->wake_at, uuid);
		mg_policy_clear(&policy);
		return;
	}
	if (mg_service_adopt_unrecorded(self, connection, &policy, p))
		mg_service_save(self);
	if (mg_profile_set_by_hand(self->rt.state, p, mg_profile_cloned_mac(connection, klass))) {
		p = mg_state_ensure_profile(self->rt.state, uuid);
		p->user_owned = TRUE;
		mg_service_save(self);
		g_message("profile '%s': its MAC address was set by hand; macguise leaves it alone",
			  nm_connection_get_id(connection));
		g_hash_table_remove(self->wake_at, uuid);
		mg_policy_clear(&policy);
		return;
	}

	active = g_hash_table_contains(self->active, uuid);
	if (p != NULL && event == MG_EVENT_ACTIVATED && !p->used) {
		p->used = TRUE;
		mg_service_save(self);
	}
	mg_profile_schedule_state(p, &st);
	if (active && klass == MG_CLASS_AP && policy.quiet_start >= 0)
		mg_service_quiet_hours_state(self, uuid, &st);
	d = mg_schedule_decide(&policy, &st, active, self->rt.boot_id, now, event);
	g_debug("profile '%s': %s (%s)",
		nm_connection_get_id(connection),
		mg_action_to_string(d.action),
		d.reason);
	/* The next instant worth waking for: a due time, or quiet hours'
	 * next look; none once an address is being written. */
	if (d.wake_at != 0)
		g_hash_table_replace(
		    self->wake_at, g_strdup(uuid), g_memdup2(&d.wake_at, sizeof(d.wake_at)));
	else
		g_hash_table_remove(self->wake_at, uuid);
	switch (d.action) {
	case MG_ACTION_ASSIGN_NOW:
		if (g_hash_table_size(self->in_flight) < MG_SERVICE_MAX_WRITES) {
			mg_service_assign(self, rc, klass, &policy, FALSE);
		} else if (!g_hash_table_contains(self->deferred_set, uuid)) {
			/* A write's completion takes it up. */
			char *key = g_strdup(uuid);
			g_queue_push_tail(&self->deferred, key);
			g_hash_table_add(self->deferred_set, key);
		}
		break;
	case MG_ACTION_ASSIGN_AT_DEACTIVATION:
		p = mg_state_ensure_profile(self->rt.state, uuid);
		if (!p->pending) {
			p->pending = TRUE;
			mg_service_save(self);
		}
		break;
	case MG_ACTION_ASSIGN_AND_REACTIVATE: {
		const char *iface = mg_service_active_iface(self, uuid);
		if (mg_service_assign(self, rc, klass, &policy, FALSE)) {
			g_message("profile '%s': no client connected in its quiet hours; "
				  "restarting the hotspot with its new address",
				  nm_connection_get_id(connection));
			g_hash_table_replace(
			    self->reactivate, g_strdup(uuid), g_strdup(iface != NULL ? iface : ""));
		}
		break;
	}
	case MG_ACTION_KEEP:
		break;
	default:
		g_assert_not_reached();
	}
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

/* Activations and deactivations, from the list of active connections. */
static void
mg_service_active_changed(NMClient *client, GParamSpec *pspec, gpointer user_data)
{
	MgService *self = user_data;
	const GPtrArray *acs = nm_client_get_active_connections(client);
	g_autoptr(GHashTable) now = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GHashTableIter iter;
	gpointer k;

	for (guint i = 0; acs != NULL && i < acs->len; i++) {
		const char *uuid = nm_active_connection_get_uuid(g_ptr_array_index(acs, i));
		if (uuid != NULL)
			g_hash_table_add(now, g_strdup(uuid));
	}
	g_hash_table_iter_init(&iter, now);
	while (g_hash_table_iter_next(&iter, &k, NULL)) {
		if (!g_hash_table_contains(self->active, k)) {
			NMRemoteConnection *rc = nm_client_get_connection_by_uuid(self->client, k);
			g_hash_table_add(self->active, g_strdup(k));
			if (rc != NULL)
				mg_service_evaluate(self, rc, MG_EVENT_ACTIVATED);
		}
	}
	g_hash_table_iter_init(&iter, self->active);
	while (g_hash_table_iter_next(&iter, &k, NULL)) {
		if (!g_hash_table_contains(now, k)) {
			g_autofree char *uuid = g_strdup(k);
			NMRemoteConnection *rc =
			    nm_client_get_connection_by_uuid(self->client, uuid);
			g_hash_table_iter_remove(&iter);
			if (rc != NULL)
				mg_service_evaluate(self, rc, MG_EVENT_DEACTIVATED);
		}
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
	if (uuid != NULL)
		g_hash_table_remove(self->wake_at, uuid);
	mg_service_schedule_publish(self);
}

/* NetworkManager (re)appeared: catch up with everything. */
static void
mg_service_nm_running_changed(NMClient *client, GParamSpec *pspec, gpointer user_data)
{
	MgService *self = user_data;
	const GPtrArray *connections;

	if (!nm_client_get_nm_running(client)) {
		g_message("NetworkManager is not running; waiting for it");
		g_hash_table_remove_all(self->active);
		g_clear_handle_id(&self->timer_id, g_source_remove);
		return;
	}
	g_message("following NetworkManager %s", nm_client_get_version(client));
	connections = nm_client_get_connections(client);
	for (guint i = 0; connections != NULL && i < connections->len; i++)
		mg_service_watch_connection(self, g_ptr_array_index(connections, i));
	g_hash_table_remove_all(self->active);
	mg_service_active_changed(client, NULL, self);
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
		if (mg_service_assign(self, rc, klass, &policy, FALSE))
			g_hash_table_replace(self->reactivate, g_strdup(uuid), g_strdup(""));
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
	if (!mg_service_assign(self, rc, mg_profile_class(c), &policy, TRUE)) {
		mg_policy_clear(&policy);
		return "recorded";
	}
	mg_policy_clear(&policy);
	g_hash_table_replace(self->reactivate, g_strdup(p->uuid), g_strdup(iface));
	return "recovering";
}
