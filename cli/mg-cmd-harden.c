/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise harden: writes back the fixes `audit` names (mg-cmd-audit.c),
 * or with --dry-run says which it would write. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>

#include "mg-cli-audit.h"
#include "mg-cli-nm.h"
#include "mg-cli.h"
#include "mg-error.h"
#include "mg-harden.h"
#include "mg-profile.h"

/* The findings of @findings that are (@advice FALSE) or are not fixes, as JSON. */
static JsonArray *
mg_harden_findings_json(GPtrArray *findings, gboolean advice)
{
	JsonArray *list = json_array_new();

	for (guint j = 0; j < findings->len; j++) {
		const MgFinding *f = g_ptr_array_index(findings, j);
		if (f->advice == advice)
			json_array_add_object_element(list, mg_finding_json(f));
	}
	return list;
}

static void
mg_harden_print(NMConnection *c, GPtrArray *findings, guint fixes, gboolean dry_run)
{
	if (dry_run)
		g_print(g_dngettext(GETTEXT_PACKAGE,
				    "%s: %u fix would be applied\n",
				    "%s: %u fixes would be applied\n",
				    fixes),
			nm_connection_get_id(c),
			fixes);
	else
		g_print(
		    g_dngettext(
			GETTEXT_PACKAGE, "%s: %u fix applied\n", "%s: %u fixes applied\n", fixes),
		    nm_connection_get_id(c),
		    fixes);
	for (guint j = 0; j < findings->len; j++) {
		const MgFinding *f = g_ptr_array_index(findings, j);
		if (!f->advice && dry_run)
			g_print(_("  Would fix: %s\n"), f->message);
		else if (f->advice)
			g_print(_("  Left to you: %s\n    %s\n"), f->message, f->fix);
	}
}

/* One profile: its fixes, and macguise.harden=yes, written unless
 * @dry_run; FALSE if NetworkManager refused. Its JSON goes into @list. */
static gboolean
mg_harden_profile(
    MgCliState *st, NMRemoteConnection *rc, gboolean dry_run, gboolean json, JsonArray *list)
{
	g_autoptr(NMConnection) copy = nm_simple_connection_new_clone(NM_CONNECTION(rc));
	g_autoptr(GPtrArray) findings = mg_audit_connection(st, copy);
	g_autoptr(GError) error = NULL;
	MgFinding harden = { "harden", MG_SEVERITY_LOW, NULL, "macguise.harden", "yes",
			     NULL,     FALSE,           NULL };
	JsonObject *o = json_object_new();
	guint fixes = 0;

	for (guint j = 0; j < findings->len; j++) {
		const MgFinding *f = g_ptr_array_index(findings, j);
		if (!f->advice) {
			mg_harden_apply(copy, f);
			fixes++;
		}
	}
	mg_harden_apply(copy, &harden);
	json_object_set_string_member(o, "id", nm_connection_get_id(copy));
	json_object_set_string_member(o, "uuid", nm_connection_get_uuid(copy));
	json_object_set_array_member(o, "fixes", mg_harden_findings_json(findings, FALSE));
	json_object_set_array_member(o, "advice", mg_harden_findings_json(findings, TRUE));
	json_array_add_object_element(list, o);
	if (!dry_run && !mg_cli_update_profile(rc, copy, &error)) {
		JsonObject *e = json_object_new();
		json_object_set_string_member(e, "id", mg_error_id(error));
		json_object_set_string_member(e, "message", error->message);
		json_object_set_object_member(o, "error", e);
		json_object_set_boolean_member(o, "written", FALSE);
		if (!json)
			g_printerr("macguise harden: %s\n", error->message);
		return FALSE;
	}
	json_object_set_boolean_member(o, "written", !dry_run);
	if (!json)
		mg_harden_print(copy, findings, fixes, dry_run);
	return TRUE;
}

int
mg_cmd_harden(int argc, char **argv)
{
	gboolean all = FALSE, dry_run = FALSE, json = FALSE;
	const GOptionEntry entries[] = {
		{ "all",
		  'a',
		  0,
		  G_OPTION_ARG_NONE,
		  &all,
		  N_("Every Ethernet and Wi-Fi profile"),
		  NULL },
		{ "dry-run",
		  'n',
		  0,
		  G_OPTION_ARG_NONE,
		  &dry_run,
		  N_("Say what would be fixed, and change nothing"),
		  NULL },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
		{ NULL },
	};
	g_autoptr(NMClient) client = NULL;
	g_autoptr(GPtrArray) profiles = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) root = json_node_new(JSON_NODE_OBJECT);
	JsonObject *o = json_object_new();
	JsonArray *list = json_array_new();
	JsonArray *global = json_array_new();
	g_autoptr(GPtrArray) global_findings = NULL;
	int status = MG_EXIT_OK;
	MgCliState st;

	json_node_take_object(root, o);
	if (!mg_cli_parse_options(
		"harden",
		_("PROFILE…|--all"),
		_("Apply every fix `macguise audit` names, and macguise.harden=yes."),
		entries,
		&argc,
		&argv))
		return MG_EXIT_USAGE;
	if (all == (argc > 1))
		return mg_cli_usage_error("harden", _("name profiles or say --all, not both"));
	if (!dry_run && !mg_cli_lock_profiles(&error))
		return mg_cli_failure("harden", error);
	status = mg_cli_open("harden", all ? NULL : argv + 1, &client, &profiles);
	if (status != MG_EXIT_OK)
		return status;
	mg_cli_state_load(&st);
	for (guint i = 0; i < profiles->len; i++) {
		if (!mg_harden_profile(&st, g_ptr_array_index(profiles, i), dry_run, json, list))
			status = MG_EXIT_FAILURE;
	}
	global_findings = mg_audit_global(client, TRUE);
	for (guint i = 0; i < global_findings->len; i++) {
		const MgFinding *f = g_ptr_array_index(global_findings, i);
		json_array_add_object_element(global, mg_finding_json(f));
		if (!json)
			g_print(_("Not changed, as it is set for the whole machine: %s\n  %s\n"),
				f->message,
				f->fix);
	}
	json_object_set_boolean_member(o, "dry_run", dry_run);
	json_object_set_array_member(o, "profiles", list);
	json_object_set_array_member(o, "global", global);
	if (json)
		mg_cli_print_json(root);
	mg_cli_state_clear(&st);
	return status;
}
