/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-audit-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

void
mg_finding_free(MgFinding *finding)
{
	g_free(finding->message);
	g_free(finding->fix);
	g_free(finding->owned_value);
	g_free(finding);
}

const char *
mg_severity_to_string(MgSeverity severity)
{
	switch (severity) {
	case MG_SEVERITY_HIGH:
		return "high";
	case MG_SEVERITY_MEDIUM:
		return "medium";
	case MG_SEVERITY_LOW:
	default:
		return "low";
	}
}

MgFinding *
mg_finding_new(const char *id,
	       MgSeverity severity,
	       const char *setting,
	       const char *value,
	       char *message,
	       char *fix)
{
	MgFinding *f = g_new0(MgFinding, 1);

	f->id = id;
	f->severity = severity;
	f->setting = setting;
	f->value = value;
	f->message = message;
	f->fix = fix;
	return f;
}

MgFinding *
mg_audit_add(GPtrArray *out,
	     const MgAuditInput *in,
	     const char *id,
	     MgSeverity severity,
	     const char *setting,
	     const char *value,
	     const char *message)
{
	g_autofree char *who = g_shell_quote(in->id);
	g_autofree char *what = g_shell_quote(value);
	char *fix = g_str_has_prefix(setting, "macguise.")
			? g_strdup_printf(
			      "macguise policy %s %s=%s", who, setting + strlen("macguise."), value)
			: g_strdup_printf("nmcli connection modify %s %s %s", who, setting, what);
	MgFinding *f = mg_finding_new(id, severity, setting, value, g_strdup(message), fix);

	g_ptr_array_add(out, f);
	return f;
}

static int
mg_finding_worse(gconstpointer a, gconstpointer b)
{
	const MgFinding *x = *(MgFinding *const *)a, *y = *(MgFinding *const *)b;
	return (int)y->severity - (int)x->severity;
}

/* The methods under which a setting matters at all. */
static gboolean
mg_ipv6_configured(const MgAuditInput *in)
{
	return in->ipv6_method != NULL && g_strcmp0(in->ipv6_method, "disabled") != 0 &&
	       g_strcmp0(in->ipv6_method, "ignore") != 0;
}

static gboolean
mg_dhcp4(const MgAuditInput *in)
{
	return g_strcmp0(in->ipv4_method, "auto") == 0;
}

static gboolean
mg_dhcp6(const MgAuditInput *in)
{
	return g_strcmp0(in->ipv6_method, "auto") == 0 || g_strcmp0(in->ipv6_method, "dhcp") == 0;
}

static void
mg_audit_mac(GPtrArray *out, const MgAuditInput *in)
{
	const char *cloned_setting = (in->device_class & MG_DEVICE_CLASS_WIRELESS) != 0
					 ? "802-11-wireless.cloned-mac-address"
					 : "802-3-ethernet.cloned-mac-address";

	if (in->mode == MG_MODE_OFF) {
		mg_audit_add(
		    out,
		    in,
		    "macguise-off",
		    MG_SEVERITY_HIGH,
		    "macguise.mode",
		    "plausible",
		    _("macguise is off for this profile: it shows one address everywhere"));
		return;
	}
	if (g_strcmp0(in->cloned, "permanent") == 0 || g_strcmp0(in->cloned, "preserve") == 0) {
		mg_audit_add(out,
			     in,
			     "mac-permanent",
			     MG_SEVERITY_HIGH,
			     cloned_setting,
			     "",
			     _("the card's own address is used (cloned-mac-address is permanent or "
			       "preserve); clearing it hands the profile to macguise"));
	} else if (mg_audit_nm_mac_choice(out, in, cloned_setting)) {
		/* NetworkManager's own choice: described, not taken over */
	} else if (in->recognised && !in->user_owned) {
		g_autofree char *who = g_shell_quote(in->id);
		MgFinding *f = mg_finding_new(
		    "state-lost",
		    MG_SEVERITY_LOW,
		    cloned_setting,
		    "",
		    g_strdup(_("macguise's state was lost (its secret key, or a damaged or newer "
			       "state file); the profile was recognised by macguise's mark in it "
			       "and stays managed, but the addresses it had before cannot be kept "
			       "from coming back")),
		    g_strdup_printf("macguise status %s", who));
		f->advice = TRUE;
		g_ptr_array_add(out, f);
	} else if (in->user_owned) {
		mg_audit_add(out,
			     in,
			     "mac-by-hand",
			     MG_SEVERITY_MEDIUM,
			     cloned_setting,
			     "",
			     _("the MAC address was set by hand, so macguise leaves it alone; "
			       "clearing it hands the profile to macguise"));
	}
}

static void
mg_audit_ipv6(GPtrArray *out, const MgAuditInput *in)
{
	if (!mg_ipv6_configured(in))
		return;
	if (in->addr_gen_mode == MG_ADDR_GEN_EUI64 ||
	    in->addr_gen_mode == MG_ADDR_GEN_DEFAULT_OR_EUI64)
		mg_audit_add(
		    out,
		    in,
		    "ipv6-eui64",
		    MG_SEVERITY_HIGH,
		    "ipv6.addr-gen-mode",
		    "stable-privacy",
		    _("IPv6 addresses are made from the MAC address (EUI-64): every server "
		      "the machine talks to sees it"));
	if (g_strcmp0(in->ipv6_method, "auto") == 0 && in->ip6_privacy != 2)
		mg_audit_add(
		    out,
		    in,
		    "ipv6-no-temporary",
		    MG_SEVERITY_MEDIUM,
		    "ipv6.ip6-privacy",
		    "2",
		    _("no temporary IPv6 addresses: servers see one address for as long as "
		      "the machine stays on the network"));
}

