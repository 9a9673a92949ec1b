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
	g_print(
	    _("\nOptions:\n  --version  Print the version and exit\n  -h, --help Show this help\n"
	      "  -t, -f FIELDS, -g FIELDS, -e yes|no\n"
	      "             For scripts, as nmcli: before or after the command (status)\n"));
	g_print(_("\nRun 'macguise COMMAND --help' for a command's options.\n"
		  "Exit status: 0 success, 1 failure, 2 usage error, 8 NetworkManager not "
		  "running,\n10 no such profile.\n"));
}

/* How many arguments the output option at @arg takes up (nmcli puts -t, -f,
 * -g and -e before the command: so may macguise), or 0 for none. */
static int
mg_output_option_length(const char *arg)
{
	static const char *const with_value[] = { "-f",           "--fields", "-g",
						  "--get-values", "-e",       "--escape" };

	if (g_str_equal(arg, "-t") || g_str_equal(arg, "--terse") ||
	    g_str_has_prefix(arg, "--fields=") || g_str_has_prefix(arg, "--get-values=") ||
	    g_str_has_prefix(arg, "--escape="))
		return 1;
	for (guint i = 0; i < G_N_ELEMENTS(with_value); i++)
		if (g_str_equal(arg, with_value[i]))
			return 2;
	return 0;
}

/* argv[0], the command at @command, @moved, then what followed the command. */
static char **
mg_reorder(int argc, char **argv, int command, GPtrArray *moved)
{
	char **out = g_new0(char *, argc + 1);
	int o = 0;

	out[o++] = argv[0];
	out[o++] = argv[command];
	for (guint k = 0; k < moved->len; k++)
		out[o++] = g_ptr_array_index(moved, k);
	for (int k = command + 1; k < argc; k++)
		out[o++] = argv[k];
	return out;
}

/* "macguise -t -f id status …" becomes "macguise status -t -f id …": the
 * command's own options, which it checks. FALSE for an option that is not
 * one of them, or one without its value or a command after it. */
static gboolean
mg_move_leading_options(int *argc, char ***argv)
{
	g_autoptr(GPtrArray) moved = g_ptr_array_new();
	int i = 1;

	while (i < *argc && (*argv)[i][0] == '-') {
		int n = mg_output_option_length((*argv)[i]);
		if (n == 0) {
			g_printerr(_("macguise: '%s' is not an option macguise takes before the "
				     "command (see 'macguise --help')\n"),
				   (*argv)[i]);
			return FALSE;
		}
		if (i + n >= *argc) {
			g_printerr(_("macguise: '%s' wants its value, and a command after it (see "
				     "'macguise --help')\n"),
				   (*argv)[i]);
			return FALSE;
		}
		for (int k = 0; k < n; k++)
			g_ptr_array_add(moved, (*argv)[i + k]);
		i += n;
	}
	if (moved->len > 0)
		*argv = mg_reorder(*argc, *argv, i, moved); /* kept for the process's life */
	return TRUE;
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
	if (!mg_move_leading_options(&argc, &argv))
		return MG_EXIT_USAGE;
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
