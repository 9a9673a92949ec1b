/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-boot.h"

#include <NetworkManager.h>
#include <glib/gi18n.h>
#include <errno.h>
#include <string.h>

#include "mg-device-facts.h"
#include "mg-draw-mix.h"
#include "mg-error.h"
#include "mg-first-contact.h"
#include "mg-nm-leases.h"
#include "mg-profile.h"
#include "mg-schedule.h"
#include "mg-state-store.h"

#define MG_BOOT_SYSTEM_BUS "unix:path=/run/dbus/system_bus_socket"
#define MG_BOOT_BUS_WAIT_S 3
#define MG_BOOT_SYS_CLASS_NET "/sys/class/net"

/* Addresses the machine's interfaces have now: never a candidate. Not the
 * neighbour tables, as macguised reads them: before NetworkManager no link
 * is up to have neighbours, and the unit's network namespace is its own
 * (its sysfs still lists the machine's interfaces). */
static GArray *
mg_boot_local_macs(void)
{
	GArray *taken = g_array_new(FALSE, FALSE, sizeof(MgMac));
	g_autoptr(GDir) dir = g_dir_open("/sys/class/net", 0, NULL);
	const char *name;

	while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
		g_autofree char *path = g_build_filename("/sys/class/net", name, "address", NULL);
		g_autofree char *text = NULL;
		MgMac m;
		if (g_file_get_contents(path, &text, NULL, NULL) &&
		    mg_mac_parse(g_strstrip(text), &m, NULL))
			g_array_append_val(taken, m);
	}
	return taken;
}

/* The group a keyfile keeps a setting in: its own name, or the alias
 * NetworkManager writes ("ethernet", "wifi"). */
static const char *
mg_boot_group(GKeyFile *kf, const char *name, const char *alias)
{
	return g_key_file_has_group(kf, name) ? name : alias;
}

typedef struct {
	int owner_lock; /* mg_state_owner_lock(); -1: not held */
	MgRuntime rt;
	GArray *taken;
	gint64 now;
	const char *nm_state_dir;
} MgBoot;

static void
mg_boot_clear(MgBoot *b)
{
	mg_runtime_clear(&b->rt);
	g_clear_pointer(&b->taken, g_array_unref);
	/* last: the state is let go only once every save is done */
	if (b->owner_lock >= 0)
		(void)close(b->owner_lock);
	b->owner_lock = -1;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(MgBoot, mg_boot_clear)

/* A new address goes into the state (saved once for every profile, before
 * any keyfile is written: if a keyfile write is then lost, the profile
 * keeps an address the history knows, never one macguise would hand out
 * again). With harden, a new stable-id epoch goes with it. */
static void
mg_boot_record(
    MgBoot *b, NMConnection *connection, GKeyFile *kf, const MgPolicy *policy, const MgMac *mac)
{
	MgProfileState *p =
	    mg_state_ensure_profile(b->rt.state, nm_connection_get_uuid(connection));
	guint32 jitter;

	if (policy->harden) {
		g_autofree char *stable_id = mg_profile_new_stable_id();
		g_key_file_set_string(kf, "connection", "stable-id", stable_id);
	}
	mg_random_fill(b->rt.rng, &jitter, sizeof(jitter));
	mg_state_assign(
	    b->rt.state, p, mac, b->now, mg_schedule_due_at(policy, b->now, jitter), b->rt.boot_id);
}

/* A keyfile to write: its new contents, and what it was decided on. */
typedef struct {
	GKeyFile *kf;
	char *path;
	NMConnection *connection;
	MgMac mac;
	gboolean assigned; /* a new address (else the current one written again) */
	gboolean unmark;   /* no address: only a stale mark leaves (MG_DO_UNMARK) */
	const char *reason;
} MgBootWrite;

static void
mg_boot_write_free(MgBootWrite *w)
{
	g_key_file_unref(w->kf);
	g_free(w->path);
	g_object_unref(w->connection);
	g_free(w);
}

/* @mac as the keyfile's cloned address, with macguise's mark beside it. */
static void
mg_boot_set_address(GKeyFile *kf,
		    NMConnection *connection,
		    MgDeviceClass device_class,
		    const MgMac *mac)
{
	g_autofree char *mark = mg_profile_mark(nm_connection_get_uuid(connection), mac);
	char text[MG_MAC_STRLEN];

	mg_mac_format(mac, text);
	if ((device_class & MG_DEVICE_CLASS_WIRELESS) != 0)
		g_key_file_set_string(
		    kf, mg_boot_group(kf, "802-11-wireless", "wifi"), "cloned-mac-address", text);
	else
		g_key_file_set_string(kf,
				      mg_boot_group(kf, "802-3-ethernet", "ethernet"),
				      "cloned-mac-address",
				      text);
	g_key_file_set_string(kf, NM_SETTING_USER_SETTING_NAME, MG_PROFILE_MARK_KEY, mark);
}

static gboolean
mg_boot_write_keyfile(GKeyFile *kf, const char *path)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *data = NULL;
	gsize len = 0;

	data = g_key_file_to_data(kf, &len, NULL);
	if (!g_file_set_contents_full(path,
				      data,
				      (gssize)len,
				      G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
				      0600,
				      &error)) {
		g_warning("%s: cannot write its new address: %s", path, error->message);
		return FALSE;
	}
	return TRUE;
}

