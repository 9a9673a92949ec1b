/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-probe.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* Offsets into an Ethernet frame (no VLAN tag: the kernel hands those to
 * packet sockets with the tag taken off). */
enum {
	ETH_DST = 0,
	ETH_SRC = 6,
	ETH_TYPE = 12,
	ETH_HDR = 14,
	/* IPv6 */
	IP6_PLEN = ETH_HDR + 4,
	IP6_NEXT = ETH_HDR + 6,
	IP6_HOPS = ETH_HDR + 7,
	IP6_SRC = ETH_HDR + 8,
	IP6_DST = ETH_HDR + 24,
	ICMP6 = ETH_HDR + 40,
	ICMP6_TARGET = ICMP6 + 8,
	ND_END = ICMP6_TARGET + 16,
	ND_NONCE = ND_END, /* RFC 7527 §4.2: type 14, length 1 (8 octets), 6 of nonce */
	ND_DAD_END = ND_NONCE + 8,
	/* ARP for IPv4 over Ethernet */
	ARP_OP = ETH_HDR + 6,
	ARP_SHA = ETH_HDR + 8,
	ARP_SPA = ETH_HDR + 14,
	ARP_THA = ETH_HDR + 18,
	ARP_TPA = ETH_HDR + 24,
	ARP_END = ETH_HDR + 28,
};

#define ETHERTYPE_IPV4_ 0x0800
#define ETHERTYPE_ARP_ 0x0806
#define ETHERTYPE_IPV6_ 0x86dd
#define ICMP6_NS 135
#define ICMP6_NA 136
#define ND_OPT_NONCE 14
#define IPPROTO_ICMPV6_ 58

G_STATIC_ASSERT(ND_DAD_END <= MG_PROBE_FRAME_MAX);

static void
put16(guint8 *p, guint16 v)
{
	p[0] = (guint8)(v >> 8);
	p[1] = (guint8)v;
}

static guint16
get16(const guint8 *p)
{
	return (guint16)((p[0] << 8) | p[1]);
}

void
mg_eui64_link_local(const MgMac *mac, guint8 out[16])
{
	memset(out, 0, 16);
	out[0] = 0xfe;
	out[1] = 0x80;
	out[8] = mac->octet[0] ^ 0x02;
	out[9] = mac->octet[1];
	out[10] = mac->octet[2];
	out[11] = 0xff;
	out[12] = 0xfe;
	out[13] = mac->octet[3];
	out[14] = mac->octet[4];
	out[15] = mac->octet[5];
}

gboolean
mg_ipv6_is_eui64_of(const guint8 addr[16], const MgMac *mac)
{
	guint8 ll[16];
	mg_eui64_link_local(mac, ll);
	return memcmp(addr + 8, ll + 8, 8) == 0;
}

void
mg_probe_target_init(MgProbeTarget *target, const MgMac *mac)
{
	memset(target, 0, sizeof(*target));
	target->mac = *mac;
	mg_eui64_link_local(mac, target->link_local);
}

gboolean
mg_probe_target_add_ipv4(MgProbeTarget *target, const guint8 addr[4])
{
	for (guint i = 0; i < target->n_ipv4; i++) {
		if (memcmp(target->ipv4[i], addr, 4) == 0)
			return TRUE;
	}
	if (target->n_ipv4 == MG_PROBE_MAX_IPV4)
		return FALSE;
	memcpy(target->ipv4[target->n_ipv4++], addr, 4);
	return TRUE;
}

static gboolean
mg_probe_has_ipv4(const MgProbeTarget *target, const guint8 *addr)
{
	for (guint i = 0; i < target->n_ipv4; i++) {
		if (memcmp(target->ipv4[i], addr, 4) == 0)
			return TRUE;
	}
	return FALSE;
}

