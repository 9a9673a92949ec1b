/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The audit's rules: each finding where it applies, none where it does not. */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-audit.h"

static MgAuditInput
clean_input(void)
{
	MgAuditInput in = {
		.id = "Home Wi-Fi",
		.device_class = MG_DEVICE_CLASS_WIFI,
		.mode = MG_MODE_PLAUSIBLE,
		.rotate = MG_ROTATE_INTERVAL,
		.harden = TRUE,
		.ipv4_method = "auto",
		.ipv6_method = "auto",
		.addr_gen_mode = MG_ADDR_GEN_STABLE_PRIVACY,
		.ip6_privacy = 2,
		.dhcp_client_id = NULL,
		.dhcp_duid = "stable-uuid",
		.dhcp_iaid = "stable",
	};
	return in;
}

static char *
ids(const MgAuditInput *in)
{
	g_autoptr(GPtrArray) found = mg_audit_profile(in);
	GString *s = g_string_new(NULL);
	for (guint i = 0; i < found->len; i++) {
		const MgFinding *f = g_ptr_array_index(found, i);
		g_assert_nonnull(f->fix);
		g_assert_nonnull(f->message);
		if (i > 0 &&
		    ((const MgFinding *)g_ptr_array_index(found, i - 1))->severity < f->severity)
			g_error("findings not worst first");
		g_string_append_printf(s, "%s%s", s->len ? " " : "", f->id);
	}
	return g_string_free(s, FALSE);
}

static void
expect(const MgAuditInput *in, const char *expected)
{
	g_autofree char *found = ids(in);
	g_assert_cmpstr(found, ==, expected);
}

static void
test_audit_clean_profile(void)
{
	MgAuditInput in = clean_input();
	g_autofree char *found = ids(&in);
	g_assert_cmpstr(found, ==, "");
}

static void
test_audit_each_leak(void)
{
	MgAuditInput in;

	in = clean_input();
	in.mode = MG_MODE_OFF;
	expect(&in, "macguise-off");
	in = clean_input();
	in.cloned = "permanent";
	in.user_owned = TRUE;
	expect(&in, "mac-permanent");
	in = clean_input();
	in.cloned = "preserve";
	expect(&in, "mac-permanent");
	in = clean_input();
	in.cloned = "00:11:22:33:44:55";
	in.user_owned = TRUE;
	expect(&in, "mac-by-hand");
	in = clean_input();
	in.addr_gen_mode = MG_ADDR_GEN_EUI64;
	expect(&in, "ipv6-eui64");
	in = clean_input();
	in.addr_gen_mode = MG_ADDR_GEN_DEFAULT_OR_EUI64;
	expect(&in, "ipv6-eui64");
	in = clean_input();
	in.ip6_privacy = -1;
	expect(&in, "ipv6-no-temporary");
	in = clean_input();
	in.harden = FALSE;
	expect(&in, "stable-id-kept");
	in = clean_input();
	in.dhcp_client_id = "perm-mac";
	expect(&in, "dhcp-client-id-permanent");
	in = clean_input();
	in.dhcp_client_id = "01:aa:bb:cc:dd:ee:ff";
	expect(&in, "dhcp-client-id-fixed");
	in = clean_input();
	in.dhcp_duid = NULL;
	expect(&in, "dhcp-duid-fixed");
	in = clean_input();
	in.dhcp_duid = "00:01:02";
	expect(&in, "dhcp-duid-fixed");
	in = clean_input();
	in.dhcp4_send_hostname = TRUE;
	in.dhcp6_send_hostname = TRUE;
	expect(&in, "dhcp-hostname-ipv4 dhcp-hostname-ipv6");
	/* NetworkManager's default IAID, a hash of the interface's name, the
	 * card's own address, a number: the same in every session */
	in = clean_input();
	in.dhcp_iaid = NULL;
	expect(&in, "dhcp-iaid-fixed");
	in.dhcp_iaid = "perm-mac";
	expect(&in, "dhcp-iaid-fixed");
	in.dhcp_iaid = "0x1234";
	expect(&in, "dhcp-iaid-fixed");
	/* the current address's, or from the stable-id harden renews */
	in.dhcp_iaid = "mac";
	expect(&in, "");
	in.ipv6_method = "link-local";
	in.dhcp_iaid = NULL;
	expect(&in, "");
}