/* A new address for the profile, drawn for its device's chip where sysfs
 * tells the device (its interface-name's, else the only one of its kind),
 * else from the class's mix.  No devices before NetworkManager: keep-vendor
 * keeps the block of @current, the current address, the device's. */
static gboolean
mg_boot_draw(MgBoot *b,
	     NMConnection *connection,
	     MgDeviceClass device_class,
	     const MgPolicy *policy,
	     const MgMac *current,
	     MgMac *mac,
	     GError **error)
{
	const char *why = NULL;
	const MgDriverMix *mix = NULL;
	g_autoptr(MgDeviceFacts) facts =
	    mg_device_facts_from_sysfs(MG_BOOT_SYS_CLASS_NET, connection, device_class, &why);

	if (!mg_profile_draw_for_device(b->rt.catalogue,
					b->rt.state,
					b->rt.rng,
					device_class,
					policy,
					facts,
					current,
					b->taken,
					mac,
					&mix,
					error))
		return FALSE;
	mg_draw_mix_log(b->rt.catalogue,
			policy,
			device_class,
			facts,
			why,
			mix,
			nm_connection_get_id(connection));
	return TRUE;
}

/* The keyfile at @path, decided: what to write into it, or NULL for
 * nothing. A new address is drawn and recorded in the state, not yet
 * saved. */
static MgBootWrite *
mg_boot_decide(MgBoot *b, const char *dir, const char *path)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) error = NULL;
	g_autoptr(NMConnection) connection = NULL;
	MgProfileState *p;
	g_auto(MgPolicy) policy = { 0 };
	MgSnapshot snap;
	MgReconcile r;
	MgDeviceClass device_class;
	MgBootWrite *w;
	MgMac mac;

	if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_KEEP_COMMENTS, &error) ||
	    (connection = nm_keyfile_read(
		 kf, dir, NM_KEYFILE_HANDLER_FLAGS_NONE, NULL, NULL, &error)) == NULL ||
	    /* what NetworkManager would not load is not a profile to serve */
	    !nm_connection_normalize(connection, NULL, NULL, &error)) {
		g_warning("%s: skipped: %s", path, error->message);
		return NULL;
	}
	device_class = mg_profile_class(connection);
	if (device_class == MG_DEVICE_CLASS_NONE || nm_connection_get_uuid(connection) == NULL)
		return NULL;
	p = mg_state_get_profile(b->rt.state, nm_connection_get_uuid(connection));
	mg_profile_policy(&b->rt.config, b->rt.catalogue, connection, device_class, &policy);
	mg_profile_snapshot(b->rt.state, p, connection, device_class, &policy, &snap);
	r = mg_reconcile(&snap, b->rt.boot_id, b->now, MG_EVENT_BOOT);
	/* Only writes happen here; what changes the state alone (set by
	 * hand, handed back, adopted) the running service does and reports.
	 * A stale mark goes at once: until it does, it and the history
	 * together point at the address it belonged to (mg-profile-mark.h). */
	if ((r.actions & MG_DO_UNMARK) != 0 &&
	    g_key_file_remove_key(kf, NM_SETTING_USER_SETTING_NAME, MG_PROFILE_MARK_KEY, NULL)) {
		w = g_new0(MgBootWrite, 1);
		w->unmark = TRUE;
		w->kf = g_steal_pointer(&kf);
		w->path = g_strdup(path);
		w->connection = g_steal_pointer(&connection);
		w->reason = r.reason;
		return w;
	}
	if ((r.actions & (MG_DO_ASSIGN | MG_DO_REWRITE)) == 0)
		return NULL;
	if ((r.actions & MG_DO_REWRITE) != 0) {
		mac = p->address; /* a reverted keyfile gets its current address back */
	} else if (!mg_boot_draw(b,
				 connection,
				 device_class,
				 &policy,
				 p != NULL && p->has_address ? &p->address : NULL,
				 &mac,
				 &error)) {
		g_warning("profile '%s': no address to give it: %s",
			  nm_connection_get_id(connection),
			  error->message);
		return NULL;
	}
	mg_boot_set_address(kf, connection, device_class, &mac);
	w = g_new0(MgBootWrite, 1);
	w->assigned = (r.actions & MG_DO_ASSIGN) != 0;
	if (w->assigned)
		mg_boot_record(b, connection, kf, &policy, &mac);
	w->kf = g_steal_pointer(&kf);
	w->path = g_strdup(path);
	w->connection = g_steal_pointer(&connection);
	w->mac = mac;
	w->reason = r.reason;
	return w;
}