/* RFC 4443 §2.3: over the pseudo-header and the ICMPv6 message. */
static guint16
mg_icmp6_checksum(const guint8 *frame, gsize icmp_len)
{
	guint32 sum = 0;

	for (gsize i = 0; i < 32; i += 2)
		sum += get16(frame + IP6_SRC + i);
	sum += (guint32)icmp_len;
	sum += IPPROTO_ICMPV6_;
	for (gsize i = 0; i + 1 < icmp_len; i += 2)
		sum += get16(frame + ICMP6 + i);
	if (icmp_len % 2)
		sum += (guint32)frame[ICMP6 + icmp_len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (guint16)~sum;
}

gsize
mg_probe_build_ns(const MgProbeTarget *target, guint8 frame[MG_PROBE_FRAME_MAX])
{
	const guint8 *t = target->link_local;
	const guint8 group[16] = { 0xff, 0x02, 0, 0,    0,    0,     0,     0,
				   0,    0,    0, 0x01, 0xff, t[13], t[14], t[15] };

	memset(frame, 0, MG_PROBE_FRAME_MAX);
	/* RFC 2464 §7: 33:33 and the group's last four octets. */
	frame[ETH_DST] = 0x33;
	frame[ETH_DST + 1] = 0x33;
	memcpy(frame + ETH_DST + 2, group + 12, 4);
	memcpy(frame + ETH_SRC, target->mac.octet, MG_MAC_LEN);
	put16(frame + ETH_TYPE, ETHERTYPE_IPV6_);
	frame[ETH_HDR] = 0x60;
	put16(frame + IP6_PLEN, ND_DAD_END - ICMP6);
	frame[IP6_NEXT] = IPPROTO_ICMPV6_;
	frame[IP6_HOPS] = 255;
	/* the source stays ::, as DAD requires */
	memcpy(frame + IP6_DST, group, 16);
	frame[ICMP6] = ICMP6_NS;
	memcpy(frame + ICMP6_TARGET, t, 16);
	/* Linux's own DAD carries a nonce (enhanced_dad, on by default), so a
	 * probe without one would stand out. */
	frame[ND_NONCE] = ND_OPT_NONCE;
	frame[ND_NONCE + 1] = 1;
	memcpy(frame + ND_NONCE + 2, target->nonce, sizeof(target->nonce));
	put16(frame + ICMP6 + 2, mg_icmp6_checksum(frame, ND_DAD_END - ICMP6));
	return ND_DAD_END;
}

gsize
mg_probe_build_arp(const MgProbeTarget *target, guint index, guint8 frame[MG_PROBE_FRAME_MAX])
{
	g_return_val_if_fail(index < target->n_ipv4, 0);
	memset(frame, 0, MG_PROBE_FRAME_MAX);
	memset(frame + ETH_DST, 0xff, MG_MAC_LEN);
	memcpy(frame + ETH_SRC, target->mac.octet, MG_MAC_LEN);
	put16(frame + ETH_TYPE, ETHERTYPE_ARP_);
	put16(frame + ETH_HDR, 1); /* Ethernet */
	put16(frame + ETH_HDR + 2, ETHERTYPE_IPV4_);
	frame[ETH_HDR + 4] = MG_MAC_LEN;
	frame[ETH_HDR + 5] = 4;
	put16(frame + ARP_OP, 1); /* request */
	memcpy(frame + ARP_SHA, target->mac.octet, MG_MAC_LEN);
	/* sender IP and target hardware address stay zero: a probe */
	memcpy(frame + ARP_TPA, target->ipv4[index], 4);
	return MG_FRAME_MIN_LEN;
}

/* RFC 7527 §4.3: a DAD probe with our nonce is our own, looped back. */
static gboolean
mg_probe_is_own_nonce(const MgProbeTarget *target, const guint8 *frame, gsize len)
{
	return len >= ND_DAD_END && frame[ND_NONCE] == ND_OPT_NONCE && frame[ND_NONCE + 1] == 1 &&
	       memcmp(frame + ND_NONCE + 2, target->nonce, sizeof(target->nonce)) == 0;
}

MgProbeKinds
mg_probe_kinds_for_link(MgProbeKinds enabled, gboolean eui64_link_local)
{
	/* A host whose link-local address is not its EUI-64 one never sends
	 * DAD for that address: the probe would name the machine. */
	return eui64_link_local ? enabled : enabled & ~MG_PROBE_IPV6;
}

static MgFindings
mg_probe_classify_nd(const MgProbeTarget *target, const guint8 *frame, gsize len)
{
	static const guint8 unspecified[16] = { 0 };

	if (len < ND_END || (frame[ETH_HDR] >> 4) != 6 || frame[IP6_NEXT] != IPPROTO_ICMPV6_ ||
	    frame[IP6_HOPS] != 255 || frame[ICMP6 + 1] != 0 ||
	    memcmp(frame + ICMP6_TARGET, target->link_local, 16) != 0)
		return 0;
	if (frame[ICMP6] == ICMP6_NA)
		return MG_FINDING_NA;
	if (frame[ICMP6] == ICMP6_NS && memcmp(frame + IP6_SRC, unspecified, 16) == 0 &&
	    !mg_probe_is_own_nonce(target, frame, len))
		return MG_FINDING_NS_DAD;
	return 0;
}

static MgFindings
mg_probe_classify_arp(const MgProbeTarget *target, const guint8 *frame, gsize len)
{
	guint16 op;

	if (len < ARP_END || get16(frame + ETH_HDR) != 1 ||
	    get16(frame + ETH_HDR + 2) != ETHERTYPE_IPV4_ || frame[ETH_HDR + 4] != MG_MAC_LEN ||
	    frame[ETH_HDR + 5] != 4)
		return 0;
	op = get16(frame + ARP_OP);
	if (op != 1 && op != 2)
		return 0;
	if (memcmp(frame + ARP_SHA, target->mac.octet, MG_MAC_LEN) == 0)
		return MG_FINDING_ARP_SAME_HW;
	/* Someone else sends from, or (RFC 5227 §2.1.1) probes for, an address
	 * of ours: an IPv4 conflict, which is not a MAC one. */
	if (mg_probe_has_ipv4(target, frame + ARP_SPA) ||
	    (op == 1 && get16(frame + ARP_SPA) == 0 && get16(frame + ARP_SPA + 2) == 0 &&
	     mg_probe_has_ipv4(target, frame + ARP_TPA) &&
	     memcmp(frame + ARP_THA, (const guint8[MG_MAC_LEN]){ 0 }, MG_MAC_LEN) == 0))
		return MG_FINDING_ARP_IP_IN_USE;
	return 0;
}

MgFindings
mg_probe_classify(const MgProbeTarget *target, const guint8 *frame, gsize len)
{
	MgFindings found = 0;

	if (frame == NULL || len < ETH_HDR)
		return 0;
	if (memcmp(frame + ETH_SRC, target->mac.octet, MG_MAC_LEN) == 0)
		found |= MG_FINDING_SAME_SOURCE;
	switch (get16(frame + ETH_TYPE)) {
	case ETHERTYPE_IPV6_:
		found |= mg_probe_classify_nd(target, frame, len);
		break;
	case ETHERTYPE_ARP_:
		found |= mg_probe_classify_arp(target, frame, len);
		break;
	default:
		break;
	}
	return found;
}

void
mg_probe_tally_add(MgProbeTally *tally, MgFindings findings)
{
	tally->same_source += (findings & MG_FINDING_SAME_SOURCE) != 0;
	tally->na += (findings & MG_FINDING_NA) != 0;
	tally->ns_dad += (findings & MG_FINDING_NS_DAD) != 0;
	tally->arp_same_hw += (findings & MG_FINDING_ARP_SAME_HW) != 0;
	tally->arp_ip_in_use += (findings & MG_FINDING_ARP_IP_IN_USE) != 0;
}

static void
mg_evidence_add(GString *s, const char *part)
{
	if (s->len > 0)
		g_string_append(s, "; ");
	g_string_append(s, part);
}

/* What says another station uses the address; TRUE if anything does. */
static gboolean
mg_probe_conflict_evidence(GString *s, const MgProbeTally *tally, MgProbeKinds enabled)
{
	gboolean conflict = FALSE;

	if ((enabled & MG_PROBE_PASSIVE) && tally->same_source > 0) {
		g_autofree char *part =
		    g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
						"passive: %u frame from another station with "
						"this address",
						"passive: %u frames from another station with "
						"this address",
						tally->same_source),
				    tally->same_source);
		mg_evidence_add(s, part);
		conflict = TRUE;
	}
	if ((enabled & MG_PROBE_IPV6) && tally->na > 0) {
		g_autofree char *part = g_strdup_printf(
		    g_dngettext(
			GETTEXT_PACKAGE,
			"ipv6: %u neighbour advertisement for the EUI-64 link-local address",
			"ipv6: %u neighbour advertisements for the EUI-64 link-local address",
			tally->na),
		    tally->na);
		mg_evidence_add(s, part);
		conflict = TRUE;
	}
	if ((enabled & MG_PROBE_IPV6) && tally->ns_dad > 0) {
		g_autofree char *part = g_strdup_printf(
		    g_dngettext(
			GETTEXT_PACKAGE,
			"ipv6: %u duplicate address probe by another station for the EUI-64 "
			"link-local address",
			"ipv6: %u duplicate address probes by another station for the EUI-64 "
			"link-local address",
			tally->ns_dad),
		    tally->ns_dad);
		mg_evidence_add(s, part);
		conflict = TRUE;
	}
	if ((enabled & MG_PROBE_IPV6) && tally->kernel_dad_failed) {
		mg_evidence_add(s,
				_("ipv6: the kernel's duplicate address detection failed for the "
				  "EUI-64 link-local address"));
		conflict = TRUE;
	}
	if ((enabled & MG_PROBE_ARP) && tally->arp_same_hw > 0) {
		g_autofree char *part = g_strdup_printf(
		    g_dngettext(GETTEXT_PACKAGE,
				"arp: %u ARP message from a station with this hardware address",
				"arp: %u ARP messages from a station with this hardware address",
				tally->arp_same_hw),
		    tally->arp_same_hw);
		mg_evidence_add(s, part);
		conflict = TRUE;
	}
	return conflict;
}