/* DHCPv6: the DUID, the IAID of the address asked for and the host name
 * each name the client to every server it asks. */
static void
mg_audit_dhcp6(GPtrArray *out, const MgAuditInput *in)
{
	const char *duid = in->dhcp_duid;
	const char *iaid = in->dhcp_iaid;

	if (!mg_dhcp6(in))
		return;
	if (duid == NULL || g_strcmp0(duid, "lease") == 0 ||
	    (!g_str_has_prefix(duid, "stable-") && g_strcmp0(duid, "ll") != 0 &&
	     g_strcmp0(duid, "llt") != 0))
		mg_audit_add(out,
			     in,
			     "dhcp-duid-fixed",
			     MG_SEVERITY_MEDIUM,
			     "ipv6.dhcp-duid",
			     "stable-uuid",
			     _("the DHCPv6 DUID does not change with the MAC address (the "
			       "default comes from the machine id)"));
	/* NetworkManager's default, "ifname", is a hash of the interface's
	 * name: the same in every session on that card */
	if (g_strcmp0(iaid, "stable") != 0 && g_strcmp0(iaid, "mac") != 0)
		mg_audit_add(out,
			     in,
			     "dhcp-iaid-fixed",
			     MG_SEVERITY_MEDIUM,
			     "ipv6.dhcp-iaid",
			     "stable",
			     _("the DHCPv6 IAID does not change with the MAC address (the "
			       "default comes from the interface's name)"));
	if (in->dhcp6_send_hostname)
		mg_audit_add(out,
			     in,
			     "dhcp-hostname-ipv6",
			     MG_SEVERITY_MEDIUM,
			     "ipv6.dhcp-send-hostname",
			     "no",
			     _("the host name is sent to every DHCP server (IPv6)"));
}

static void
mg_audit_identifiers(GPtrArray *out, const MgAuditInput *in)
{
	if (!in->harden)
		mg_audit_add(out,
			     in,
			     "stable-id-kept",
			     MG_SEVERITY_MEDIUM,
			     "macguise.harden",
			     "yes",
			     _("the connection's stable-id outlives each MAC address (harden is "
			       "off): IPv6 stable-privacy addresses and DHCP identifiers derived "
			       "from it link old and new"));
	if (mg_dhcp4(in)) {
		const char *id = in->dhcp_client_id;
		if (g_strcmp0(id, "perm-mac") == 0)
			mg_audit_add(out,
				     in,
				     "dhcp-client-id-permanent",
				     MG_SEVERITY_HIGH,
				     "ipv4.dhcp-client-id",
				     "mac",
				     _("DHCP sends the card's own MAC address as its client id"));
		else if (id != NULL && g_strcmp0(id, "mac") != 0 && g_strcmp0(id, "stable") != 0 &&
			 g_strcmp0(id, "none") != 0)
			mg_audit_add(out,
				     in,
				     "dhcp-client-id-fixed",
				     MG_SEVERITY_MEDIUM,
				     "ipv4.dhcp-client-id",
				     "mac",
				     _("the DHCP client id does not change with the MAC address"));
		if (in->dhcp4_send_hostname)
			mg_audit_add(out,
				     in,
				     "dhcp-hostname-ipv4",
				     MG_SEVERITY_MEDIUM,
				     "ipv4.dhcp-send-hostname",
				     "no",
				     _("the host name is sent to every DHCP server (IPv4)"));
	}
	mg_audit_dhcp6(out, in);
}

GPtrArray *
mg_audit_profile(const MgAuditInput *input)
{
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)mg_finding_free);

	mg_audit_mac(out, input);
	mg_audit_hotspot(out, input);
	mg_audit_ipv6(out, input);
	mg_audit_identifiers(out, input);
	mg_audit_naming(out, input);
	g_ptr_array_sort(out, mg_finding_worse);
	return out;
}

gboolean
mg_finding_kept(const MgFinding *f)
{
	return !f->advice && !g_str_has_prefix(f->setting, MG_POLICY_KEY_PREFIX) &&
	       !g_str_has_suffix(f->setting, ".cloned-mac-address");
}

MgFinding *
mg_audit_scan_randomization(void)
{
	return mg_finding_new(
	    "wifi-scan-permanent",
	    MG_SEVERITY_HIGH,
	    "wifi.scan-rand-mac-address",
	    "yes",
	    g_strdup(_("NetworkManager scans for Wi-Fi networks with the card's own "
		       "address (wifi.scan-rand-mac-address=no): every probe request "
		       "names the machine")),
	    g_strdup(_("set wifi.scan-rand-mac-address=yes in the [device] section of a "
		       "file in /etc/NetworkManager/conf.d/ and restart NetworkManager")));
}

MgFinding *
mg_audit_nm_logging(const char *level)
{
	static const char *const quiet[] = { "WARN", "ERR", "OFF" };

	if (level == NULL)
		return NULL;
	for (guint i = 0; i < G_N_ELEMENTS(quiet); i++) {
		if (g_ascii_strcasecmp(level, quiet[i]) == 0)
			return NULL;
	}
	return mg_finding_new(
	    "nm-logging-addresses",
	    MG_SEVERITY_MEDIUM,
	    "logging.level",
	    "WARN",
	    g_strdup_printf(
		_("NetworkManager logs at level %s, which names every MAC address it sets (and "
		  "the card's own when it puts it back): the journal keeps every address macguise "
		  "gave, in plain text, for as long as it keeps its logs"),
		level),
	    g_strdup(_("set level=WARN in the [logging] section of a file in "
		       "/etc/NetworkManager/conf.d/ (at once: nmcli general logging level WARN "
		       "domains ALL); the addresses already in the journal stay until it is "
		       "rotated away")));
}
