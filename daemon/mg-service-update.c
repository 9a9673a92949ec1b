/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include <glib/gi18n.h>

#include "mg-error.h"
#include "mg-harden.h"
#include "mg-write-check.h"

#include "mg-service-update.h"

#include "mg-service-policy.h"
#include "mg-service-writes.h"
#include "mg-service-core.h"

/* One profile write, in three steps: the profile lock, so that the macguise
 * command does not write the profile at the same time (mg-profile-lock.h);
 * NetworkManager's current copy of the profile; then Update2 with that copy
 * and macguise's keys. libnm's copy can lag a write another program has
 * just made, and written back whole it would undo that write: it serves as
 * the current copy only while NetworkManager has announced no change libnm
 * has not fetched (mg-service-follow.c), as of an answer NetworkManager
 * gives after the lock is taken, else the copy is read from NetworkManager. A current copy whose
 * basis differs from the decided one's is not written: the decision is made again on it.
 *
 * That leaves the instant between reading the copy and NetworkManager
 * writing it: an edit landing there would be undone. NetworkManager 1.44
 * (Debian 13) closes it: Update2 takes the profile's VersionId and refuses
 * the write if the profile changed since. There the copy is read from
 * NetworkManager after its VersionId, every time — the other order could
 * pair a newer VersionId with an older copy, and libnm's copy can lag its
 * VersionId — and a refused write is decided again on the new copy
 * (mg_service_write_mismatched). Debian 12's 1.42 has no VersionId: the
 * instant stays, as narrow as a round trip. */

/* The address's mark goes with it (mg-profile-mark.h). */
static void
mg_service_set_mark(NMConnection *copy, const MgMac *mac)
{
	NMSetting *user = nm_connection_get_setting_by_name(copy, NM_SETTING_USER_SETTING_NAME);
	g_autofree char *mark = mg_profile_mark(nm_connection_get_uuid(copy), mac);

	if (user == NULL) {
		user = nm_setting_user_new();
		nm_connection_add_setting(copy, user);
	}
	nm_setting_user_set_data(NM_SETTING_USER(user), MG_PROFILE_MARK_KEY, mark, NULL);
}

/* A mark that matches no address in the profile leaves it: its address
 * was set by hand over macguise's. Whether it still does is asked of the
 * copy written, which may be newer than the decision's. */
static void
mg_service_remove_stale_mark(NMConnection *copy, MgDeviceClass device_class)
{
	NMSetting *user = nm_connection_get_setting_by_name(copy, NM_SETTING_USER_SETTING_NAME);

	if (user != NULL && mg_profile_mark_is_stale(copy, device_class))
		nm_setting_user_set_data(NM_SETTING_USER(user), MG_PROFILE_MARK_KEY, NULL, NULL);
}