/* What is worth saying though it is no MAC conflict. */
static void
mg_probe_notes(GString *s, const MgProbeTally *tally, MgProbeKinds enabled)
{
	/* Worth saying, though a new MAC address does not cure them. */
	if ((enabled & MG_PROBE_ARP) && tally->arp_ip_in_use > 0)
		mg_evidence_add(s,
				_("note: another station uses an IPv4 address of this link (an IP "
				  "conflict, not a MAC one)"));
	if ((enabled & MG_PROBE_IPV6) && tally->kernel_dad_failed_other)
		mg_evidence_add(s,
				_("note: an IPv6 address of this link failed duplicate address "
				  "detection (an IP conflict, not a MAC one)"));
	if (tally->flooded) {
		g_autofree char *part = g_strdup_printf(
		    _("note: the link was flooded; the check stopped after %u frames"),
		    tally->frames_read);
		mg_evidence_add(s, part);
	}
}

MgVerdict
mg_probe_tally_verdict(
    const MgProbeTally *tally, MgProbeKinds enabled, guint n_ipv4, guint window_ms, char **evidence)
{
	g_autoptr(GString) s = g_string_new(NULL);
	gboolean conflict;

	conflict = mg_probe_conflict_evidence(s, tally, enabled);
	if (!conflict) {
		g_autofree char *probes = mg_probe_kinds_to_string(enabled);
		g_autofree char *part =
		    g_strdup_printf(_("nothing else used this address in %u ms (probes %s, %u IPv4 "
				      "address(es))"),
				    window_ms,
				    probes,
				    n_ipv4);
		mg_evidence_add(s, part);
	}
	mg_probe_notes(s, tally, enabled);
	*evidence = mg_evidence_sanitize(s->str);
	return conflict ? MG_VERDICT_CONFLICT : MG_VERDICT_CLEAN;
}
