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

/* Anyone in range can join: no security, or Enhanced Open (OWE), which
 * encrypts but lets every station in. */
static gboolean
mg_hotspot_is_open(NMConnection *c)
{
	NMSettingWirelessSecurity *sec = nm_connection_get_setting_wireless_security(c);
	return sec == NULL || g_strcmp0(nm_setting_wireless_security_get_key_mgmt(sec), "owe") == 0;
}

/* NetworkManager 1.52 keeps the choice in dhcp-send-hostname-v2 (nmcli's
 * dhcp-send-hostname), falling back to the old boolean while it is left at
 * default; the libnm the CLI runs with tells whether it has the new one. */
gboolean
mg_ip_has_send_hostname_v2(NMSettingIPConfig *ip)
{
	return g_object_class_find_property(G_OBJECT_GET_CLASS(ip), MG_SEND_HOSTNAME_V2) != NULL;
}

gboolean
mg_ip_sends_hostname(NMSettingIPConfig *ip)
{
	if (mg_ip_has_send_hostname_v2(ip)) {
		int v2 = -1;
		g_object_get(ip, MG_SEND_HOSTNAME_V2, &v2, NULL);
		if (v2 != -1)
			return v2 != 0;
	}
	return nm_setting_ip_config_get_dhcp_send_hostname(ip);
}

/* generate-mac-address-mask in effect: the profile's, else the default
 * NetworkManager's configuration gives every profile of its kind. */
static char *
mg_mac_mask(NMConnection *c, gboolean wireless)
{
	const char *own = NULL;

	if (wireless && nm_connection_get_setting_wireless(c) != NULL)
		own = nm_setting_wireless_get_generate_mac_address_mask(
		    nm_connection_get_setting_wireless(c));
	else if (!wireless && nm_connection_get_setting_wired(c) != NULL)
		own = nm_setting_wired_get_generate_mac_address_mask(
		    nm_connection_get_setting_wired(c));
	if (own != NULL && own[0] != '\0')
		return g_strdup(own);
	return mg_nm_conf_value("connection",
				wireless ? "wifi.generate-mac-address-mask"
					 : "ethernet.generate-mac-address-mask",
				TRUE);
}

/* What names the machine besides its address. */
static void
mg_audit_input_naming(NMConnection *c, MgAuditInput *in)
{
	NMSettingConnection *con = nm_connection_get_setting_connection(c);
	NMSettingWireless *wifi = nm_connection_get_setting_wireless(c);
	NMSetting8021x *eap = nm_connection_get_setting_802_1x(c);

	in->hidden = wifi != NULL && nm_setting_wireless_get_hidden(wifi);
	in->mdns = con != NULL ? (int)nm_setting_connection_get_mdns(con) : -1;
	in->llmnr = con != NULL ? (int)nm_setting_connection_get_llmnr(con) : -1;
	if (in->mdns == MG_NAME_SERVICE_DEFAULT)
		in->mdns = mg_nm_conf_int("connection.mdns", MG_NAME_SERVICE_DEFAULT);
	if (in->llmnr == MG_NAME_SERVICE_DEFAULT)
		in->llmnr = mg_nm_conf_int("connection.llmnr", MG_NAME_SERVICE_DEFAULT);
	in->resolved_running = mg_resolved_running();
	if (eap != NULL) {
		in->eap_identity = nm_setting_802_1x_get_identity(eap);
		in->eap_anonymous_identity = nm_setting_802_1x_get_anonymous_identity(eap);
		for (guint i = 0; i < nm_setting_802_1x_get_num_eap_methods(eap); i++) {
			const char *m = nm_setting_802_1x_get_eap_method(eap, i);
			in->eap_tunnelled |= g_strcmp0(m, "peap") == 0 ||
					     g_strcmp0(m, "ttls") == 0 || g_strcmp0(m, "fast") == 0;
		}
	}
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
		in->dhcp4_send_hostname = mg_ip_sends_hostname(ip4);
	}
	if (ip6 != NULL) {
		in->ipv6_method = nm_setting_ip_config_get_method(ip6);
		in->addr_gen_mode =
		    (int)nm_setting_ip6_config_get_addr_gen_mode(NM_SETTING_IP6_CONFIG(ip6));
		in->ip6_privacy =
		    (int)nm_setting_ip6_config_get_ip6_privacy(NM_SETTING_IP6_CONFIG(ip6));
		in->dhcp_duid = nm_setting_ip6_config_get_dhcp_duid(NM_SETTING_IP6_CONFIG(ip6));
		in->dhcp6_send_hostname = mg_ip_sends_hostname(ip6);
	}
	mg_audit_input_naming(c, in);
}

/* The profile's findings under the policy in effect. */
GPtrArray *
mg_audit_connection(MgCliState *st, NMConnection *c)
{
	const MgProfileState *p = mg_state_get_profile(st->state, nm_connection_get_uuid(c));
	MgDeviceClass device_class = mg_profile_class(c);
	const char *cloned = mg_profile_cloned_mac(c, device_class);
	g_autofree char *ssid = NULL;
	g_autofree char *mask = NULL;
	MgAuditInput in;
	g_auto(MgPolicy) policy = { 0 };
	GPtrArray *findings;
	MgMac mac;
	gboolean owned = (p != NULL && p->user_owned) ||
			 (cloned != NULL && cloned[0] != '\0' && !mg_mac_parse(cloned, &mac, NULL));

	mg_profile_policy_full(&st->config, mg_cli_catalogue(NULL), c, device_class, &policy, NULL);
	mg_audit_input(c, &policy, owned, &in, &ssid);
	in.recognised = p != NULL && p->recognised_at != 0;
	mask = mg_mac_mask(c, (device_class & MG_DEVICE_CLASS_WIRELESS) != 0);
	in.mac_mask = mask;
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