/* The profile's cloned MAC address: @text, or none (NULL). */
static void
mg_service_set_cloned(NMConnection *copy, MgDeviceClass device_class, const char *text)
{
	if ((device_class & MG_DEVICE_CLASS_WIRELESS) != 0) {
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
}

/* macguise's keys in @copy: the address, its mark, and with
 * @w->new_stable_id a new stable-id epoch; for a release, `permanent` and
 * its mark (@w->mac is all zero; mg-profile-mark.h). Not no address:
 * NetworkManager's global default would apply, and macguise's first-contact
 * defaults make that a random address each activation. */
static void
mg_service_set_keys(NMConnection *copy, const MgWrite *w)
{
	char text[MG_MAC_STRLEN];

	if (w->harden_only) {
		if (w->unmark)
			mg_service_remove_stale_mark(copy, w->device_class);
		return;
	}
	if (w->release) {
		mg_service_set_cloned(copy, w->device_class, MG_PROFILE_PERMANENT);
		mg_service_set_mark(copy, &w->mac);
		return;
	}
	mg_mac_format(&w->mac, text);
	mg_service_set_cloned(copy, w->device_class, text);
	mg_service_set_mark(copy, &w->mac);
	if (w->new_stable_id) {
		/* A new stable-id epoch: NetworkManager derives IPv6
		 * stable-privacy addresses and DHCP identifiers from it, so they
		 * change with the MAC instead of linking old and new. */
		g_autofree char *stable_id = mg_profile_new_stable_id();
		g_object_set(nm_connection_get_setting_connection(copy),
			     NM_SETTING_CONNECTION_STABLE_ID,
			     stable_id,
			     NULL);
	}
}

/* The profile changed since the decision: nothing is written. The decision
 * is made again on the new copy (@verdict: now or once libnm has it); a new
 * address it was to get stays due (pending), so the rotation is not lost. */
static void
mg_service_write_stale(MgService *self, MgWrite *w, NMRemoteConnection *rc, MgWriteVerdict verdict)
{
	g_debug("profile '%s': changed since the decision to write it; deciding again", w->id);
	mg_service_write_ended(self, w);
	mg_service_write_superseded(self, w);
	mg_service_write_still_due(self, w);
	self->write_over(self, verdict == MG_WRITE_DECIDE_NOW ? rc : NULL);
	mg_write_free(w);
}

/* A profile whose own macguise.harden is yes gets back, in the copy
 * written, whatever of harden's fixes it lost (whoever took them out):
 * how many. */
static guint
mg_service_keep_hardened(MgService *self, NMRemoteConnection *rc, NMConnection *current, MgWrite *w)
{
	const MgProfileState *p = mg_state_get_profile(self->rt.state, w->uuid);
	const MgPolicy *policy = mg_service_policy(self, NM_CONNECTION(rc), w->device_class);
	g_autoptr(GString) settings = g_string_new(NULL);
	guint kept;

	if (!mg_harden_is_kept(current))
		return 0;
	kept = mg_harden_keep(current, policy, p != NULL && p->user_owned, TRUE, settings);
	if (kept > 0)
		w->hardened = g_string_free(g_steal_pointer(&settings), FALSE);
	return kept;
}

/* A write of harden's fixes alone that NetworkManager's current copy does
 * not need (libnm's copy lagged): over, with nothing written. */
static void
mg_service_write_needless(MgService *self, MgWrite *w)
{
	mg_service_write_ended(self, w);
	self->write_over(self, NULL);
	mg_write_free(w);
}

/* Update2's arguments: the VersionId the copy was read at, if any. */
static GVariant *
mg_service_update_args(const MgWrite *w)
{
	GVariantBuilder args;

	if (w->version_id == 0)
		return NULL;
	g_variant_builder_init(&args, G_VARIANT_TYPE_VARDICT);
	g_variant_builder_add(&args, "{sv}", "version-id", g_variant_new_uint64(w->version_id));
	return g_variant_builder_end(&args);
}

/* @current is NetworkManager's current copy of @w's profile: written with
 * macguise's keys, unless the profile changed since the decision. */
static void
mg_service_update_with(MgWrite *w, NMRemoteConnection *rc, NMConnection *current)
{
	MgService *self = w->self;
	g_autofree char *basis = NULL;
	g_autofree char *known = NULL;
	MgWriteVerdict verdict;
	gboolean unmarked;

	if (mg_service_write_put_off(w))
		return;
	basis = mg_profile_basis(current);
	/* (libnm's copy matters only to a copy that changed) */
	if (!g_str_equal(basis, w->basis))
		known = mg_profile_basis(NM_CONNECTION(rc));
	verdict = mg_write_check_copy(w->basis, basis, known);
	if (verdict != MG_WRITE_GO) {
		mg_service_write_stale(self, w, rc, verdict);
		return;
	}
	/* (a stale mark's removal counts as a change: mg_service_set_keys
	 * makes it) */
	unmarked = w->unmark && mg_profile_mark_is_stale(current, w->device_class);
	mg_service_set_keys(current, w);
	if (mg_service_keep_hardened(self, rc, current, w) == 0 && w->harden_only && !unmarked) {
		mg_service_write_needless(self, w);
		return;
	}
	/* A profile changed only in memory (nmcli --temporary) stays so. */
	nm_remote_connection_update2(rc,
				     nm_connection_to_dbus(current, NM_CONNECTION_SERIALIZE_ALL),
				     nm_remote_connection_get_unsaved(rc)
					 ? NM_SETTINGS_UPDATE2_FLAG_IN_MEMORY
					 : NM_SETTINGS_UPDATE2_FLAG_TO_DISK,
				     mg_service_update_args(w),
				     NULL,
				     mg_service_write_done,
				     w);
}

static void
mg_service_update_read(GObject *source, GAsyncResult *result, gpointer user_data)
{
	MgWrite *w = user_data;
	MgService *self = w->self;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) ret =
	    g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
	g_autoptr(GVariant) settings = NULL;
	g_autoptr(NMConnection) current = NULL;
	NMRemoteConnection *rc = mg_write_known_copy(w);

	if (ret != NULL) {
		g_variant_get(ret, "(@a{sa{sv}})", &settings);
		current = nm_simple_connection_new_from_dbus(settings, &error);
	}
	if (current == NULL || rc == NULL) {
		/* (NetworkManager left while it was read) */
		if (mg_service_write_put_off(w))
			return;
		if (error == NULL)
			error = g_error_new_literal(
			    MG_ERROR, MG_ERROR_NOT_FOUND, _("the profile is gone"));
		mg_service_write_ended(self, w);
		mg_service_write_failed(self, w, error);
		self->write_over(self, NULL);
		mg_write_free(w);
		return;
	}
	mg_service_update_with(w, rc, current);
}

static const char *
mg_write_path(const MgWrite *w)
{
	return w->rc != NULL ? nm_connection_get_path(NM_CONNECTION(w->rc)) : "/";
}

/* The profile as NetworkManager has it now. */
static void
mg_service_update_fetch(MgWrite *w)
{
	NMClient *client = w->self->client;

	if (mg_service_write_put_off(w))
		return;
	g_dbus_connection_call(nm_client_get_dbus_connection(client),
			       nm_client_get_dbus_name_owner(client),
			       mg_write_path(w),
			       NM_DBUS_INTERFACE_SETTINGS_CONNECTION,
			       "GetSettings",
			       NULL,
			       G_VARIANT_TYPE("(a{sa{sv}})"),
			       G_DBUS_CALL_FLAGS_NONE,
			       -1,
			       NULL,
			       mg_service_update_read,
			       w);
}

