/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include "mg-cli.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "mg-error.h"
#include "mg-policy.h"

static gboolean mg_cli_json_errors;

void
mg_cli_set_json_errors(gboolean json)
{
	mg_cli_json_errors = json;
}

/* With --json, an error is also a JSON object on standard output:
 * {"error": {"id": …, "command": …, "message": …}}, the id a stable word
 * (mg_error_id), the message translated. */
static void
mg_cli_print_json_error(const char *command, const char *id, const char *message)
{
	g_autoptr(JsonNode) root = json_node_new(JSON_NODE_OBJECT);
	JsonObject *o = json_object_new();
	JsonObject *e = json_object_new();

	json_object_set_string_member(e, "id", id);
	json_object_set_string_member(e, "command", command);
	json_object_set_string_member(e, "message", message);
	json_object_set_object_member(o, "error", e);
	json_node_take_object(root, o);
	mg_cli_print_json(root);
}

int
mg_cli_usage_error(const char *command, const char *format, ...)
{
	va_list args;
	g_autofree char *msg = NULL;

	va_start(args, format);
	msg = g_strdup_vprintf(format, args);
	va_end(args);
	/* TRANSLATORS: the first %s is a command name such as "generate" */
	g_printerr(_("macguise %s: %s (see 'macguise %s --help')\n"), command, msg, command);
	if (mg_cli_json_errors)
		mg_cli_print_json_error(command, "usage", msg);
	return MG_EXIT_USAGE;
}

static int
mg_cli_exit_status(const GError *error)
{
	if (g_error_matches(error, MG_ERROR, MG_ERROR_NM_NOT_RUNNING))
		return MG_EXIT_NM_NOT_RUNNING;
	if (g_error_matches(error, MG_ERROR, MG_ERROR_NOT_FOUND))
		return MG_EXIT_NOT_FOUND;
	return MG_EXIT_FAILURE;
}

int
mg_cli_failure(const char *command, const GError *error)
{
	g_printerr("macguise %s: %s\n", command, error->message);
	if (mg_cli_json_errors)
		mg_cli_print_json_error(command, mg_error_id(error), error->message);
	return mg_cli_exit_status(error);
}

gboolean
mg_cli_parse_options(const char *command,
		     const char *parameter_string,
		     const char *summary,
		     const GOptionEntry *entries,
		     int *argc,
		     char ***argv)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new(parameter_string);
	g_autoptr(GError) error = NULL;
	g_autofree char *prgname = g_strdup_printf("macguise %s", command);

	g_set_prgname(prgname);
	g_option_context_set_translation_domain(ctx, GETTEXT_PACKAGE);
	g_option_context_set_summary(ctx, summary);
	g_option_context_add_main_entries(ctx, entries, GETTEXT_PACKAGE);
	if (!g_option_context_parse(ctx, argc, argv, &error)) {
		mg_cli_usage_error(command, "%s", error->message);
		return FALSE;
	}
	return TRUE;
}

MgCatalogue *
mg_cli_catalogue(GError **error)
{
	static MgCatalogue *catalogue = NULL;
	if (catalogue == NULL)
		catalogue = mg_catalogue_new_builtin(error);
	return catalogue;
}

gboolean
mg_cli_parse_class(const char *command, const char *text, MgDeviceClass *device_class)
{
	g_autoptr(GError) error = NULL;
	if (!mg_device_class_parse(text, device_class, &error)) {
		mg_cli_usage_error(command, "--class: %s", error->message);
		return FALSE;
	}
	return TRUE;
}

void
mg_cli_print_json(JsonNode *node)
{
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autofree char *text = NULL;

	json_generator_set_pretty(gen, TRUE);
	json_generator_set_root(gen, node);
	text = json_generator_to_data(gen, NULL);
	g_print("%s\n", text);
}

void
mg_cli_json_set_string_or_null(JsonObject *o, const char *member, const char *value)
{
	if (value != NULL)
		json_object_set_string_member(o, member, value);
	else
		json_object_set_null_member(o, member);
}

char *
mg_cli_day_text(gint64 when)
{
	g_autoptr(GDateTime) t = g_date_time_new_from_unix_utc(when);
	return t != NULL ? g_date_time_format(t, "%Y-%m-%d") : g_strdup("?");
}

JsonNode *
mg_cli_class_json(MgDeviceClass classes)
{
	JsonArray *arr = json_array_new();
	JsonNode *node = json_node_new(JSON_NODE_ARRAY);

	if (classes & MG_DEVICE_CLASS_WIFI)
		json_array_add_string_element(arr, "wifi");
	if (classes & MG_DEVICE_CLASS_ETHERNET)
		json_array_add_string_element(arr, "ethernet");
	if (classes & MG_DEVICE_CLASS_AP)
		json_array_add_string_element(arr, "ap");
	json_node_take_array(node, arr);
	return node;
}

/* Every KEY=VALUE checked before anything is written. */
gboolean
mg_cli_parse_assignments(
    const char *command, char **args, const char *prefix, GPtrArray *keys, GPtrArray *values)
{
	for (guint i = 0; args[i] != NULL; i++) {
		const char *eq = strchr(args[i], '=');
		g_autofree char *name = NULL;
		g_autoptr(GError) error = NULL;
		g_auto(MgPolicy) scratch = { 0 };

		if (eq == NULL || eq == args[i]) {
			mg_cli_usage_error(command, _("'%s' is not KEY=VALUE"), args[i]);
			return FALSE;
		}
		name = g_strndup(args[i], (gsize)(eq - args[i]));
		if (g_str_has_prefix(name, MG_POLICY_KEY_PREFIX))
			memmove(name,
				name + strlen(MG_POLICY_KEY_PREFIX),
				strlen(name) - strlen(MG_POLICY_KEY_PREFIX) + 1);
		if (!g_strv_contains(mg_policy_names(), name)) {
			g_autofree char *all = g_strjoinv(", ", (char **)mg_policy_names());
			mg_cli_usage_error(command,
					   _("'%s' is not a macguise setting; the settings are %s"),
					   name,
					   all);
			return FALSE;
		}
		g_ptr_array_add(keys, g_strconcat(prefix, name, NULL));
		if (eq[1] == '\0') {
			/* KEY= : back to the default */
			g_ptr_array_add(values, NULL);
			continue;
		}
		mg_policy_init_default(&scratch);
		if (!mg_policy_set(&scratch, name, eq + 1, &error) ||
		    !mg_policy_check_vendors(&scratch, mg_cli_catalogue(NULL), &error)) {
			mg_cli_usage_error(command, "%s", error->message);
			return FALSE;
		}
		g_ptr_array_add(values, mg_policy_get(&scratch, name));
	}
	return TRUE;
}
