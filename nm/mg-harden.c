/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include "mg-audit-read.h"
#include "mg-harden.h"
#include "mg-profile.h"

/* Both of NetworkManager's settings where libnm has the 1.52 one: it
 * rejects a profile in which they disagree. */
static void
mg_harden_no_hostname(NMSettingIPConfig *ip)
{
	if (mg_ip_has_send_hostname_v2(ip))
		g_object_set(ip, MG_SEND_HOSTNAME_V2, 0, NULL);
	g_object_set(ip, NM_SETTING_IP_CONFIG_DHCP_SEND_HOSTNAME, FALSE, NULL);
}

void
mg_harden_apply(NMConnection *c, const MgFinding *f)
{
	NMSettingIPConfig *ip4 = nm_connection_get_setting_ip4_config(c);
	NMSettingIPConfig *ip6 = nm_connection_get_setting_ip6_config(c);
	const char *s = f->setting;

	if (g_str_has_prefix(s, MG_POLICY_KEY_PREFIX)) {
		NMSetting *user =
		    nm_connection_get_setting_by_name(c, NM_SETTING_USER_SETTING_NAME);
		if (user == NULL) {
			user = nm_setting_user_new();
			nm_connection_add_setting(c, user);
		}
		nm_setting_user_set_data(NM_SETTING_USER(user), s, f->value, NULL);
	} else if (g_str_has_suffix(s, ".cloned-mac-address")) {
		if ((mg_profile_class(c) & MG_DEVICE_CLASS_WIRELESS) != 0)
			g_object_set(nm_connection_get_setting_wireless(c),
				     NM_SETTING_WIRELESS_CLONED_MAC_ADDRESS,
				     NULL,
				     NULL);
		else
			g_object_set(nm_connection_get_setting_wired(c),
				     NM_SETTING_WIRED_CLONED_MAC_ADDRESS,
				     NULL,
				     NULL);
	} else if (g_strcmp0(s, "ipv6.addr-gen-mode") == 0) {
		g_object_set(ip6,
			     NM_SETTING_IP6_CONFIG_ADDR_GEN_MODE,
			     (int)NM_SETTING_IP6_CONFIG_ADDR_GEN_MODE_STABLE_PRIVACY,
			     NULL);
	} else if (g_strcmp0(s, "ipv6.ip6-privacy") == 0) {
		g_object_set(ip6,
			     NM_SETTING_IP6_CONFIG_IP6_PRIVACY,
			     NM_SETTING_IP6_CONFIG_PRIVACY_PREFER_TEMP_ADDR,
			     NULL);
	} else if (g_strcmp0(s, "ipv6.dhcp-duid") == 0) {
		g_object_set(ip6, NM_SETTING_IP6_CONFIG_DHCP_DUID, f->value, NULL);
	} else if (g_strcmp0(s, "ipv6.dhcp-iaid") == 0) {
		g_object_set(ip6, NM_SETTING_IP_CONFIG_DHCP_IAID, f->value, NULL);
	} else if (g_strcmp0(s, "802-11-wireless-security.wps-method") == 0) {
		/* found only where the profile has the setting (mg_ap_wps) */
		g_object_set(nm_connection_get_setting_wireless_security(c),
			     NM_SETTING_WIRELESS_SECURITY_WPS_METHOD,
			     (guint)NM_SETTING_WIRELESS_SECURITY_WPS_METHOD_DISABLED,
			     NULL);
	} else if (g_strcmp0(s, "ipv4.dhcp-client-id") == 0) {
		g_object_set(ip4, NM_SETTING_IP4_CONFIG_DHCP_CLIENT_ID, f->value, NULL);
	} else if (g_strcmp0(s, "ipv4.dhcp-send-hostname") == 0) {
		mg_harden_no_hostname(ip4);
	} else if (g_strcmp0(s, "ipv6.dhcp-send-hostname") == 0) {
		mg_harden_no_hostname(ip6);
	} else if (g_strcmp0(s, "connection.llmnr") == 0) {
		g_object_set(nm_connection_get_setting_connection(c),
			     NM_SETTING_CONNECTION_LLMNR,
			     (int)NM_SETTING_CONNECTION_LLMNR_RESOLVE,
			     NULL);
	} else if (g_strcmp0(s, "connection.mdns") == 0) {
		g_object_set(nm_connection_get_setting_connection(c),
			     NM_SETTING_CONNECTION_MDNS,
			     (int)NM_SETTING_CONNECTION_MDNS_RESOLVE,
			     NULL);
	} else {
		g_assert_not_reached();
	}
}

gboolean
mg_harden_is_kept(NMConnection *c)
{
	NMSetting *user = nm_connection_get_setting_by_name(c, NM_SETTING_USER_SETTING_NAME);
	const char *own = user != NULL ? nm_setting_user_get_data(NM_SETTING_USER(user),
								  MG_POLICY_KEY_PREFIX "harden")
				       : NULL;
	g_auto(MgPolicy) policy = { 0 };

	return own != NULL && mg_policy_set(&policy, "harden", own, NULL) && policy.harden;
}

guint
mg_harden_keep(
    NMConnection *c, const MgPolicy *policy, gboolean user_owned, gboolean apply, GString *settings)
{
	g_autoptr(GPtrArray) findings = mg_audit_read_profile(c, policy, user_owned, FALSE);
	guint kept = 0;

	for (guint i = 0; i < findings->len; i++) {
		const MgFinding *f = g_ptr_array_index(findings, i);
		if (!mg_finding_kept(f))
			continue;
		if (apply)
			mg_harden_apply(c, f);
		if (settings != NULL)
			g_string_append_printf(
			    settings, "%s%s", settings->len > 0 ? ", " : "", f->setting);
		kept++;
	}
	return kept;
}