static void
mg_service_update_read_version(GObject *source, GAsyncResult *result, gpointer user_data)
{
	MgWrite *w = user_data;
	g_autoptr(GVariant) ret =
	    g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, NULL);
	g_autoptr(GVariant) value = NULL;

	/* (none: the profile is gone, which the read of the copy reports) */
	if (ret != NULL) {
		g_variant_get(ret, "(v)", &value);
		if (g_variant_is_of_type(value, G_VARIANT_TYPE_UINT64))
			w->version_id = g_variant_get_uint64(value);
	}
	mg_service_update_fetch(w);
}

/* NetworkManager answered: libnm's copy serves unless a change it
 * announced before is still to be fetched. */
static void
mg_service_update_synced(GObject *source, GAsyncResult *result, gpointer user_data)
{
	MgWrite *w = user_data;
	NMRemoteConnection *rc = mg_write_known_copy(w);
	/* (whatever the answer: only its place among the messages counts) */
	GVariant *answer = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, NULL);

	g_clear_pointer(&answer, g_variant_unref);
	if (mg_write_read_after_round_trip(rc != NULL, mg_service_write_unsettled(w)) ==
	    MG_WRITE_READ_LIBNM_COPY) {
		g_autoptr(NMConnection) current = nm_simple_connection_new_clone(NM_CONNECTION(rc));
		mg_service_update_with(w, rc, current);
		return;
	}
	mg_service_update_fetch(w);
}

/* A property of NetworkManager's or of the profile's, read for @done. */
static void
mg_service_update_get(
    MgWrite *w, const char *path, const char *iface, const char *name, GAsyncReadyCallback done)
{
	NMClient *client = w->self->client;

	g_dbus_connection_call(nm_client_get_dbus_connection(client),
			       nm_client_get_dbus_name_owner(client),
			       path,
			       "org.freedesktop.DBus.Properties",
			       "Get",
			       g_variant_new("(ss)", iface, name),
			       G_VARIANT_TYPE("(v)"),
			       G_DBUS_CALL_FLAGS_NONE,
			       -1,
			       NULL,
			       done,
			       w);
}

/* NetworkManager's current copy of the profile (under the lock), as
 * mg-write-check.h decides. The round trip: a change NetworkManager made
 * before it answers is announced before the answer, so by then the profile
 * is in the unsettled set if libnm's copy lags. Without it, a change
 * macguised had not read yet (a busy or slow macguised; the macguise
 * command's write just before, under the same lock) would be undone. A
 * property read, which NetworkManager answers in turn with the writes
 * queued before it; not Peer.Ping, which GDBus answers at once from its
 * own thread, ahead of them. */
void
mg_service_update(MgWrite *w)
{
	NMRemoteConnection *rc = mg_write_known_copy(w);

	w->version_id = 0;
	if (mg_service_write_put_off(w))
		return;
	switch (mg_write_read_first(nm_client_get_version(w->self->client), rc != NULL)) {
	case MG_WRITE_READ_VERSION:
		mg_service_update_get(w,
				      mg_write_path(w),
				      NM_DBUS_INTERFACE_SETTINGS_CONNECTION,
				      "VersionId",
				      mg_service_update_read_version);
		return;
	case MG_WRITE_READ_ROUND_TRIP:
		mg_service_update_get(
		    w, NM_DBUS_PATH, NM_DBUS_INTERFACE, "Version", mg_service_update_synced);
		return;
	case MG_WRITE_READ_COPY:
	case MG_WRITE_READ_LIBNM_COPY:
		mg_service_update_fetch(w);
		return;
	}
}

void
mg_service_write_prepare(MgService *self,
			 NMConnection *connection,
			 MgDeviceClass device_class,
			 gboolean new_stable_id,
			 MgWrite *w)
{
	MgProfileRecord *r = mg_profile_records_ensure(self->records, w->uuid);

	w->device_class = device_class;
	w->new_stable_id = new_stable_id;
	w->basis = mg_profile_basis(connection);
	w->departures = r->departures;
	mg_profile_records_set_in_flight(self->records, r, TRUE);
}

/* Starts writing @w's address into the profile (and a new stable-id epoch
 * with @new_stable_id). */
void
mg_service_write(MgService *self,
		 NMRemoteConnection *rc,
		 MgDeviceClass device_class,
		 gboolean new_stable_id,
		 MgWrite *w)
{
	mg_service_write_prepare(self, NM_CONNECTION(rc), device_class, new_stable_id, w);
	mg_write_pipeline_submit(self->pipeline, w, FALSE);
}

/* Written once the state holding its address is saved. */
void
mg_service_write_recorded(MgService *self,
			  NMRemoteConnection *rc,
			  MgDeviceClass device_class,
			  gboolean new_stable_id,
			  MgWrite *w)
{
	mg_service_write_prepare(self, NM_CONNECTION(rc), device_class, new_stable_id, w);
	mg_write_pipeline_submit(self->pipeline, w, TRUE);
}
