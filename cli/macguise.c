/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise: the command-line face of macguise. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "mg-cli.h"

static const MgCliCommand mg_commands[] = {
	{ "status", mg_cmd_status, N_("Show what macguise does with each profile") },
	{ "policy", mg_cmd_policy, N_("Show or set a profile's macguise settings") },
	{ "rotate", mg_cmd_rotate, N_("Give profiles a new address now") },
	{ "audit", mg_cmd_audit, N_("List what still links you across addresses") },
	{ "harden", mg_cmd_harden, N_("Apply the fixes audit names") },
	{ "defaults", mg_cmd_defaults, N_("Show or set what every profile of a class inherits") },
	{ "generate", mg_cmd_generate, N_("Print plausible MAC addresses from the catalogue") },
	{ "lookup", mg_cmd_lookup, N_("Tell the vendor, classes and era of addresses") },
	{ "vendors", mg_cmd_vendors, N_("List the vendor catalogue with weights and sources") },
};

static void
mg_print_help(void)
{
	g_print(_("Usage: macguise COMMAND [OPTION…]\n\n"
		  "Give every NetworkManager profile its own plausible MAC address.\n\n"
		  "Commands:\n"));
	for (guint i = 0; i < G_N_ELEMENTS(mg_commands); i++)
		g_print("  %-10s %s\n", mg_commands[i].name, _(mg_commands[i].summary));
	g_print(_(
	    "\nOptions:\n  --version  Print the version and exit\n  -h, --help Show this help\n"));
	g_print(_("\nRun 'macguise COMMAND --help' for a command's options.\n"
		  "Exit status: 0 success, 1 failure, 2 usage error, 8 NetworkManager not "
		  "running,\n10 no such profile.\n"));
}

int
main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE, LOCALEDIR);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);

	if (argc < 2) {
		mg_print_help();
		return MG_EXIT_USAGE;
	}
	if (g_strcmp0(argv[1], "--help") == 0 || g_strcmp0(argv[1], "-h") == 0 ||
	    g_strcmp0(argv[1], "help") == 0) {
		mg_print_help();
		return MG_EXIT_OK;
	}
	if (g_strcmp0(argv[1], "--version") == 0) {
		g_print("macguise %s\n", PACKAGE_VERSION);
		return MG_EXIT_OK;
	}
	for (int i = 2; i < argc && g_strcmp0(argv[i], "--") != 0; i++) {
		if (g_str_equal(argv[i], "--json"))
			mg_cli_set_json_errors(TRUE);
	}
	for (guint i = 0; i < G_N_ELEMENTS(mg_commands); i++) {
		if (g_strcmp0(argv[1], mg_commands[i].name) == 0)
			return mg_commands[i].run(argc - 1, argv + 1);
	}
	g_printerr(_("macguise: unknown command '%s' (see 'macguise --help')\n"), argv[1]);
	return MG_EXIT_USAGE;
}
