/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise audit: what still links a person across a profile's addresses
 * (core/mg-audit.c decides; this reads the settings out of NetworkManager).
 * mg-cmd-harden.c writes the fixes back. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mg-audit.h"
#include "mg-cli-audit.h"
#include "mg-cli-nm.h"
#include "mg-cli.h"
#include "mg-profile.h"

/* NetworkManager's configuration, in the order it reads it; the files in a
 * directory in name order, later ones winning. MACGUISE_NM_CONF (a
 * ':'-separated list of files and directories) replaces it, for an image
 * being built or a NetworkManager started with other paths. */
static const char *const mg_nm_conf_default[] = {
	"/usr/lib/NetworkManager/conf.d",
	"/run/NetworkManager/conf.d",
	"/etc/NetworkManager/NetworkManager.conf",
	"/etc/NetworkManager/conf.d",
	NULL,
};

static void
mg_scan_rand_from_file(const char *path, gboolean *off)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_auto(GStrv) groups = NULL;

	if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL))
		return;
	groups = g_key_file_get_groups(kf, NULL);
	for (guint i = 0; groups[i] != NULL; i++) {
		g_autofree char *v = NULL;
		if (g_strcmp0(groups[i], "device") != 0 && !g_str_has_prefix(groups[i], "device-"))
			continue;
		v = g_key_file_get_value(kf, groups[i], "wifi.scan-rand-mac-address", NULL);
		if (v != NULL)
			*off = g_ascii_strcasecmp(v, "no") == 0 ||
			       g_ascii_strcasecmp(v, "false") == 0 || g_strcmp0(v, "0") == 0;
	}
}

static int
mg_strcmp_ptr(gconstpointer a, gconstpointer b)
{
	return g_strcmp0(*(const char *const *)a, *(const char *const *)b);
}

/* Whether NetworkManager scans with the card's own address. */
gboolean
mg_scan_randomization_off(void)
{
	const char *env = g_getenv("MACGUISE_NM_CONF");
	g_auto(GStrv) from_env = env != NULL ? g_strsplit(env, ":", -1) : NULL;
	const char *const *places =
	    from_env != NULL ? (const char *const *)from_env : mg_nm_conf_default;
	gboolean off = FALSE;

	for (guint i = 0; places[i] != NULL; i++) {
		g_autoptr(GDir) dir = g_dir_open(places[i], 0, NULL);
		g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
		const char *name;
		if (dir == NULL) {
			mg_scan_rand_from_file(places[i], &off);
			continue;
		}
		while ((name = g_dir_read_name(dir)) != NULL) {
			if (g_str_has_suffix(name, ".conf"))
				g_ptr_array_add(names, g_build_filename(places[i], name, NULL));
		}
		g_ptr_array_sort(names, mg_strcmp_ptr);
		for (guint j = 0; j < names->len; j++)
			mg_scan_rand_from_file(g_ptr_array_index(names, j), &off);
	}
	return off;
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
	if (logging != NULL)
		g_ptr_array_add(out, logging);
	return out;
}

/* Anyone in range can join: no security, or Enhanced Open (OWE), which
 * encrypts but lets every station in. */
static gboolean
mg_hotspot_is_open(NMConnection *c)
{
	NMSettingWirelessSecurity *sec = nm_connection_get_setting_wireless_security(c);
	return sec == NULL || g_strcmp0(nm_setting_wireless_security_get_key_mgmt(sec), "owe") == 0;
}

