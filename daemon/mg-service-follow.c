/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-service-follow.h"

#include "mg-service-check.h"
#include "mg-service-decide.h"
#include "mg-service-gone.h"
#include "mg-service-policy.h"
#include "mg-service-core.h"

struct _MgFollower {
	gboolean synced;     /* the active connections found at start are known */
	GHashTable *removed; /* UUID -> D-Bus path libnm said went, settled once idle */
	guint removed_id;
	GHashTable
	    *deactivated; /* UUIDs whose activation libnm stopped listing, settled once idle */
	guint deactivated_id;
	GCancellable *gone_checks; /* asking NetworkManager whether a profile libnm lacks is gone */
	GDBusConnection *updated_bus; /* NetworkManager's profiles' "Updated" */
	guint updated_watch;
	GDBusConnection *resume_bus; /* logind's PrepareForSleep */
	guint resume_watch;
};

MgFollower *
mg_follower_new(void)
{
	MgFollower *f = g_new0(MgFollower, 1);

	f->removed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	f->deactivated = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	f->gone_checks = g_cancellable_new();
	return f;
}

static void
mg_follower_unwatch(GDBusConnection **bus, guint *watch)
{
	if (*watch != 0)
		g_dbus_connection_signal_unsubscribe(*bus, *watch);
	*watch = 0;
	g_clear_object(bus);
}

void
mg_follower_free(MgFollower *f)
{
	if (f == NULL)
		return;
	mg_follower_unwatch(&f->resume_bus, &f->resume_watch);
	mg_follower_unwatch(&f->updated_bus, &f->updated_watch);
	g_cancellable_cancel(f->gone_checks);
	g_object_unref(f->gone_checks);
	g_clear_handle_id(&f->removed_id, g_source_remove);
	g_hash_table_unref(f->removed);
	g_clear_handle_id(&f->deactivated_id, g_source_remove);
	g_hash_table_unref(f->deactivated);
	g_free(f);
}

/* A device moved on (stage, address): an activation waiting for its link
 * address may be checked now. */
static void
mg_service_device_changed(NMDevice *device, GParamSpec *pspec, gpointer user_data)
{
	MgService *self = user_data;
	NMActiveConnection *ac = nm_device_get_active_connection(device);
	const char *uuid = ac != NULL ? nm_active_connection_get_uuid(ac) : NULL;
	const MgProfileRecord *r = mg_profile_records_get(self->records, uuid);
	NMRemoteConnection *rc;

	if (r == NULL || !r->unchecked)
		return;
	rc = nm_client_get_connection_by_uuid(self->client, uuid);
	if (rc == NULL)
		return;
	mg_service_evaluate(self, rc, MG_EVENT_LINK_SET);
	mg_wake_schedule_update_soon(self->wake);
}

static void
mg_service_watch_device(MgService *self, NMDevice *device)
{
	g_signal_handlers_disconnect_by_data(device, self);
	g_signal_connect_object(
	    device, "notify::" NM_DEVICE_STATE, G_CALLBACK(mg_service_device_changed), self, 0);
	g_signal_connect_object(device,
				"notify::" NM_DEVICE_HW_ADDRESS,
				G_CALLBACK(mg_service_device_changed),
				self,
				0);
}

static void
mg_service_device_added(NMClient *client, NMDevice *device, gpointer user_data)
{
	mg_service_watch_device(user_data, device);
}

/* Whether @path is one of NetworkManager's active connections now. */
static gboolean
mg_service_is_active_path(MgService *self, const char *path)
{
	const GPtrArray *acs = nm_client_get_active_connections(self->client);

	for (guint i = 0; acs != NULL && i < acs->len; i++) {
		if (g_strcmp0(nm_object_get_path(NM_OBJECT(g_ptr_array_index(acs, i))), path) == 0)
			return TRUE;
	}
	return FALSE;
}