/* Writes a decided keyfile; TRUE when it was rewritten. */
static gboolean
mg_boot_write(MgBoot *b, const MgBootWrite *w)
{
	g_autofree char *digest = NULL;
	char text[MG_MAC_STRLEN];

	if (!mg_boot_write_keyfile(w->kf, w->path))
		return FALSE;
	if (w->unmark) {
		g_message("profile '%s': the mark of its earlier macguise address removed at boot",
			  nm_connection_get_id(w->connection));
		return FALSE; /* (no address written) */
	}
	digest = mg_state_log_digest(b->rt.state, &w->mac);
	mg_mac_format(&w->mac, text);
	g_message("profile '%s': new address #%s at boot (%s)",
		  nm_connection_get_id(w->connection),
		  digest,
		  w->reason);
	g_debug("profile '%s': new address %s at boot", nm_connection_get_id(w->connection), text);
	if (w->assigned)
		mg_nm_forget_leases(b->nm_state_dir,
				    nm_connection_get_uuid(w->connection),
				    nm_connection_get_id(w->connection));
	return TRUE;
}

static void
mg_boot_first_contact(MgBoot *b, const char *nm_conf_dir)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *path = g_build_filename(nm_conf_dir, MG_FIRST_CONTACT_FILE, NULL);
	g_autofree char *conf = mg_first_contact_conf(
	    b->rt.catalogue, b->rt.rng, MG_FIRST_CONTACT_DRAWS, b->now, &error);

	if (conf == NULL || g_mkdir_with_parents(nm_conf_dir, 0755) != 0 ||
	    !g_file_set_contents_full(
		path, conf, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, &error)) {
		g_warning("cannot write NetworkManager's first-contact defaults to %s: %s",
			  path,
			  error != NULL ? error->message : g_strerror(errno));
		return;
	}
	g_message("first-contact defaults written to %s", path);
}

/* Whether NetworkManager holds its name on the system bus. The boot step may
 * run before the bus does: a bus that is not there or does not answer its
 * handshake within a few seconds (a socket-activated one still starting)
 * means NetworkManager, a D-Bus service, is not up either. */
static gboolean
mg_boot_nm_running(void)
{
	const char *address = g_getenv("DBUS_SYSTEM_BUS_ADDRESS");
	g_autoptr(GIOStream) stream = NULL;
	g_autoptr(GDBusConnection) bus = NULL;
	g_autoptr(GVariant) reply = NULL;
	GSocket *socket = NULL;
	gboolean owned = FALSE;

	stream = g_dbus_address_get_stream_sync(
	    address != NULL ? address : MG_BOOT_SYSTEM_BUS, NULL, NULL, NULL);
	if (stream == NULL)
		return FALSE;
	if (G_IS_SOCKET_CONNECTION(stream)) {
		socket = g_socket_connection_get_socket(G_SOCKET_CONNECTION(stream));
		g_socket_set_timeout(socket, MG_BOOT_BUS_WAIT_S);
	}
	bus = g_dbus_connection_new_sync(stream,
					 NULL,
					 G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
					     G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
					 NULL,
					 NULL,
					 NULL);
	if (bus == NULL)
		return FALSE;
	if (socket != NULL)
		g_socket_set_timeout(socket, 0);
	reply = g_dbus_connection_call_sync(bus,
					    "org.freedesktop.DBus",
					    "/org/freedesktop/DBus",
					    "org.freedesktop.DBus",
					    "NameHasOwner",
					    g_variant_new("(s)", NM_DBUS_SERVICE),
					    G_VARIANT_TYPE("(b)"),
					    G_DBUS_CALL_FLAGS_NONE,
					    MG_BOOT_BUS_WAIT_S * 1000,
					    NULL,
					    NULL);
	if (reply != NULL)
		g_variant_get(reply, "(b)", &owned);
	g_dbus_connection_close_sync(bus, NULL, NULL);
	return owned;
}

