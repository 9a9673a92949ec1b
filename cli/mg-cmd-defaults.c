/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise defaults: show or set what every profile of a kind inherits
 * (macguise.conf's [wifi], [ethernet], [ethernet-shared] and [ap]), without
 * editing the file by hand; macguised is told to read it again. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mg-cli-config.h"
#include "mg-cli-nm.h"
#include "mg-cli.h"
#include "mg-config-edit.h"
#include "mg-config.h"
#include "mg-error.h"

static JsonObject *
mg_defaults_json(const MgConfig *config, MgConfigSection section)
{
	const MgPolicy *policy = mg_config_policy_of(config, section);
	const char *const *names = mg_policy_names();
	JsonObject *o = json_object_new();

	for (guint i = 0; names[i] != NULL; i++) {
		g_autofree char *value = NULL;
		if (g_str_equal(names[i], "quiet-hours") && section != MG_CONFIG_SECTION_AP)
			continue;
		value = mg_policy_get(policy, names[i]);
		json_object_set_string_member(o, names[i], value);
	}
	return o;
}

/* The packaged files under the administrator's, as JSON and, for people,
 * one line. */
static JsonArray *
mg_defaults_packaged(gboolean json)
{
	g_autoptr(GPtrArray) files = mg_config_packaged_files();
	JsonArray *list = json_array_new();

	for (guint i = 0; i < files->len; i++) {
		json_array_add_string_element(list, g_ptr_array_index(files, i));
		if (!json)
			/* TRANSLATORS: %s is a file such as
			 * /usr/lib/macguise/conf.d/50-freedombox.conf */
			g_print(_("# packaged defaults, under macguise.conf: %s\n"),
				(const char *)g_ptr_array_index(files, i));
	}
	return list;
}

/* --check: whether every line of the files is used; for scripts and
 * package scripts, by the exit code. */
static int
mg_defaults_check(gboolean json)
{
	g_autoptr(GPtrArray) problems = mg_config_problems_new();
	g_auto(MgConfig) config = { 0 };

	mg_cli_config_load(&config, problems);
	if (json) {
		g_autoptr(JsonObject) root = json_object_new();
		g_autoptr(JsonNode) node = json_node_new(JSON_NODE_OBJECT);
		json_object_set_array_member(
		    root, "problems", mg_cli_config_problems_json(problems));
		json_node_set_object(node, root);
		mg_cli_print_json(node);
	} else {
		mg_cli_config_problems_print("defaults", problems);
	}
	return problems->len == 0 ? MG_EXIT_OK : MG_EXIT_FAILURE;
}

static int
mg_defaults_show(const char *path, gboolean all, MgConfigSection only, gboolean json)
{
	g_autoptr(JsonObject) root = json_object_new();
	g_autoptr(GPtrArray) problems = mg_config_problems_new();
	JsonObject *classes = json_object_new();
	g_auto(MgConfig) config = { 0 };

	mg_cli_config_load(&config, problems);
	json_object_set_string_member(root, "path", path);
	json_object_set_array_member(root, "packaged", mg_defaults_packaged(json));
	json_object_set_array_member(root, "problems", mg_cli_config_problems_json(problems));
	json_object_set_object_member(root, "classes", classes);
	for (guint i = 0; i < MG_CONFIG_SECTION_COUNT; i++) {
		MgConfigSection c = (MgConfigSection)i;
		JsonObject *o;
		GList *members;
		if (!all && c != only)
			continue;
		o = mg_defaults_json(&config, c);
		if (!json) {
			members = json_object_get_members(o);
			g_print("[%s]\n", mg_config_section_name(c));
			for (GList *m = members; m != NULL; m = m->next)
				g_print("  %-12s %s\n",
					(const char *)m->data,
					json_object_get_string_member(o, m->data));
			g_list_free(members);
		}
		json_object_set_object_member(classes, mg_config_section_name(c), o);
	}
	if (json) {
		g_autoptr(JsonNode) node = json_node_new(JSON_NODE_OBJECT);
		json_node_set_object(node, root);
		mg_cli_print_json(node);
	} else {
		mg_cli_config_problems_print("defaults", problems);
	}
	return MG_EXIT_OK;
}

/* The file with every assignment made, or NULL with @error. */
static char *
mg_defaults_edit(
    const char *path, MgConfigSection section, GPtrArray *keys, GPtrArray *values, GError **error)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;

	if (!g_file_get_contents(path, &text, NULL, &local) &&
	    !g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
		g_propagate_error(error, g_steal_pointer(&local));
		return NULL;
	}
	for (guint i = 0; i < keys->len; i++) {
		char *edited = mg_config_edit_default(
		    text, section, g_ptr_array_index(keys, i), g_ptr_array_index(values, i), error);
		if (edited == NULL) {
			g_prefix_error(error, "%s: ", path);
			return NULL;
		}
		g_free(text);
		text = edited;
	}
	return g_steal_pointer(&text);
}