/* @uuid's activation ended, if NetworkManager no longer lists it. */
static void
mg_service_deactivated(MgService *self, const char *uuid)
{
	MgProfileRecord *r = mg_profile_records_get(self->records, uuid);
	NMRemoteConnection *rc;

	if (r == NULL || r->active_path == NULL || mg_service_is_active_path(self, r->active_path))
		return;
	mg_change_notice_add(self->notice, uuid);
	g_clear_pointer(&r->active_path, g_free);
	r->unchecked = FALSE;
	mg_service_watch_over(self, uuid);
	rc = nm_client_get_connection_by_uuid(self->client, uuid);
	if (rc != NULL)
		mg_service_evaluate(self, rc, MG_EVENT_DEACTIVATED);
	else /* the activation of a profile that left: its record goes too */
		mg_profile_records_remove(self->records, uuid);
}

/* libnm empties the list of active connections when NetworkManager itself
 * goes, before it says NetworkManager is gone: that is no deactivation (the
 * NetworkManager that comes back takes those connections up again, and a
 * rotation owed at a deactivation must not be made then). Deactivations are
 * therefore settled once the main loop is idle, when NetworkManager's
 * leaving is known: those of a NetworkManager still running are decided;
 * those of one that left are activations it may take up again
 * (mg_profile_records_nm_left). */
static gboolean
mg_service_settle_deactivations(gpointer user_data)
{
	MgService *self = user_data;
	g_autoptr(GHashTable) gone = g_steal_pointer(&self->follower->deactivated);
	GHashTableIter iter;
	const char *uuid;

	self->follower->deactivated_id = 0;
	self->follower->deactivated = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	if (!self->following || !nm_client_get_nm_running(self->client))
		return G_SOURCE_REMOVE;
	g_hash_table_iter_init(&iter, gone);
	while (g_hash_table_iter_next(&iter, (gpointer *)&uuid, NULL))
		mg_service_deactivated(self, uuid);
	mg_wake_schedule_update_soon(self->wake);
	return G_SOURCE_REMOVE;
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
	GHashTableIter iter;
	MgProfileRecord *record;

	/* NetworkManager leaving ends no activation: it takes its devices'
	 * connections up again when it comes back, and what it takes up again
	 * is no new activation (taking_up). */
	if (!self->following)
		return;

	for (guint i = 0; acs != NULL && i < acs->len; i++) {
		NMActiveConnection *ac = g_ptr_array_index(acs, i);
		NMRemoteConnection *rc;
		MgProfileRecord *r;
		gboolean found;
		const char *uuid = nm_active_connection_get_uuid(ac);
		const char *path = nm_object_get_path(NM_OBJECT(ac));
		if (uuid == NULL || path == NULL)
			continue;
		g_hash_table_add(now, (gpointer)uuid);
		r = mg_profile_records_ensure(self->records, uuid);
		if (g_strcmp0(r->active_path, path) == 0)
			continue;
		/* down and up again before the idle settled it: the deactivation
		 * is decided first (a rotation owed at it, say) */
		if (g_hash_table_remove(self->follower->deactivated, uuid)) {
			mg_service_deactivated(self, uuid);
			r = mg_profile_records_ensure(self->records, uuid);
		}
		g_free(r->active_path);
		r->active_path = g_strdup(path);
		mg_change_notice_add(self->notice, uuid);
		/* Those found up at start, and those a restarted NetworkManager
		 * takes up again, are not new activations. */
		found = !self->follower->synced || r->taking_up;
		r->taking_up = FALSE;
		r->unchecked = !found;
		rc = nm_client_get_connection_by_uuid(self->client, uuid);
		if (rc != NULL)
			mg_service_evaluate(self, rc, found ? MG_EVENT_SEEN : MG_EVENT_ACTIVATED);
	}
	mg_profile_records_iter_init(self->records, &iter);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&record)) {
		if (record->active_path != NULL && !g_hash_table_contains(now, record->uuid))
			g_hash_table_add(self->follower->deactivated, g_strdup(record->uuid));
	}
	if (g_hash_table_size(self->follower->deactivated) > 0 &&
	    self->follower->deactivated_id == 0)
		self->follower->deactivated_id = g_idle_add(mg_service_settle_deactivations, self);
	mg_wake_schedule_update_soon(self->wake);
}