/* What does not apply is not reported: no IPv6, no DHCP. */
static void
test_audit_only_what_applies(void)
{
	MgAuditInput in = clean_input();
	g_autofree char *found = NULL;

	in.ipv6_method = "disabled";
	in.addr_gen_mode = MG_ADDR_GEN_EUI64;
	in.ip6_privacy = 0;
	in.dhcp_duid = NULL;
	in.dhcp_iaid = NULL;
	in.dhcp6_send_hostname = TRUE;
	in.ipv4_method = "manual";
	in.dhcp_client_id = "perm-mac";
	in.dhcp4_send_hostname = TRUE;
	found = ids(&in);
	g_assert_cmpstr(found, ==, "");
	/* a link-local-only IPv6 still makes an EUI-64 address, but no SLAAC one */
	in.ipv6_method = "link-local";
	g_clear_pointer(&found, g_free);
	found = ids(&in);
	g_assert_cmpstr(found, ==, "ipv6-eui64");
}

static void
test_audit_fix_commands(void)
{
	MgAuditInput in = clean_input();
	g_autoptr(GPtrArray) found = NULL;
	g_autoptr(MgFinding) scan = mg_audit_scan_randomization();

	in.id = "Joe's Café";
	in.addr_gen_mode = MG_ADDR_GEN_EUI64;
	in.mode = MG_MODE_OFF;
	found = mg_audit_profile(&in);
	g_assert_cmpuint(found->len, ==, 2);
	g_assert_cmpstr(((MgFinding *)g_ptr_array_index(found, 0))->fix,
			==,
			"macguise policy 'Joe'\\''s Café' mode=plausible");
	g_assert_cmpstr(
	    ((MgFinding *)g_ptr_array_index(found, 1))->fix,
	    ==,
	    "nmcli connection modify 'Joe'\\''s Café' ipv6.addr-gen-mode 'stable-privacy'");
	g_assert_cmpstr(mg_severity_to_string(MG_SEVERITY_MEDIUM), ==, "medium");
	g_assert_cmpstr(scan->id, ==, "wifi-scan-permanent");
}

static const MgFinding *
find(GPtrArray *found, const char *id)
{
	for (guint i = 0; i < found->len; i++) {
		const MgFinding *f = g_ptr_array_index(found, i);
		if (g_str_equal(f->id, id))
			return f;
	}
	g_error("no finding %s", id);
}

/* A hotspot: a fixed BSSID, an SSID location services map, an open one. */
static void
test_audit_hotspot(void)
{
	MgAuditInput in = clean_input();
	g_autoptr(GPtrArray) found = NULL;
	const MgFinding *f;

	in.id = "FreedomBox";
	in.device_class = MG_DEVICE_CLASS_AP;
	in.ipv4_method = "shared";
	in.ipv6_method = "ignore";
	in.ssid = "FreedomBox_nomap";
	in.ap_key_mgmt = "sae";
	in.ap_rsn_ccmp = TRUE;
	in.ap_wps_disabled = TRUE;
	expect(&in, "");
	/* The same checks do not apply to a client profile. */
	in.device_class = MG_DEVICE_CLASS_WIFI;
	in.ssid = "Home";
	in.open = TRUE;
	in.rotate = MG_ROTATE_NEVER;
	expect(&in, "");

	in.device_class = MG_DEVICE_CLASS_AP;
	in.ap_key_mgmt = NULL; /* open: no security setting */
	found = mg_audit_profile(&in);
	g_assert_cmpuint(found->len, ==, 4);
	g_assert_true(find(found, "ap-wps")->advice);
	f = find(found, "ap-bssid-fixed");
	g_assert_false(f->advice);
	g_assert_cmpstr(f->fix, ==, "macguise policy 'FreedomBox' rotate=daily");
	/* Renaming and choosing a password are the user's to decide. */
	f = find(found, "ap-ssid-mapped");
	g_assert_true(f->advice);
	g_assert_cmpstr(f->value, ==, "Home_nomap");
	g_assert_cmpstr(
	    f->fix, ==, "nmcli connection modify 'FreedomBox' 802-11-wireless.ssid 'Home_nomap'");
	f = find(found, "ap-open");
	g_assert_true(f->advice);
	g_assert_cmpint(f->severity, ==, MG_SEVERITY_HIGH);
	g_clear_pointer(&found, g_ptr_array_unref);

	/* A rotating hotspot that is secured only has its name left. */
	in.rotate = MG_ROTATE_INTERVAL;
	in.open = FALSE;
	in.ap_key_mgmt = "sae";
	expect(&in, "ap-ssid-mapped");
	/* macguise off: the off finding says it all for the address. */
	in.mode = MG_MODE_OFF;
	in.rotate = MG_ROTATE_NEVER;
	expect(&in, "macguise-off ap-ssid-mapped");
}

