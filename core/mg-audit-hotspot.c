/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Access points: what a hotspot shows everyone in radio range, and keeps
 * showing across a change of its BSSID. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-audit-private.h"

MgApWps
mg_ap_wps(const MgAuditInput *in)
{
	if (in->device_class != MG_DEVICE_CLASS_AP || in->hidden)
		return MG_AP_WPS_OFF; /* a hidden SSID: wpa_supplicant leaves WPS off */
	if (in->ap_key_mgmt == NULL)
		return MG_AP_WPS_ON_OPEN; /* NetworkManager says nothing of WPS then */
	if (in->ap_wps_disabled)
		return MG_AP_WPS_OFF;
	/* WPA2/WPA3-Personal and Enhanced Open with CCMP; not WEP ("none"),
	 * Enterprise or a WPA/TKIP-only network */
	if (g_strv_contains((const char *const[]){ "wpa-psk", "sae", "owe", NULL },
			    in->ap_key_mgmt) &&
	    in->ap_rsn_ccmp)
		return MG_AP_WPS_ON;
	return MG_AP_WPS_OFF;
}

/* wpa_supplicant's access point runs WPS unless told otherwise, and puts
 * into every probe response a UUID it made from a MAC address (SHA-1 of a
 * fixed namespace and the address the interface had when wpa_supplicant
 * took it up, normally the card's own): the same UUID under every BSSID
 * macguise gives the hotspot, and a test of the card's own address for
 * anyone who knows or guesses it. */
static void
mg_audit_wps(GPtrArray *out, const MgAuditInput *in)
{
	MgApWps wps = mg_ap_wps(in);

	if (wps == MG_AP_WPS_ON) {
		mg_audit_add(
		    out,
		    in,
		    "ap-wps",
		    MG_SEVERITY_HIGH,
		    "802-11-wireless-security.wps-method",
		    "disabled",
		    _("the hotspot runs WPS: its probe responses carry a UUID wpa_supplicant "
		      "made from the card's own MAC address, the same under every BSSID"));
	} else if (wps == MG_AP_WPS_ON_OPEN) {
		g_autofree char *who = g_shell_quote(in->id);
		MgFinding *f = mg_finding_new(
		    "ap-wps",
		    MG_SEVERITY_HIGH,
		    "802-11-wireless-security.wps-method",
		    "disabled",
		    g_strdup(_("the hotspot runs WPS: its probe responses carry a UUID "
			       "wpa_supplicant made from the card's own MAC address, the same "
			       "under every BSSID, and NetworkManager turns WPS off only for a "
			       "hotspot with a password")),
		    g_strdup_printf("nmcli connection modify %s 802-11-wireless-security.key-mgmt "
				    "sae 802-11-wireless-security.psk PASSWORD "
				    "802-11-wireless-security.wps-method disabled",
				    who));
		f->advice = TRUE;
		g_ptr_array_add(out, f);
	}
}

/* @ssid with the opt-out suffix, cut on a character boundary so that it
 * stays within the 32 bytes an SSID may have. */
static char *
mg_ssid_nomap(const char *ssid)
{
	gsize keep = MIN(strlen(ssid), MG_SSID_MAX_BYTES - strlen(MG_NOMAP_SUFFIX));
	while (keep > 0 && !g_utf8_validate(ssid, (gssize)keep, NULL))
		keep--;
	return g_strdup_printf("%.*s%s", (int)keep, ssid, MG_NOMAP_SUFFIX);
}

/* Access points: their BSSID is what location databases collect (seed 002:
 * Street View cars and phones), and an open one lets anyone in radio range
 * tie it to the box's public address with one DNS query. */
void
mg_audit_hotspot(GPtrArray *out, const MgAuditInput *in)
{
	if (in->device_class != MG_DEVICE_CLASS_AP)
		return;
	if (in->mode != MG_MODE_OFF && !in->user_owned && in->rotate == MG_ROTATE_NEVER)
		mg_audit_add(out,
			     in,
			     "ap-bssid-fixed",
			     MG_SEVERITY_HIGH,
			     "macguise.rotate",
			     "daily",
			     _("the hotspot's BSSID never changes: Wi-Fi location databases place "
			       "it on the map, and anyone who saw it once knows it again"));
	if (in->ssid != NULL && !g_str_has_suffix(in->ssid, MG_NOMAP_SUFFIX)) {
		g_autofree char *renamed = mg_ssid_nomap(in->ssid);
		MgFinding *f = mg_audit_add(
		    out,
		    in,
		    "ap-ssid-mapped",
		    MG_SEVERITY_MEDIUM,
		    "802-11-wireless.ssid",
		    renamed,
		    _("the SSID does not end in _nomap, so Google's and Apple's location "
		      "services may map the hotspot; renaming it is your decision, and "
		      "clients must then join the new name"));
		f->advice = TRUE;
		f->owned_value = g_steal_pointer(&renamed);
		f->value = f->owned_value;
	}
	if (in->open) {
		g_autofree char *who = g_shell_quote(in->id);
		MgFinding *f = mg_finding_new(
		    "ap-open",
		    MG_SEVERITY_HIGH,
		    "802-11-wireless-security.key-mgmt",
		    "sae",
		    g_strdup(_("the hotspot is open: anyone in radio range can join and send a "
			       "DNS query that leaves from this box's public address, tying the "
			       "BSSID to it")),
		    g_strdup_printf("nmcli connection modify %s 802-11-wireless-security.key-mgmt "
				    "sae 802-11-wireless-security.psk PASSWORD",
				    who));
		f->advice = TRUE;
		g_ptr_array_add(out, f);
	}
	mg_audit_wps(out, in);
}
