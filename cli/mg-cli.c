/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include "mg-cli.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "mg-error.h"

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

int
mg_cli_failure(const char *command, const GError *error)
{
	g_printerr("macguise %s: %s\n", command, error->message);
	if (mg_cli_json_errors)
		mg_cli_print_json_error(command, mg_error_id(error), error->message);
	return MG_EXIT_FAILURE;
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