/* WPS, which wpa_supplicant's access point runs unless told otherwise
 * (wpa_supplicant/ap.c): harden turns it off where NetworkManager can say
 * so; an open hotspot has nothing to say it with. */
static void
test_audit_hotspot_wps(void)
{
	MgAuditInput in = clean_input();
	g_autoptr(GPtrArray) found = NULL;
	const MgFinding *f;

	in.id = "FreedomBox";
	in.device_class = MG_DEVICE_CLASS_AP;
	in.ipv4_method = "shared";
	in.ipv6_method = "ignore";
	in.ssid = "FreedomBox_nomap";
	in.ap_key_mgmt = "wpa-psk";
	in.ap_rsn_ccmp = TRUE;
	g_assert_cmpint(mg_ap_wps(&in), ==, MG_AP_WPS_ON);
	found = mg_audit_profile(&in);
	g_assert_cmpuint(found->len, ==, 1);
	f = find(found, "ap-wps");
	g_assert_false(f->advice);
	g_assert_cmpint(f->severity, ==, MG_SEVERITY_HIGH);
	g_assert_true(mg_finding_kept(f));
	g_assert_cmpstr(f->fix,
			==,
			"nmcli connection modify 'FreedomBox' "
			"802-11-wireless-security.wps-method 'disabled'");
	g_clear_pointer(&found, g_ptr_array_unref);
	in.ap_key_mgmt = "sae";
	expect(&in, "ap-wps");
	in.ap_key_mgmt = "owe";
	expect(&in, "ap-wps");
	/* told otherwise */
	in.ap_wps_disabled = TRUE;
	expect(&in, "");
	g_assert_cmpint(mg_ap_wps(&in), ==, MG_AP_WPS_OFF);
	in.ap_wps_disabled = FALSE;
	/* no WPS where WPS 2.0 forbids it: WEP, Enterprise, WPA/TKIP only */
	in.ap_key_mgmt = "none";
	expect(&in, "");
	in.ap_key_mgmt = "wpa-eap";
	expect(&in, "");
	in.ap_key_mgmt = "wpa-psk";
	in.ap_rsn_ccmp = FALSE;
	expect(&in, "");
	/* nor for a hidden SSID */
	in.ap_rsn_ccmp = TRUE;
	in.hidden = TRUE;
	expect(&in, "");
	/* an open hotspot: NetworkManager passes nothing; a password first */
	in.hidden = FALSE;
	in.ap_key_mgmt = NULL;
	in.open = TRUE;
	g_assert_cmpint(mg_ap_wps(&in), ==, MG_AP_WPS_ON_OPEN);
	found = mg_audit_profile(&in);
	f = find(found, "ap-wps");
	g_assert_true(f->advice);
	g_assert_false(mg_finding_kept(f));
	g_assert_true(strstr(f->fix, "wps-method disabled") != NULL);
	g_clear_pointer(&found, g_ptr_array_unref);
	/* a client profile has no WPS of its own to report */
	in.device_class = MG_DEVICE_CLASS_WIFI;
	in.open = FALSE;
	in.ap_key_mgmt = "wpa-psk";
	g_assert_cmpint(mg_ap_wps(&in), ==, MG_AP_WPS_OFF);
	expect(&in, "");
}

/* An SSID has 32 bytes at most: the suggested name is cut to fit, never
 * through a multi-byte character. */