/* @ssid_utf8 keeps the SSID text that @in points to. */
static void
mg_audit_input(NMConnection *c,
	       const MgPolicy *policy,
	       gboolean user_owned,
	       MgAuditInput *in,
	       char **ssid_utf8)
{
	NMSettingIPConfig *ip4 = nm_connection_get_setting_ip4_config(c);
	NMSettingIPConfig *ip6 = nm_connection_get_setting_ip6_config(c);
	NMSettingWireless *wifi = nm_connection_get_setting_wireless(c);

	memset(in, 0, sizeof(*in));
	in->id = nm_connection_get_id(c);
	in->device_class = mg_profile_class(c);
	in->mode = policy->mode;
	in->rotate = policy->rotate;
	*ssid_utf8 = NULL;
	if (in->device_class == MG_DEVICE_CLASS_AP && wifi != NULL) {
		GBytes *ssid = nm_setting_wireless_get_ssid(wifi);
		if (ssid != NULL) {
			gsize len = 0;
			const guint8 *data = g_bytes_get_data(ssid, &len);
			*ssid_utf8 = nm_utils_ssid_to_utf8(data, len);
		}
		in->ssid = *ssid_utf8;
		in->open = mg_hotspot_is_open(c);
	}
	in->harden = policy->harden;
	in->user_owned = user_owned;
	in->cloned = mg_profile_cloned_mac(c, in->device_class);
	in->addr_gen_mode = MG_ADDR_GEN_DEFAULT;
	in->ip6_privacy = -1;
	if (ip4 != NULL) {
		in->ipv4_method = nm_setting_ip_config_get_method(ip4);
		in->dhcp_client_id =
		    nm_setting_ip4_config_get_dhcp_client_id(NM_SETTING_IP4_CONFIG(ip4));
		in->dhcp4_send_hostname = nm_setting_ip_config_get_dhcp_send_hostname(ip4);
	}
	if (ip6 != NULL) {
		in->ipv6_method = nm_setting_ip_config_get_method(ip6);
		in->addr_gen_mode =
		    (int)nm_setting_ip6_config_get_addr_gen_mode(NM_SETTING_IP6_CONFIG(ip6));
		in->ip6_privacy =
		    (int)nm_setting_ip6_config_get_ip6_privacy(NM_SETTING_IP6_CONFIG(ip6));
		in->dhcp_duid = nm_setting_ip6_config_get_dhcp_duid(NM_SETTING_IP6_CONFIG(ip6));
		in->dhcp6_send_hostname = nm_setting_ip_config_get_dhcp_send_hostname(ip6);
	}
}

/* The profile's findings under the policy in effect. */
GPtrArray *
mg_audit_connection(MgCliState *st, NMConnection *c)
{
	const MgProfileState *p = mg_state_get_profile(st->state, nm_connection_get_uuid(c));
	MgDeviceClass device_class = mg_profile_class(c);
	const char *cloned = mg_profile_cloned_mac(c, device_class);
	g_autofree char *ssid = NULL;
	MgAuditInput in;
	g_auto(MgPolicy) policy = { 0 };
	GPtrArray *findings;
	MgMac mac;
	gboolean owned = (p != NULL && p->user_owned) ||
			 (cloned != NULL && cloned[0] != '\0' && !mg_mac_parse(cloned, &mac, NULL));

	mg_profile_policy_full(&st->config, mg_cli_catalogue(NULL), c, device_class, &policy, NULL);
	mg_audit_input(c, &policy, owned, &in, &ssid);
	in.recognised = p != NULL && p->recognised_at != 0;
	findings = mg_audit_profile(&in);
	return findings;
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

	if (!mg_cli_parse_options(
		"audit",
		_("[PROFILE…]"),
		_("List what still links you across addresses, per profile, with the command "
		  "that fixes each finding."),
		entries,
		&argc,
		&argv))
		return MG_EXIT_USAGE;
	if (!mg_cli_open("audit", argv + 1, &client, &profiles))
		return MG_EXIT_FAILURE;
	mg_cli_state_load(&st);

	for (guint i = 0; i < profiles->len; i++) {
		NMConnection *c = g_ptr_array_index(profiles, i);
		g_autoptr(GPtrArray) findings = mg_audit_connection(&st, c);
		JsonObject *o = json_object_new();
		JsonArray *fl = json_array_new();
		any_wifi |= mg_profile_class(c) == MG_DEVICE_CLASS_WIFI;
		json_object_set_string_member(o, "id", nm_connection_get_id(c));
		json_object_set_string_member(o, "uuid", nm_connection_get_uuid(c));
		for (guint j = 0; j < findings->len; j++)
			json_array_add_object_element(
			    fl, mg_finding_json(g_ptr_array_index(findings, j)));
		json_object_set_array_member(o, "findings", fl);
		json_array_add_object_element(list, o);
		if (!json) {
			g_print("%s\n", nm_connection_get_id(c));
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
