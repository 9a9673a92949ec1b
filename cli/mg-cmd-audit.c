/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise audit: what still links a person across a profile's addresses
 * (core/mg-audit.c decides; this reads the settings out of NetworkManager).
 * mg-cmd-harden.c writes the fixes back. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>

#include "mg-audit-read.h"
#include "mg-audit.h"
#include "mg-cli-audit.h"
#include "mg-cli-nm.h"
#include "mg-cli.h"
#include "mg-harden.h"
#include "mg-nm-conf.h"
#include "mg-profile.h"

/* Whether NetworkManager scans with the card's own address. */
gboolean
mg_scan_randomization_off(void)
{
	g_autofree char *v = mg_nm_conf_value("device", "wifi.scan-rand-mac-address", FALSE);

	return v != NULL && (g_ascii_strcasecmp(v, "no") == 0 ||
			     g_ascii_strcasecmp(v, "false") == 0 || g_strcmp0(v, "0") == 0);
}

/* NetworkManager's log level as it runs now (it can be changed at run
 * time), or NULL when it does not say. */
static char *
mg_nm_logging_level(NMClient *client)
{
	g_autoptr(GVariant) reply = NULL;
	const char *level = NULL;

	reply = g_dbus_connection_call_sync(nm_client_get_dbus_connection(client),
					    NM_DBUS_SERVICE,
					    NM_DBUS_PATH,
					    NM_DBUS_INTERFACE,
					    "GetLogging",
					    NULL,
					    G_VARIANT_TYPE("(ss)"),
					    G_DBUS_CALL_FLAGS_NONE,
					    MG_CLI_CALL_TIMEOUT_MS,
					    NULL,
					    NULL);
	if (reply == NULL)
		return NULL;
	g_variant_get(reply, "(&s&s)", &level, NULL);
	return g_strdup(level);
}

GPtrArray *
mg_audit_global(NMClient *client, gboolean wifi)
{
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)mg_finding_free);
	g_autofree char *level = mg_nm_logging_level(client);
	MgFinding *logging = mg_audit_nm_logging(level);

	if (wifi && mg_scan_randomization_off())
		g_ptr_array_add(out, mg_audit_scan_randomization());
	if (mg_avahi_running())
		g_ptr_array_add(out, mg_audit_avahi());
	if (logging != NULL)
		g_ptr_array_add(out, logging);
	return out;
}

/* The profile's findings under the policy in effect. */
GPtrArray *
mg_audit_connection(MgCliState *st, NMConnection *c)
{
	const MgProfileState *p = mg_state_get_profile(st->state, nm_connection_get_uuid(c));
	MgDeviceClass device_class = mg_profile_class(c);
	const char *cloned = mg_profile_cloned_mac(c, device_class);
	g_auto(MgPolicy) policy = { 0 };
	MgMac mac;
	gboolean owned = (p != NULL && p->user_owned) || (cloned != NULL && cloned[0] != '\0' &&
							  !mg_mac_parse(cloned, &mac, NULL) &&
							  !mg_profile_is_released(c, device_class));

	mg_profile_policy_full(&st->config, mg_cli_catalogue(NULL), c, device_class, &policy, NULL);
	return mg_audit_read_profile(c, &policy, owned, p != NULL && p->recognised_at != 0);
}

JsonObject *
mg_finding_json(const MgFinding *f)
{
	JsonObject *o = json_object_new();
	json_object_set_string_member(o, "id", f->id);
	json_object_set_string_member(o, "severity", mg_severity_to_string(f->severity));
	json_object_set_string_member(o, "message", f->message);
	json_object_set_string_member(o, "setting", f->setting);
	json_object_set_string_member(o, "value", f->value);
	json_object_set_string_member(o, "fix", f->fix);
	json_object_set_boolean_member(o, "advice", f->advice);
	return o;
}

void
mg_finding_print(const MgFinding *f)
{
	/* TRANSLATORS: severities, as `macguise audit` shows them */
	const char *sev = f->severity == MG_SEVERITY_HIGH     ? C_("severity", "high")
			  : f->severity == MG_SEVERITY_MEDIUM ? C_("severity", "medium")
							      : C_("severity", "low");
	g_print("  %-7s %s\n", sev, f->message);
	/* Advice is the user's to take; harden leaves it alone. */
	g_print("  %-7s %s %s\n", "", f->advice ? _("suggestion:") : _("fix:"), f->fix);
}

int
mg_cmd_audit(int argc, char **argv)
{
	gboolean json = FALSE;
	const GOptionEntry entries[] = {
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON object"), NULL },
		{ NULL },
	};
	g_autoptr(NMClient) client = NULL;
	g_autoptr(GPtrArray) profiles = NULL;
	g_autoptr(JsonObject) root = json_object_new();
	JsonArray *list = json_array_new();
	JsonArray *global = json_array_new();
	g_autoptr(GPtrArray) global_findings = NULL;
	gboolean any_wifi = FALSE;
	MgCliState st;
	int status;

	if (!mg_cli_parse_options(
		"audit",
		_("[PROFILE…]"),
		_("List what still links you across addresses, per profile, with the command "
		  "that fixes each finding."),
		entries,
		&argc,
		&argv))
		return MG_EXIT_USAGE;
	status = mg_cli_open("audit", argv + 1, &client, &profiles);
	if (status != MG_EXIT_OK)
		return status;
	mg_cli_state_load(&st);

	for (guint i = 0; i < profiles->len; i++) {
		NMConnection *c = g_ptr_array_index(profiles, i);
		g_autoptr(GPtrArray) findings = mg_audit_connection(&st, c);
		JsonObject *o = json_object_new();
		JsonArray *fl = json_array_new();
		gboolean kept = mg_harden_is_kept(c);
		any_wifi |= mg_profile_class(c) == MG_DEVICE_CLASS_WIFI;
		json_object_set_string_member(o, "id", nm_connection_get_id(c));
		json_object_set_string_member(o, "uuid", nm_connection_get_uuid(c));
		for (guint j = 0; j < findings->len; j++)
			json_array_add_object_element(
			    fl, mg_finding_json(g_ptr_array_index(findings, j)));
		json_object_set_array_member(o, "findings", fl);
		json_object_set_boolean_member(o, "kept_hardened", kept);
		json_array_add_object_element(list, o);
		if (!json) {
			g_print("%s\n", nm_connection_get_id(c));
			if (kept)
				g_print("  %s\n",
					_("kept hardened (macguise.harden=yes): macguised writes "
					  "harden's fixes back when something undoes them"));
			if (findings->len == 0)
				g_print("  %s\n", _("nothing found"));
			for (guint j = 0; j < findings->len; j++)
				mg_finding_print(g_ptr_array_index(findings, j));
		}
	}
	global_findings = mg_audit_global(client, any_wifi);
	for (guint i = 0; i < global_findings->len; i++) {
		const MgFinding *f = g_ptr_array_index(global_findings, i);
		json_array_add_object_element(global, mg_finding_json(f));
		if (!json) {
			if (i == 0)
				g_print("%s\n", _("NetworkManager (every profile)"));
			mg_finding_print(f);
		}
	}
	json_object_set_array_member(root, "profiles", list);
	json_object_set_array_member(root, "global", global);
	if (json) {
		g_autoptr(JsonNode) node = json_node_new(JSON_NODE_OBJECT);
		json_node_set_object(node, root);
		mg_cli_print_json(node);
	}
	mg_cli_state_clear(&st);
	return MG_EXIT_OK;
}
