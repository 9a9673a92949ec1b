/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What names the machine on every network besides its addresses: probes
 * for a hidden network, a host name answered over mDNS or LLMNR, an 802.1X
 * identity sent in clear. A new MAC address hides none of these. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-audit-private.h"

/* A client of a hidden network must ask for it by name, so its probe
 * requests carry the SSID wherever the machine is switched on. Only
 * un-hiding the network at its router ends it: the user's decision. */
static void
mg_audit_hidden(GPtrArray *out, const MgAuditInput *in)
{
	if (in->device_class != MG_DEVICE_CLASS_WIFI || !in->hidden)
		return;
	mg_audit_add(out,
		     in,
		     "wifi-hidden-probes",
		     MG_SEVERITY_HIGH,
		     "802-11-wireless.hidden",
		     "no",
		     _("the network is hidden, so the machine calls out its name in probe "
		       "requests wherever it goes: anyone listening learns which network "
		       "it belongs to; make the network visible at its router, then set "
		       "hidden to no"))
	    ->advice = TRUE;
}

/* NetworkManager hands these to systemd-resolved, the only resolver that
 * uses them; resolved answers LLMNR for the host name unless told not to
 * (its per-link default), mDNS only when asked. "resolve" keeps looking
 * names up and stops answering. */
static void
mg_audit_name_services(GPtrArray *out, const MgAuditInput *in)
{
	if (!in->resolved_running)
		return;
	if (in->llmnr == MG_NAME_SERVICE_YES || in->llmnr == MG_NAME_SERVICE_DEFAULT)
		mg_audit_add(out,
			     in,
			     "llmnr-hostname",
			     MG_SEVERITY_MEDIUM,
			     "connection.llmnr",
			     "resolve",
			     _("systemd-resolved answers for the host name over LLMNR on this "
			       "connection: anyone on the network can ask for it, and it claims "
			       "the name when the link comes up"));
	if (in->mdns == MG_NAME_SERVICE_YES)
		mg_audit_add(out,
			     in,
			     "mdns-hostname",
			     MG_SEVERITY_MEDIUM,
			     "connection.mdns",
			     "resolve",
			     _("systemd-resolved announces the host name over mDNS on this "
			       "connection"));
}

static gboolean
mg_eap_has_outer(const MgAuditInput *in)
{
	return in->eap_anonymous_identity != NULL && in->eap_anonymous_identity[0] != '\0';
}

/* PEAP, TTLS and FAST send only an outer identity in clear before their
 * tunnel; without an anonymous one it is the real user name, to every
 * listener at every network of that name (eduroam: everywhere). The realm
 * after '@' is kept so that roaming still finds the home server. Advice:
 * a few servers insist on a particular outer identity. */
static void
mg_audit_eap_identity(GPtrArray *out, const MgAuditInput *in)
{
	g_autofree char *outer = NULL;
	const char *realm;
	MgFinding *f;

	if (!in->eap_tunnelled || in->eap_identity == NULL || in->eap_identity[0] == '\0' ||
	    mg_eap_has_outer(in))
		return;
	realm = strrchr(in->eap_identity, '@');
	outer = g_strconcat("anonymous", realm != NULL && realm[1] != '\0' ? realm : NULL, NULL);
	f = mg_audit_add(out,
			 in,
			 "8021x-identity-clear",
			 MG_SEVERITY_HIGH,
			 "802-1x.anonymous-identity",
			 outer,
			 _("802.1X sends the user name in clear before its encrypted tunnel: "
			   "anyone near the network reads who logs in; an anonymous outer "
			   "identity hides it"));
	f->advice = TRUE;
	f->owned_value = g_steal_pointer(&outer);
}

void
mg_audit_naming(GPtrArray *out, const MgAuditInput *in)
{
	mg_audit_hidden(out, in);
	mg_audit_name_services(out, in);
	mg_audit_eap_identity(out, in);
}

MgFinding *
mg_audit_avahi(void)
{
	MgFinding *f = mg_finding_new(
	    "avahi-hostname",
	    MG_SEVERITY_MEDIUM,
	    "avahi-daemon.deny-interfaces",
	    "",
	    g_strdup(_("avahi-daemon announces the host name and addresses over mDNS on "
		       "every network the machine joins")),
	    g_strdup(_("name the interfaces you take to other networks in deny-interfaces= "
		       "in the [server] section of /etc/avahi/avahi-daemon.conf, or stop "
		       "avahi-daemon if nothing needs to find this machine by name")));

	f->advice = TRUE;
	return f;
}