/* A profile appeared or its settings changed. */
static void
mg_service_connection_seen(MgService *self, NMRemoteConnection *rc)
{
	const char *uuid = nm_connection_get_uuid(NM_CONNECTION(rc));

	if (uuid != NULL)
		mg_service_policy_changed(self, uuid);
	if (uuid != NULL && mg_profile_class(NM_CONNECTION(rc)) != MG_DEVICE_CLASS_NONE)
		mg_change_notice_add(self->notice, uuid);
	mg_link_index_check(self->index, uuid, mg_service_leaves_alone(self, NM_CONNECTION(rc)));
	mg_service_evaluate(self, rc, MG_EVENT_SEEN);
	mg_wake_schedule_update_soon(self->wake);
}

/* libnm's copy of the profile changed: it has fetched NetworkManager's new
 * settings, so it is current again. A write of macguised's that returned
 * before is in it, or was overtaken by a later edit: NetworkManager
 * answered libnm's fetch after the write, on the same bus connection as
 * the write's reply. So the write settles here whatever the copy shows,
 * not only when it shows the write: an edit landing at once after it
 * (a stale copy written back) would else keep it unsettled, and the
 * profile undecided, for good. */
static void
mg_service_connection_changed(NMConnection *connection, gpointer user_data)
{
	MgService *self = user_data;
	MgProfileRecord *r =
	    mg_profile_records_get(self->records, nm_connection_get_uuid(connection));

	if (r != NULL) {
		r->unsettled = FALSE;
		r->settling = FALSE;
	}
	mg_service_connection_seen(self, NM_REMOTE_CONNECTION(connection));
}

/* NetworkManager changed a profile (anyone's write, macguised's too): libnm
 * fetches the new settings, and until it has them its copy lags. The
 * signal comes before any later reply on the same bus connection, so a
 * profile not listed here was current in libnm as of the last message
 * read. */
static void
mg_service_profile_updated(GDBusConnection *connection,
			   const char *sender,
			   const char *path,
			   const char *interface,
			   const char *signal,
			   GVariant *parameters,
			   gpointer user_data)
{
	MgService *self = user_data;
	NMObject *profile = nm_client_get_object_by_path(self->client, path);
	const char *uuid;

	/* Any local user may send a signal that looks like NetworkManager's:
	 * only NetworkManager's own, about a profile libnm knows, counts. */
	if (g_strcmp0(sender, nm_client_get_dbus_name_owner(self->client)) != 0 ||
	    !NM_IS_REMOTE_CONNECTION(profile))
		return;
	uuid = nm_connection_get_uuid(NM_CONNECTION(profile));
	if (uuid != NULL)
		mg_profile_records_ensure(self->records, uuid)->unsettled = TRUE;
}

static void
mg_service_watch_updates(MgService *self)
{
	self->follower->updated_bus = g_object_ref(nm_client_get_dbus_connection(self->client));
	self->follower->updated_watch =
	    g_dbus_connection_signal_subscribe(self->follower->updated_bus,
					       NM_DBUS_SERVICE,
					       NM_DBUS_INTERFACE_SETTINGS_CONNECTION,
					       "Updated",
					       NULL,
					       NULL,
					       G_DBUS_SIGNAL_FLAGS_NONE,
					       mg_service_profile_updated,
					       self,
					       NULL);
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
	mg_service_connection_seen(self, rc);
}