static void
test_audit_nomap_fits(void)
{
	MgAuditInput in = clean_input();
	g_autoptr(GPtrArray) found = NULL;
	const MgFinding *f;

	in.device_class = MG_DEVICE_CLASS_AP;
	in.ssid = "Wohnzimmer-Zugangspunkt-\xc3\xa4\xc3\xa4\xc3\xa4\xc3\xa4"; /* 32 bytes */
	g_assert_cmpuint(strlen(in.ssid), ==, 32);
	found = mg_audit_profile(&in);
	f = find(found, "ap-ssid-mapped");
	g_assert_cmpuint(strlen(f->value), <=, MG_SSID_MAX_BYTES);
	g_assert_true(g_utf8_validate(f->value, -1, NULL));
	g_assert_true(g_str_has_suffix(f->value, "_nomap"));
	g_assert_cmpstr(f->value, ==, "Wohnzimmer-Zugangspunkt-\xc3\xa4_nomap");
}

static void
test_audit_nm_logging(void)
{
	static const char *const loud[] = { "INFO", "DEBUG", "TRACE", "info" };
	static const char *const quiet[] = { "WARN", "ERR", "OFF", "warn" };

	for (guint i = 0; i < G_N_ELEMENTS(loud); i++) {
		g_autoptr(MgFinding) f = mg_audit_nm_logging(loud[i]);
		g_assert_nonnull(f);
		g_assert_cmpstr(f->id, ==, "nm-logging-addresses");
		g_assert_nonnull(strstr(f->fix, "level=WARN"));
	}
	for (guint i = 0; i < G_N_ELEMENTS(quiet); i++)
		g_assert_null(mg_audit_nm_logging(quiet[i]));
	/* NetworkManager did not say: nothing claimed. */
	g_assert_null(mg_audit_nm_logging(NULL));
}

/* NetworkManager's own choices are the user's: described as advice with
 * what they show a network, not counted as "set by hand", left by harden. */
