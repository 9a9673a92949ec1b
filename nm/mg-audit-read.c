/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The audit's input, read out of a profile and NetworkManager's
 * configuration. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <string.h>

#include "mg-audit-read.h"
#include "mg-nm-conf.h"
#include "mg-profile.h"

/* Anyone in range can join: no security, or Enhanced Open (OWE), which
 * encrypts but lets every station in. */
static gboolean
mg_hotspot_is_open(NMConnection *c)
{
	NMSettingWirelessSecurity *sec = nm_connection_get_setting_wireless_security(c);
	return sec == NULL || g_strcmp0(nm_setting_wireless_security_get_key_mgmt(sec), "owe") == 0;
}

/* @list (a profile's proto or pairwise) is empty, as NetworkManager's
 * default allows every value, or holds @value. */
static gboolean
mg_sec_allows(NMSettingWirelessSecurity *sec,
	      guint32 (*count)(NMSettingWirelessSecurity *),
	      const char *(*nth)(NMSettingWirelessSecurity *, guint32),
	      const char *value)
{
	guint32 n = count(sec);

	for (guint32 i = 0; i < n; i++) {
		if (g_strcmp0(nth(sec, i), value) == 0)
			return TRUE;
	}
	return n == 0;
}

/* What decides whether wpa_supplicant runs WPS for the access point. */
static void
mg_audit_input_ap_security(NMConnection *c, MgAuditInput *in)
{
	NMSettingWirelessSecurity *sec = nm_connection_get_setting_wireless_security(c);

	if (sec == NULL)
		return;
	in->ap_key_mgmt = nm_setting_wireless_security_get_key_mgmt(sec);
	in->ap_wps_disabled = nm_setting_wireless_security_get_wps_method(sec) ==
			      NM_SETTING_WIRELESS_SECURITY_WPS_METHOD_DISABLED;
	in->ap_rsn_ccmp = mg_sec_allows(sec,
					nm_setting_wireless_security_get_num_protos,
					nm_setting_wireless_security_get_proto,
					"rsn") &&
			  mg_sec_allows(sec,
					nm_setting_wireless_security_get_num_pairwise,
					nm_setting_wireless_security_get_pairwise,
					"ccmp");
}

/* NetworkManager 1.52 keeps the choice in dhcp-send-hostname-v2 (nmcli's
 * dhcp-send-hostname), falling back to the old boolean while it is left at
 * default; the libnm this runs with tells whether it has the new one. */
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

/* ipv6.dhcp-iaid in effect: the profile's, else the default
 * NetworkManager's configuration gives every profile. */
static char *
mg_dhcp6_iaid(NMConnection *c)
{
	NMSettingIPConfig *ip6 = nm_connection_get_setting_ip6_config(c);
	const char *own = ip6 != NULL ? nm_setting_ip_config_get_dhcp_iaid(ip6) : NULL;

	if (own != NULL && own[0] != '\0')
		return g_strdup(own);
	return mg_nm_conf_value("connection", "ipv6.dhcp-iaid", TRUE);
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
		mg_audit_input_ap_security(c, in);
	}
	in->harden = policy->harden;
	in->user_owned = user_owned;
	/* The `permanent` mode=off wrote is not the card's own address chosen
	 * by someone: under mode=off that mode is the finding, under another
	 * macguised gives the profile an address at its next decision. */
	in->cloned = mg_profile_is_released(c, in->device_class)
			 ? NULL
			 : mg_profile_cloned_mac(c, in->device_class);
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

GPtrArray *
mg_audit_read_profile(NMConnection *c,
		      const MgPolicy *policy,
		      gboolean user_owned,
		      gboolean recognised)
{
	MgDeviceClass device_class = mg_profile_class(c);
	g_autofree char *ssid = NULL;
	g_autofree char *mask = NULL;
	g_autofree char *iaid = NULL;
	MgAuditInput in;

	mg_audit_input(c, policy, user_owned, &in, &ssid);
	in.recognised = recognised;
	iaid = mg_dhcp6_iaid(c);
	in.dhcp_iaid = iaid;
	mask = mg_mac_mask(c, (device_class & MG_DEVICE_CLASS_WIRELESS) != 0);
	in.mac_mask = mask;
	return mg_audit_profile(&in);
}