static gboolean
mg_defaults_write(const char *path, const char *text, GError **error)
{
	g_autofree char *dir = g_path_get_dirname(path);

	if (g_mkdir_with_parents(dir, 0755) != 0) {
		int saved = errno;
		g_set_error(error,
			    G_IO_ERROR,
			    g_io_error_from_errno(saved),
			    _("cannot create %s: %s"),
			    dir,
			    g_strerror(saved));
		return FALSE;
	}
	/* Atomic and durable: macguised never reads half a file. */
	return g_file_set_contents_full(path,
					text,
					-1,
					G_FILE_SET_CONTENTS_CONSISTENT |
					    G_FILE_SET_CONTENTS_DURABLE,
					0644,
					error);
}

/* macguised reads the file again; if it is not running, it reads it when
 * it starts. */
static void
mg_defaults_reload(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = mg_cli_daemon_call("Reload", NULL, "()", FALSE, &error);

	if (reply != NULL)
		return;
	/* No system bus to reach is no macguised either. */
	if (g_error_matches(error, MG_ERROR, MG_ERROR_DAEMON_NOT_RUNNING) ||
	    error->domain == G_IO_ERROR)
		g_printerr(_("macguise defaults: macguised is not running; it reads the file when "
			     "it starts\n"));
	else
		g_printerr(_("macguise defaults: macguised did not read the file again: %s\n"),
			   error->message);
}

int
mg_cmd_defaults(int argc, char **argv)
{
	gboolean json = FALSE;
	gboolean check = FALSE;
	const GOptionEntry entries[] = {
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Show as a JSON object"), NULL },
		{ "check",
		  0,
		  0,
		  G_OPTION_ARG_NONE,
		  &check,
		  N_("Name each line of the configuration files that is not used, and exit with 1 "
		     "if there is one"),
		  NULL },
		{ NULL },
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *path = mg_config_default_path();
	g_autofree char *text = NULL;
	MgConfigSection section = MG_CONFIG_SECTION_WIFI;

	if (!mg_cli_parse_options(
		"defaults",
		_("[KIND [KEY=VALUE…]]"),
		_("Show or set the defaults every profile of a kind inherits (wifi, ethernet, "
		  "ethernet-shared for Ethernet profiles that share their connection, or ap), "
		  "kept in macguise.conf; a profile's own settings (macguise policy) override "
		  "them. KEY is mode, rotate, class, vendors, harden or quiet-hours (ap only); "
		  "KEY= returns it to the packaged or built-in default."),
		entries,
		&argc,
		&argv))
		return MG_EXIT_USAGE;
	if (check && argc > 1)
		return mg_cli_usage_error("defaults", _("--check takes no KIND"));
	if (check)
		return mg_defaults_check(json);
	if (argc > 1 && !mg_config_section_parse(argv[1], &section, &error))
		return mg_cli_usage_error("defaults", "%s", error->message);
	if (argc <= 2)
		return mg_defaults_show(path, argc <= 1, section, json);
	if (mg_cli_catalogue(&error) == NULL)
		return mg_cli_failure("defaults", error);
	if (!mg_cli_parse_assignments("defaults", argv + 2, "", keys, values))
		return MG_EXIT_USAGE;
	if (section != MG_CONFIG_SECTION_AP &&
	    g_ptr_array_find_with_equal_func(keys, "quiet-hours", g_str_equal, NULL))
		return mg_cli_usage_error("defaults",
					  _("quiet-hours applies to access points (ap) only"));
	text = mg_defaults_edit(path, section, keys, values, &error);
	if (text == NULL || !mg_defaults_write(path, text, &error))
		return mg_cli_failure("defaults", error);
	mg_defaults_reload();
	return mg_defaults_show(path, FALSE, section, json);
}