static void
test_audit_nm_choices(void)
{
	static const char *const keywords[][2] = {
		{ "random", "mac-nm-random" },
		{ "stable", "mac-nm-stable" },
		{ "stable-ssid", "mac-nm-stable-ssid" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(keywords); i++) {
		MgAuditInput in = clean_input();
		g_autoptr(GPtrArray) found = NULL;
		const MgFinding *f;

		in.cloned = keywords[i][0];
		in.user_owned = TRUE; /* macguised leaves a keyword alone */
		expect(&in, keywords[i][1]);
		found = mg_audit_profile(&in);
		f = find(found, keywords[i][1]);
		g_assert_true(f->advice);
		g_assert_cmpint(f->severity, ==, MG_SEVERITY_LOW);
		g_assert_nonnull(strstr(f->message, "locally-administered"));
		g_assert_cmpstr(f->setting, ==, "802-11-wireless.cloned-mac-address");
		g_clear_pointer(&found, g_ptr_array_unref);
		/* a mask that keeps the card's maker is said to */
		in.mac_mask = "FF:FF:FF:00:00:00";
		found = mg_audit_profile(&in);
		g_assert_nonnull(strstr(find(found, keywords[i][1])->message, "who made the card"));
	}
}

/* As NetworkManager applies generate-mac-address-mask. */
static void
test_audit_nm_mac_look(void)
{
	g_assert_cmpint(mg_nm_mac_look(NULL), ==, MG_NM_MAC_LOCAL);
	g_assert_cmpint(mg_nm_mac_look(""), ==, MG_NM_MAC_LOCAL);
	g_assert_cmpint(mg_nm_mac_look("nonsense"), ==, MG_NM_MAC_LOCAL);
	/* the mask leaves the locally-administered bit to NetworkManager */
	g_assert_cmpint(mg_nm_mac_look("00:00:00:00:00:00"), ==, MG_NM_MAC_LOCAL);
	g_assert_cmpint(mg_nm_mac_look("FD:FF:FF:00:00:00"), ==, MG_NM_MAC_LOCAL);
	/* the bit from the card's own address; the maker part partly random */
	g_assert_cmpint(mg_nm_mac_look("02:00:00:00:00:00"), ==, MG_NM_MAC_UNREGISTERED);
	g_assert_cmpint(mg_nm_mac_look("FE:FF:00:00:00:00"), ==, MG_NM_MAC_UNREGISTERED);
	g_assert_cmpint(mg_nm_mac_look("FF:FF:FF:00:00:00"), ==, MG_NM_MAC_OWN_MAKER);
	g_assert_cmpint(mg_nm_mac_look("FE:FF:FF:00:00:00"), ==, MG_NM_MAC_OWN_MAKER);
	g_assert_cmpint(mg_nm_mac_look("FE:FF:FF:00:00:00 68:F7:28:00:00:00 00:1B:21:00:00:00"),
			==,
			MG_NM_MAC_LISTED_MAKER);
	/* one listed address is locally administered: so may the result be */
	g_assert_cmpint(mg_nm_mac_look("FE:FF:FF:00:00:00 68:F7:28:00:00:00,6A:F7:28:00:00:00"),
			==,
			MG_NM_MAC_LOCAL);
}

/* What names the machine besides its address. */
static void
test_audit_naming(void)
{
	MgAuditInput in = clean_input();
	g_autoptr(GPtrArray) found = NULL;
	const MgFinding *f;

	in.hidden = TRUE;
	expect(&in, "wifi-hidden-probes");
	found = mg_audit_profile(&in);
	g_assert_true(find(found, "wifi-hidden-probes")->advice);
	g_clear_pointer(&found, g_ptr_array_unref);
	/* a hidden hotspot does not probe */
	in.device_class = MG_DEVICE_CLASS_AP;
	in.ssid = "Box_nomap";
	expect(&in, "");

	/* LLMNR answers by default, but only where systemd-resolved runs */
	in = clean_input();
	in.llmnr = MG_NAME_SERVICE_DEFAULT;
	in.mdns = MG_NAME_SERVICE_DEFAULT;
	expect(&in, "");
	in.resolved_running = TRUE;
	expect(&in, "llmnr-hostname");
	in.llmnr = MG_NAME_SERVICE_RESOLVE;
	expect(&in, "");
	in.mdns = MG_NAME_SERVICE_YES;
	in.llmnr = MG_NAME_SERVICE_YES;
	expect(&in, "llmnr-hostname mdns-hostname");
	found = mg_audit_profile(&in);
	f = find(found, "mdns-hostname");
	g_assert_false(f->advice);
	g_assert_cmpstr(f->value, ==, "resolve");
	g_clear_pointer(&found, g_ptr_array_unref);

	/* an outer identity in clear before PEAP or TTLS */
	in = clean_input();
	in.eap_identity = "alice@uni.example";
	expect(&in, ""); /* EAP-TLS: no tunnel, no outer identity to use */
	in.eap_tunnelled = TRUE;
	found = mg_audit_profile(&in);
	f = find(found, "8021x-identity-clear");
	g_assert_true(f->advice);
	g_assert_cmpstr(f->value, ==, "anonymous@uni.example");
	g_assert_cmpstr(f->fix,
			==,
			"nmcli connection modify 'Home Wi-Fi' 802-1x.anonymous-identity "
			"'anonymous@uni.example'");
	g_clear_pointer(&found, g_ptr_array_unref);
	in.eap_identity = "alice";
	found = mg_audit_profile(&in);
	g_assert_cmpstr(find(found, "8021x-identity-clear")->value, ==, "anonymous");
	in.eap_anonymous_identity = "anonymous@uni.example";
	expect(&in, "");
}

static void
test_audit_avahi(void)
{
	g_autoptr(MgFinding) f = mg_audit_avahi();

	g_assert_cmpstr(f->id, ==, "avahi-hostname");
	g_assert_true(f->advice);
	g_assert_nonnull(strstr(f->fix, "deny-interfaces"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/audit/hotspot", test_audit_hotspot);
	g_test_add_func("/audit/hotspot-wps", test_audit_hotspot_wps);
	g_test_add_func("/audit/nomap-fits", test_audit_nomap_fits);
	g_test_add_func("/audit/clean-profile", test_audit_clean_profile);
	g_test_add_func("/audit/each-leak", test_audit_each_leak);
	g_test_add_func("/audit/only-what-applies", test_audit_only_what_applies);
	g_test_add_func("/audit/fix-commands", test_audit_fix_commands);
	g_test_add_func("/audit/nm-logging", test_audit_nm_logging);
	g_test_add_func("/audit/nm-choices", test_audit_nm_choices);
	g_test_add_func("/audit/nm-mac-look", test_audit_nm_mac_look);
	g_test_add_func("/audit/naming", test_audit_naming);
	g_test_add_func("/audit/avahi", test_audit_avahi);
	return g_test_run();
}
