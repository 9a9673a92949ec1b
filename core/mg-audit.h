/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-policy.h"

G_BEGIN_DECLS

/* What still links a person across a profile's MAC addresses, from the
 * settings that matter, and the change that fixes each finding. Pure: the
 * CLI reads the settings out of NetworkManager and applies the fixes. */

/* NetworkManager's values for ipv6.addr-gen-mode and ipv6.ip6-privacy. */
typedef enum {
	MG_ADDR_GEN_EUI64 = 0,
	MG_ADDR_GEN_STABLE_PRIVACY = 1,
	MG_ADDR_GEN_DEFAULT_OR_EUI64 = 2,
	MG_ADDR_GEN_DEFAULT = 3,
} MgAddrGenMode;

typedef struct {
	const char *id; /* the profile's name, for the fix commands */
	MgDeviceClass
	    device_class; /* MG_DEVICE_CLASS_WIFI, MG_DEVICE_CLASS_ETHERNET or MG_DEVICE_CLASS_AP */
	MgMode mode;      /* macguise.mode in effect */
	MgRotate rotate;  /* macguise.rotate in effect */
	gboolean harden;  /* macguise.harden in effect */
	gboolean user_owned;        /* macguise leaves its MAC address alone */
	gboolean recognised;        /* kept managed by its mark when the state was lost */
	const char *cloned;         /* cloned-mac-address as set, or NULL */
	const char *ipv4_method;    /* "auto", "manual", "disabled", ... */
	const char *ipv6_method;    /* "auto", "dhcp", "link-local", "ignore", ... */
	int addr_gen_mode;          /* MgAddrGenMode */
	int ip6_privacy;            /* -1 (global default), 0, 1, 2 */
	const char *dhcp_client_id; /* ipv4.dhcp-client-id, or NULL */
	const char *dhcp_duid;      /* ipv6.dhcp-duid, or NULL */
	/* ipv6.dhcp-iaid in effect (the profile's, else NetworkManager's
	 * global default), or NULL: NetworkManager's own default, "ifname" */
	const char *dhcp_iaid;
	gboolean dhcp4_send_hostname;
	gboolean dhcp6_send_hostname;
	const char *ssid; /* an access point's SSID as UTF-8, or NULL */
	gboolean open;    /* an access point without Wi-Fi security */
	/* An access point's 802-11-wireless-security.key-mgmt, or NULL where
	 * the profile has no such setting (an open hotspot) */
	const char *ap_key_mgmt;
	gboolean ap_wps_disabled; /* its wps-method is disabled */
	gboolean ap_rsn_ccmp;     /* its proto and pairwise allow WPA2 with CCMP */
	/* generate-mac-address-mask in effect (the profile's, else
	 * NetworkManager's global default), or NULL */
	const char *mac_mask;
	gboolean hidden; /* a client profile for a hidden network: probes name it */
	int mdns;        /* connection.mdns: -1 default, 0 no, 1 resolve, 2 yes */
	int llmnr;       /* connection.llmnr, the same values */
	/* systemd-resolved runs: NetworkManager hands it the two settings
	 * above, and its own default for LLMNR is to answer */
	gboolean resolved_running;
	const char *eap_identity;           /* 802-1x.identity, or NULL */
	const char *eap_anonymous_identity; /* 802-1x.anonymous-identity, or NULL */
	gboolean eap_tunnelled;             /* PEAP, TTLS or FAST: an outer identity would do */
} MgAuditInput;

/* Whether wpa_supplicant's access-point mode runs WPS (wpa_supplicant/ap.c,
 * wpa_supplicant_conf_ap(): on for open and WPA2/WPA3-Personal networks
 * that are not hidden, unless the network says wps_disabled=1, which
 * NetworkManager passes only for wps-method disabled, and only where the
 * profile has a security setting). */
typedef enum {
	MG_AP_WPS_OFF,     /* not an access point, or WPS is off */
	MG_AP_WPS_ON,      /* on; wps-method disabled turns it off */
	MG_AP_WPS_ON_OPEN, /* on, and no setting of an open hotspot turns it off */
} MgApWps;

/* NetworkManager's values for connection.mdns and connection.llmnr. */
typedef enum {
	MG_NAME_SERVICE_DEFAULT = -1,
	MG_NAME_SERVICE_NO = 0,
	MG_NAME_SERVICE_RESOLVE = 1,
	MG_NAME_SERVICE_YES = 2,
} MgNameService;

/* What NetworkManager's own address choice gives a network to see. */
typedef enum {
	MG_NM_MAC_LOCAL,        /* made up, with the locally-administered bit */
	MG_NM_MAC_OWN_MAKER,    /* a mask keeps the card's own maker part */
	MG_NM_MAC_LISTED_MAKER, /* a mask takes the maker part from its list */
	MG_NM_MAC_UNREGISTERED, /* globally administered, maker part made up */
} MgNmMacLook;

typedef enum {
	MG_SEVERITY_LOW,
	MG_SEVERITY_MEDIUM,
	MG_SEVERITY_HIGH,
} MgSeverity;

typedef struct {
	const char *id; /* stable: "ipv6-eui64", "dhcp-hostname-ipv4", ... */
	MgSeverity severity;
	char *message;       /* for people, translated */
	const char *setting; /* what the fix changes: "ipv6.addr-gen-mode", "macguise.mode" */
	const char *value;   /* to this ("" clears it) */
	char *fix;           /* the command that does it */
	/* Advice only: the fix is the user's decision (renaming a hotspot,
	 * choosing its password), so `macguise harden` does not apply it. */
	gboolean advice;
	char *owned_value; /* storage for @value where it is made up */
} MgFinding;

/* Location services honour an SSID ending in this as an opt-out. */
#define MG_NOMAP_SUFFIX "_nomap"
#define MG_SSID_MAX_BYTES 32

void mg_finding_free(MgFinding *finding);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgFinding, mg_finding_free)

const char *mg_severity_to_string(MgSeverity severity);
/* The profile's findings (MgFinding), worst first. */
GPtrArray *mg_audit_profile(const MgAuditInput *input);
/* A fix macguised keeps in a profile whose own macguise.harden is yes: one
 * `harden` applies (not advice) to NetworkManager's IP and name-service
 * settings. macguise's own keys and the cloned address stay the user's
 * and the address decisions' business. */
gboolean mg_finding_kept(const MgFinding *f);
/* The one global finding: Wi-Fi scans with the card's own address. */
MgFinding *mg_audit_scan_randomization(void);
/* NetworkManager's log @level (GetLogging's, "INFO" by default) names the
 * addresses it sets; NULL when it is quiet enough (WARN and above), or
 * @level is unknown (NULL). */
MgFinding *mg_audit_nm_logging(const char *level);
/* avahi-daemon runs: it announces the host name on every network. */
MgFinding *mg_audit_avahi(void);
/* What a NetworkManager-made address (random, stable, stable-ssid) shows
 * under @mask (generate-mac-address-mask, or NULL). */
MgNmMacLook mg_nm_mac_look(const char *mask);
/* What wpa_supplicant does about WPS for the access point @input describes. */
MgApWps mg_ap_wps(const MgAuditInput *input);
/* @cloned (a cloned-mac-address value) is one of NetworkManager's own
 * choices: random, stable or stable-ssid. */
gboolean mg_nm_mac_is_choice(const char *cloned);

G_END_DECLS
