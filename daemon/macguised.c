/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguised: keeps a plausible, rotating MAC address in every managed
 * NetworkManager profile. */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <unistd.h>

#include "mg-boot.h"
#include "mg-config.h"
#include "mg-dbus-api.h"
#include "mg-nm-leases.h"
#include "mg-service.h"
#include "mg-link-check-index-write.h"
#include "mg-state.h"
#include "mg-state-store.h"

static gboolean
mg_quit(gpointer loop)
{
	g_main_loop_quit(loop);
	return G_SOURCE_CONTINUE;
}

/* What the command line says. */
static gboolean mg_opt_debug;
static gboolean mg_opt_version;
static gboolean mg_opt_boot;
static char *mg_opt_keyfile_dir;
static char *mg_opt_nm_conf_dir;
static char *mg_opt_nm_state_dir;

static const GOptionEntry mg_option_entries[] = {
	{ "debug",
	  'd',
	  0,
	  G_OPTION_ARG_NONE,
	  &mg_opt_debug,
	  N_("Log every decision, with addresses in plain text"),
	  NULL },
	{ "version",
	  0,
	  0,
	  G_OPTION_ARG_NONE,
	  &mg_opt_version,
	  N_("Print the version and exit"),
	  NULL },
	{ "boot",
	  0,
	  0,
	  G_OPTION_ARG_NONE,
	  &mg_opt_boot,
	  N_("The boot step, before NetworkManager starts: give every due profile a new "
	     "address in its keyfile, then exit"),
	  NULL },
	{ "keyfile-dir",
	  0,
	  0,
	  G_OPTION_ARG_FILENAME,
	  &mg_opt_keyfile_dir,
	  N_("With --boot: NetworkManager's keyfile directory "
	     "(default /etc/NetworkManager/system-connections)"),
	  "DIR" },
	{ "nm-conf-dir",
	  0,
	  0,
	  G_OPTION_ARG_FILENAME,
	  &mg_opt_nm_conf_dir,
	  N_("Where NetworkManager reads the first-contact defaults macguise writes "
	     "(default /run/NetworkManager/conf.d)"),
	  "DIR" },
	{ "nm-state-dir",
	  0,
	  0,
	  G_OPTION_ARG_FILENAME,
	  &mg_opt_nm_state_dir,
	  N_("Where NetworkManager keeps its DHCP leases; a profile given a new address "
	     "forgets its lease there (default /var/lib/NetworkManager)"),
	  "DIR" },
	{ NULL },
};

static gboolean
mg_parse_options(int *argc, char ***argv, GError **error)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new(NULL);

	g_option_context_set_translation_domain(ctx, GETTEXT_PACKAGE);
	g_option_context_set_summary(
	    ctx,
	    _("Keep a plausible, rotating MAC address in every managed NetworkManager profile.\n"
	      "State: $STATE_DIRECTORY or /var/lib/macguise. "
	      "Configuration: $CONFIGURATION_DIRECTORY/macguise.conf or "
	      "/etc/macguise/macguise.conf. "
	      "Link-check index: $RUNTIME_DIRECTORY or /run/macguise."));
	g_option_context_add_main_entries(ctx, mg_option_entries, GETTEXT_PACKAGE);
	return g_option_context_parse(ctx, argc, argv, error);
}

/* @given, or @fallback when none was given, as an absolute path: libnm
 * reads a keyfile only from an absolute directory, and a path given
 * relative means the one from here. */
static char *
mg_absolute_dir(const char *given, const char *fallback)
{
	return g_canonicalize_filename(given != NULL ? given : fallback, NULL);
}

static int
mg_run_boot(const char *state_dir, const char *config_path)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *keyfile_dir =
	    mg_absolute_dir(mg_opt_keyfile_dir, MG_BOOT_DEFAULT_KEYFILE_DIR);
	g_autofree char *nm_conf_dir =
	    mg_absolute_dir(mg_opt_nm_conf_dir, MG_BOOT_DEFAULT_NM_CONF_DIR);
	g_autofree char *nm_state_dir =
	    mg_absolute_dir(mg_opt_nm_state_dir, MG_NM_DEFAULT_STATE_DIR);
	MgBootResult result;
	const MgBootPaths paths = {
		.keyfile_dir = keyfile_dir,
		.nm_conf_dir = nm_conf_dir,
		.nm_state_dir = nm_state_dir,
		.state_dir = state_dir,
		.config_path = config_path,
	};

	if (!mg_boot_run(&paths, &result, &error)) {
		g_printerr("macguised --boot: %s\n", error->message);
		return 1;
	}
	/* Not a failure: under systemd this is a start outside boot (a unit
	 * pulled in again by hand), and macguised does the job while it runs. */
	if (result.daemon_runs) {
		g_printerr("macguised --boot: %s\n",
			   _("macguised is running and keeps the profiles' addresses itself; the "
			     "boot step changes nothing"));
		return 0;
	}
	g_message("boot step: %u profile(s) given a new address", result.rewritten);
	return 0;
}

static int
mg_run_service(const char *state_dir, const char *config_path)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GMainLoop) loop = NULL;
	g_autoptr(MgService) service = NULL;
	g_autofree char *runtime_dir = mg_runtime_default_dir();
	guint owner;
	/* Held until the process ends, after the last save (see
	 * mg_state_owner_lock()). A boot step still running is waited for: it
	 * ends within seconds, and its new addresses must be loaded. */
	int owner_lock = mg_state_owner_lock(state_dir, TRUE, &error);

	if (owner_lock < 0) {
		g_printerr("macguised: %s\n", error->message);
		return 1;
	}
	service = mg_service_new(state_dir, config_path, runtime_dir, &error);
	if (service == NULL) {
		g_printerr("macguised: %s\n", error->message);
		(void)close(owner_lock);
		return 1;
	}
	if (mg_opt_nm_state_dir != NULL)
		mg_service_set_nm_state_dir(service, mg_opt_nm_state_dir);
	mg_service_keep_first_contact(
	    service, mg_opt_nm_conf_dir != NULL ? mg_opt_nm_conf_dir : MG_BOOT_DEFAULT_NM_CONF_DIR);
	loop = g_main_loop_new(NULL, FALSE);
	g_unix_signal_add(SIGTERM, mg_quit, loop);
	g_unix_signal_add(SIGINT, mg_quit, loop);
	mg_service_start(service);
	owner = mg_dbus_api_own(service, G_CALLBACK(g_main_loop_quit), loop);
	g_main_loop_run(loop);
	g_bus_unown_name(owner);
	mg_service_stop(service);
	g_clear_object(&service); /* its saver thread waited for */
	(void)close(owner_lock);
	return 0;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *state_dir = NULL;
	g_autofree char *config_path = NULL;
	int status;

	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE, LOCALEDIR);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);

	if (!mg_parse_options(&argc, &argv, &error)) {
		g_printerr("macguised: %s\n", error->message);
		return 2;
	}
	if (mg_opt_version) {
		g_print("macguised %s\n", PACKAGE_VERSION);
		return 0;
	}
	/* Addresses appear in plain text only at debug level. */
	if (mg_opt_debug)
		g_log_set_debug_enabled(TRUE);

	state_dir = mg_state_default_dir();
	config_path = mg_config_default_path();
	status = mg_opt_boot ? mg_run_boot(state_dir, config_path)
			     : mg_run_service(state_dir, config_path);
	g_free(mg_opt_keyfile_dir);
	g_free(mg_opt_nm_conf_dir);
	g_free(mg_opt_nm_state_dir);
	return status;
}
