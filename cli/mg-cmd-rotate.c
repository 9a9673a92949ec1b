/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise rotate: ask macguised for new addresses now. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>

#include "mg-cli-nm.h"
#include "mg-cli.h"

int
mg_cmd_rotate(int argc, char **argv)
{
	gboolean all = FALSE;
	gboolean now = FALSE;
	const GOptionEntry entries[] = {
		{ "all", 'a', 0, G_OPTION_ARG_NONE, &all, N_("Every managed profile"), NULL },
		{ "now",
		  0,
		  0,
		  G_OPTION_ARG_NONE,
		  &now,
		  N_("Re-activate a live connection with its new address at once, instead of "
		     "giving it the address when it next goes down"),
		  NULL },
		{ NULL },
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(NMClient) client = NULL;
	g_autoptr(GPtrArray) profiles = NULL;
	int status = MG_EXIT_OK;

	if (!mg_cli_parse_options("rotate",
				  _("[PROFILE…|--all]"),
				  _("Give profiles a new address now (this needs root)."),
				  entries,
				  &argc,
				  &argv))
		return MG_EXIT_USAGE;
	if (all == (argc > 1))
		return mg_cli_usage_error("rotate", _("name profiles or say --all, not both"));
	if (all) {
		g_autoptr(GVariant) ret = mg_cli_daemon_call(
		    "Rotate", g_variant_new("(sb)", "", now), "(u)", TRUE, &error);
		guint n = 0;
		if (ret == NULL)
			return mg_cli_failure("rotate", error);
		g_variant_get(ret, "(u)", &n);
		g_print(g_dngettext(
			    GETTEXT_PACKAGE, "%u profile rotated\n", "%u profiles rotated\n", n),
			n);
		return MG_EXIT_OK;
	}
	if (!mg_cli_open("rotate", argv + 1, &client, &profiles))
		return MG_EXIT_FAILURE;
	for (guint i = 0; i < profiles->len; i++) {
		NMConnection *c = g_ptr_array_index(profiles, i);
		g_autoptr(GVariant) ret =
		    mg_cli_daemon_call("Rotate",
				       g_variant_new("(sb)", nm_connection_get_uuid(c), now),
				       "(u)",
				       TRUE,
				       &error);
		guint n = 0;
		if (ret == NULL)
			return mg_cli_failure("rotate", error);
		g_variant_get(ret, "(u)", &n);
		if (n == 0) {
			g_printerr(_("macguise rotate: %s: not rotated: macguise leaves it alone "
				     "(mode off, or its address was set by hand)\n"),
				   nm_connection_get_id(c));
			status = MG_EXIT_FAILURE;
		} else if (mg_cli_profile_is_active(client, c) && !now) {
			g_print(_("%s: a new address when it next goes down (--now re-activates "
				  "it)\n"),
				nm_connection_get_id(c));
		} else {
			g_print(_("%s: a new address\n"), nm_connection_get_id(c));
		}
	}
	return status;
}