/* The state's ownership, or FALSE: macguised has it (@result says so, and
 * nothing else is an error) or it cannot be had. Taken before anything is
 * read, so the boot step never decides on a state macguised is changing,
 * never saves over it, and never removes its save under way as a stale
 * temporary. A lock, not a look for macguised's bus name: the name is
 * taken after the state is loaded and given up before the last save, and
 * the boot step may run before the bus. */
static gboolean
mg_boot_own_state(MgBoot *b, const MgBootPaths *paths, MgBootResult *result, GError **error)
{
	g_autoptr(GError) local = NULL;

	b->owner_lock = mg_state_owner_lock(paths->state_dir, FALSE, &local);
	if (b->owner_lock >= 0)
		return TRUE;
	if (g_error_matches(local, MG_ERROR, MG_ERROR_BUSY)) {
		result->daemon_runs = TRUE;
		return FALSE;
	}
	g_propagate_error(error, g_steal_pointer(&local));
	return FALSE;
}

gboolean
mg_boot_run(const MgBootPaths *paths, MgBootResult *result, GError **error)
{
	const char *keyfile_dir = paths->keyfile_dir;
	g_auto(MgBoot) b = { .owner_lock = -1 };
	g_autoptr(GDir) dir = NULL;
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) writes =
	    g_ptr_array_new_with_free_func((GDestroyNotify)mg_boot_write_free);
	gboolean assigned = FALSE, recorded;
	const char *name;

	memset(result, 0, sizeof(*result));
	if (!mg_boot_own_state(&b, paths, result, error))
		return result->daemon_runs;
	if (mg_boot_nm_running()) {
		g_set_error_literal(
		    error,
		    MG_ERROR,
		    MG_ERROR_BUSY,
		    _("NetworkManager is running: it would write its profiles back over new "
		      "addresses. The boot step runs before NetworkManager starts; to give a "
		      "profile a new address now, use macguise rotate"));
		return FALSE;
	}
	if (!mg_runtime_init(&b.rt, paths->state_dir, paths->config_path, error))
		return FALSE;
	b.nm_state_dir = paths->nm_state_dir;
	b.taken = mg_boot_local_macs();
	b.now = g_get_real_time() / G_USEC_PER_SEC;

	dir = g_dir_open(keyfile_dir, 0, error);
	if (dir == NULL)
		return FALSE;
	while ((name = g_dir_read_name(dir)) != NULL) {
		if (g_str_has_suffix(name, ".nmconnection"))
			g_ptr_array_add(names, g_build_filename(keyfile_dir, name, NULL));
	}
	for (guint i = 0; i < names->len; i++) {
		MgBootWrite *w = mg_boot_decide(&b, keyfile_dir, g_ptr_array_index(names, i));
		if (w != NULL) {
			g_ptr_array_add(writes, w);
			assigned |= w->assigned;
		}
	}
	/* One durable save records every new address, before any keyfile has
	 * one; without it, only addresses recorded before are written again. */
	recorded = !assigned || mg_runtime_save(&b.rt);
	if (!recorded)
		g_warning("the new addresses cannot be recorded in the state; the profiles keep "
			  "theirs");
	for (guint i = 0; i < writes->len; i++) {
		const MgBootWrite *w = g_ptr_array_index(writes, i);
		if ((recorded || !w->assigned) && mg_boot_write(&b, w))
			result->rewritten++;
	}
	mg_boot_first_contact(&b, paths->nm_conf_dir);
	return TRUE;
}
