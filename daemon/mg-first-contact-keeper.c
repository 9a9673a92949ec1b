/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-first-contact-keeper.h"

#include <NetworkManager.h>
#include <errno.h>
#include <gio/gio.h>

#include "mg-first-contact.h"

/* NetworkManager's Reload flag for NetworkManager.conf and conf.d
 * (NM_MANAGER_RELOAD_FLAG_CONF): nothing else (DNS, plugins) is touched. */
#define MG_NM_RELOAD_CONF 1u

struct _MgFirstContactKeeper {
	char *path;
	char *dir;
	MgCatalogue *catalogue;
	MgRandom *rng;
	guint watch;          /* NetworkManager's name on the system bus */
	GDBusConnection *bus; /* while NetworkManager is on it */
	gboolean reload_owed; /* written since NetworkManager last reloaded */
	GCancellable *cancel; /* the Reload call under way */
};

static void
mg_first_contact_reloaded(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	    g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), res, &error);
	MgFirstContactKeeper *keeper = user_data;

	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return; /* the keeper is gone */
	if (reply == NULL) {
		/* Still owed: tried again when NetworkManager comes back. */
		keeper->reload_owed = TRUE;
		g_warning("NetworkManager did not reload its configuration for the first-contact "
			  "defaults: %s",
			  error->message);
		return;
	}
	g_message("NetworkManager reloaded its configuration: the first-contact defaults apply");
}

/* Has NetworkManager read its configuration again; the file is read at its
 * next start anyway, so a NetworkManager not on the bus owes nothing more
 * than the reload when it appears (it may have read conf.d before the
 * file was there). A D-Bus call of our own, not libnm's: it must follow
 * NetworkManager from macguised's start, before libnm's client is made. */
static void
mg_first_contact_reload(MgFirstContactKeeper *keeper)
{
	if (!keeper->reload_owed || keeper->bus == NULL)
		return;
	keeper->reload_owed = FALSE;
	g_dbus_connection_call(keeper->bus,
			       NM_DBUS_SERVICE,
			       NM_DBUS_PATH,
			       NM_DBUS_INTERFACE,
			       "Reload",
			       g_variant_new("(u)", MG_NM_RELOAD_CONF),
			       NULL,
			       G_DBUS_CALL_FLAGS_NONE,
			       -1,
			       keeper->cancel,
			       mg_first_contact_reloaded,
			       keeper);
}

/* The file as it should be: FALSE where it is and lists only blocks the
 * catalogue draws today. A file of the boot step's this boot is kept: it
 * was drawn anew already. */
static gboolean
mg_first_contact_wanted(MgFirstContactKeeper *keeper, gint64 now)
{
	g_autofree char *text = NULL;

	if (!g_file_get_contents(keeper->path, &text, NULL, NULL))
		return TRUE;
	return !mg_first_contact_conf_is_current(keeper->catalogue, text, now);
}

void
mg_first_contact_keeper_check(MgFirstContactKeeper *keeper)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *conf = NULL;
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;

	if (mg_first_contact_wanted(keeper, now)) {
		conf = mg_first_contact_conf(
		    keeper->catalogue, keeper->rng, MG_FIRST_CONTACT_DRAWS, now, &error);
		if (conf == NULL || g_mkdir_with_parents(keeper->dir, 0755) != 0 ||
		    !g_file_set_contents_full(
			keeper->path, conf, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, &error)) {
			g_warning("cannot write NetworkManager's first-contact defaults to %s: %s",
				  keeper->path,
				  error != NULL ? error->message : g_strerror(errno));
			return;
		}
		g_message("first-contact defaults written to %s", keeper->path);
		keeper->reload_owed = TRUE;
	}
	mg_first_contact_reload(keeper);
}

static void
mg_first_contact_nm_appeared(GDBusConnection *bus,
			     const char *name,
			     const char *owner,
			     gpointer user_data)
{
	MgFirstContactKeeper *keeper = user_data;

	(void)name, (void)owner;
	g_set_object(&keeper->bus, bus);
	/* Also catches a file removed while NetworkManager was away. */
	mg_first_contact_keeper_check(keeper);
}

static void
mg_first_contact_nm_vanished(GDBusConnection *bus, const char *name, gpointer user_data)
{
	MgFirstContactKeeper *keeper = user_data;

	(void)bus, (void)name;
	g_clear_object(&keeper->bus);
}

MgFirstContactKeeper *
mg_first_contact_keeper_new(const char *nm_conf_dir, MgCatalogue *catalogue, MgRandom *rng)
{
	MgFirstContactKeeper *keeper = g_new0(MgFirstContactKeeper, 1);

	keeper->dir = g_strdup(nm_conf_dir);
	keeper->path = g_build_filename(nm_conf_dir, MG_FIRST_CONTACT_FILE, NULL);
	keeper->catalogue = catalogue;
	keeper->rng = rng;
	keeper->cancel = g_cancellable_new();
	mg_first_contact_keeper_check(keeper);
	keeper->watch = g_bus_watch_name(G_BUS_TYPE_SYSTEM,
					 NM_DBUS_SERVICE,
					 G_BUS_NAME_WATCHER_FLAGS_NONE,
					 mg_first_contact_nm_appeared,
					 mg_first_contact_nm_vanished,
					 keeper,
					 NULL);
	return keeper;
}

void
mg_first_contact_keeper_free(MgFirstContactKeeper *keeper)
{
	if (keeper == NULL)
		return;
	g_bus_unwatch_name(keeper->watch);
	g_cancellable_cancel(keeper->cancel);
	g_clear_object(&keeper->cancel);
	g_clear_object(&keeper->bus);
	g_free(keeper->path);
	g_free(keeper->dir);
	g_free(keeper);
}