/* libnm says every profile went when NetworkManager itself goes (a restart,
 * a crash): that is no profile leaving. Removals are therefore settled once
 * the main loop is idle, when NetworkManager's leaving is known, and only
 * those of a NetworkManager still running, whose profile it no longer has,
 * are forgotten. */
static gboolean
mg_service_settle_removals(gpointer user_data)
{
	MgService *self = user_data;
	GHashTableIter iter;
	gpointer uuid, path;

	self->follower->removed_id = 0;
	g_hash_table_iter_init(&iter, self->follower->removed);
	while (g_hash_table_iter_next(&iter, &uuid, &path)) {
		/* libnm may still list the object it said went; another object
		 * with the UUID is the profile back (deleted and added again) */
		NMRemoteConnection *now = nm_client_get_connection_by_uuid(self->client, uuid);
		if (nm_client_get_nm_running(self->client) &&
		    (now == NULL || g_strcmp0(nm_object_get_path(NM_OBJECT(now)), path) == 0))
			mg_service_forget(self, uuid);
		g_hash_table_iter_remove(&iter);
	}
	return G_SOURCE_REMOVE;
}

static void
mg_service_connection_removed(NMClient *client, NMRemoteConnection *rc, gpointer user_data)
{
	MgService *self = user_data;
	const char *uuid = nm_connection_get_uuid(NM_CONNECTION(rc));
	MgProfileRecord *r = mg_profile_records_get(self->records, uuid);

	if (uuid == NULL)
		return;
	if (r != NULL) {
		r->unsettled = FALSE;
		/* a profile added again is warned about again */
		g_clear_pointer(&r->policy_problems, g_free);
	}
	mg_service_policy_changed(self, uuid);
	if (!nm_client_get_nm_running(client))
		return;
	g_hash_table_replace(
	    self->follower->removed, g_strdup(uuid), g_strdup(nm_object_get_path(NM_OBJECT(rc))));
	if (self->follower->removed_id == 0)
		self->follower->removed_id = g_idle_add(mg_service_settle_removals, self);
}

/* libnm reads every profile at its start with one GetSettings each, all at
 * once; past the bus's limit of pending replies per client (1,024 in
 * NetworkManager's own bus policy), the bus refuses the rest, and libnm keeps
 * those profiles as empty objects it never reads again until they change.
 * macguised cannot see them: it says so, rather than leave them silently. */
static void
mg_service_warn_unread(MgService *self)
{
	const GPtrArray *connections = nm_client_get_connections(self->client);
	guint unread = 0;

	for (guint i = 0; connections != NULL && i < connections->len; i++) {
		NMRemoteConnection *rc = g_ptr_array_index(connections, i);
		if (!nm_remote_connection_get_visible(rc) &&
		    nm_connection_get_uuid(NM_CONNECTION(rc)) == NULL)
			unread++;
	}
	if (unread > 0)
		g_warning("%u profile(s) could not be read from NetworkManager (the bus refused "
			  "the reads past its limit of pending replies): macguise cannot see them "
			  "until they change or macguised starts again",
			  unread);
}

/* NetworkManager runs, starting or started: what is up now was up before
 * (found, not activated), and every profile is decided. Not waiting for its
 * start to end: that can take minutes (a connection whose DHCP server does
 * not answer keeps Startup true), and a profile added meanwhile must get its
 * address. What must wait is only what a restarted NetworkManager takes up
 * again, one device at a time: a profile that was up when it left
 * (taking_up) and owes a rotation at its deactivation must not look down
 * and be given its address, nor its activation look new, meanwhile; it is
 * decided once it is up, or once NetworkManager has finished starting. */
