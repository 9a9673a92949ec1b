/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The configuration files as the commands read them, and the lines left
 * out of them told to people and to scripts (FreedomBox's page shows them). */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include "mg-cli-config.h"

#include <glib/gi18n.h>

#include "mg-cli.h"

void
mg_cli_config_load(MgConfig *config, GPtrArray *problems)
{
	g_autofree char *path = mg_config_default_path();

	mg_config_init_default(config);
	mg_config_load_files(config, path, problems);
}

void
mg_cli_config_problems_print(const char *command, GPtrArray *problems)
{
	for (guint i = 0; i < problems->len; i++) {
		g_autofree char *text = mg_config_problem_format(g_ptr_array_index(problems, i));
		g_printerr("macguise %s: ", command);
		/* TRANSLATORS: %s is FILE:LINE: what is wrong with that line */
		g_printerr(_("%s (the rest of the configuration applies)"), text);
		g_printerr("\n");
	}
}

JsonArray *
mg_cli_config_problems_json(GPtrArray *problems)
{
	JsonArray *list = json_array_new();

	for (guint i = 0; i < problems->len; i++) {
		const MgConfigProblem *p = g_ptr_array_index(problems, i);
		JsonObject *o = json_object_new();
		json_object_set_string_member(o, "file", p->path);
		json_object_set_int_member(o, "line", p->line);
		mg_cli_json_set_string_or_null(o, "section", p->section);
		mg_cli_json_set_string_or_null(o, "key", p->key);
		json_object_set_string_member(o, "message", p->message);
		json_array_add_object_element(list, o);
	}
	return list;
}