static void
mg_service_follow_nm(MgService *self)
{
	GHashTableIter iter;
	MgProfileRecord *r;

	mg_profile_records_iter_init(self->records, &iter);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&r)) {
		g_clear_pointer(&r->active_path, g_free);
		r->unchecked = FALSE;
	}
	self->following = TRUE;
	self->follower->synced = FALSE;
	mg_service_active_changed(self->client, NULL, self);
	self->follower->synced = TRUE;
	mg_service_forget_missing(self, self->follower->gone_checks);
	if (!nm_client_get_startup(self->client))
		mg_profile_records_taking_up(self->records, TRUE);
	mg_service_evaluate_all(self, MG_EVENT_SEEN);
	mg_service_warn_unread(self);
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
		self->following = FALSE;
		mg_profile_records_nm_left(self->records);
		mg_wake_schedule_stop(self->wake);
		return;
	}
	g_message("following NetworkManager %s", nm_client_get_version(client));
	connections = nm_client_get_connections(client);
	for (guint i = 0; connections != NULL && i < connections->len; i++)
		mg_service_watch_connection(self, g_ptr_array_index(connections, i));
	devices = nm_client_get_devices(client);
	for (guint i = 0; devices != NULL && i < devices->len; i++)
		mg_service_watch_device(self, g_ptr_array_index(devices, i));
	mg_service_follow_nm(self);
	if (nm_client_get_startup(client)) {
		guint awaited = mg_profile_records_taking_up(self->records, FALSE);
		if (awaited > 0)
			g_message("NetworkManager is starting: %u profile(s) that were up are left "
				  "alone until they are up again",
				  awaited);
	}
}

/* NetworkManager finished starting (its Startup property went false): the
 * profiles it did not take up again are decided now. */
static void
mg_service_nm_startup_changed(NMClient *client, GParamSpec *pspec, gpointer user_data)
{
	MgService *self = user_data;

	if (!self->following || nm_client_get_startup(client) ||
	    mg_profile_records_taking_up(self->records, TRUE) == 0)
		return;
	g_message("NetworkManager has finished starting; the profiles it did not take up again "
		  "are decided now");
	mg_service_evaluate_all(self, MG_EVENT_SEEN);
}

/* logind says the machine woke up (PrepareForSleep(false)). NetworkManager
 * reconnects at once; whatever fell due during sleep is decided now, so an
 * inactive profile has its new address before that, and an active one is
 * caught at its activation. */
static void
mg_service_resumed(GDBusConnection *connection,
		   const char *sender,
		   const char *path,
		   const char *interface,
		   const char *signal,
		   GVariant *parameters,
		   gpointer user_data)
{
	MgService *self = user_data;
	gboolean going_to_sleep = TRUE;

	(void)connection, (void)sender, (void)path, (void)interface, (void)signal;
	if (g_variant_is_of_type(parameters, G_VARIANT_TYPE("(b)")))
		g_variant_get(parameters, "(b)", &going_to_sleep);
	if (going_to_sleep || !nm_client_get_nm_running(self->client))
		return;
	g_message("the machine woke up; every profile decided again");
	mg_service_evaluate_all(self, MG_EVENT_TIMER);
}

static void
mg_service_watch_resume(MgService *self)
{
	self->follower->resume_bus = g_object_ref(nm_client_get_dbus_connection(self->client));
	self->follower->resume_watch =
	    g_dbus_connection_signal_subscribe(self->follower->resume_bus,
					       "org.freedesktop.login1",
					       "org.freedesktop.login1.Manager",
					       "PrepareForSleep",
					       "/org/freedesktop/login1",
					       NULL,
					       G_DBUS_SIGNAL_FLAGS_NONE,
					       mg_service_resumed,
					       self,
					       NULL);
}

void
mg_service_client_ready(GObject *source, GAsyncResult *result, gpointer user_data)
{
	/* the reference mg_service_start() passed */
	g_autoptr(GObject) owned = user_data;
	MgService *self = (MgService *)owned;
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
				"notify::" NM_CLIENT_STARTUP,
				G_CALLBACK(mg_service_nm_startup_changed),
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
	mg_service_watch_resume(self);
	mg_service_watch_updates(self);
	mg_service_nm_running_changed(self->client, NULL, self);
}
