/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The pure parts of the pre-up link check: probe frames, what received
 * frames mean, verdicts and their evidence, and the dispatcher's
 * environment. */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-error.h"
#include "mg-paths.h"
#include "mg-hook-env.h"
#include "mg-hook-started.h"
#include "mg-own-frames.h"
#include "mg-probe.h"
#include "mg-verdict.h"

static const guint8 ours_ip[4] = { 10, 77, 0, 2 };
static const guint8 other_mac[6] = { 0x00, 0x1b, 0x21, 0x0a, 0x0b, 0x0c };

static void
make_target(MgProbeTarget *t)
{
	MgMac mac;
	g_assert_true(mg_mac_parse("8c:f8:c5:01:02:03", &mac, NULL));
	mg_probe_target_init(t, &mac);
	memcpy(t->nonce, ((const guint8[6]){ 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6 }), 6);
	g_assert_true(mg_probe_target_add_ipv4(t, ours_ip));
}

/* An RFC 1071 sum written out again, over pseudo-header and message. */
static guint16
ones_sum(const guint8 *frame, gsize icmp_len)
{
	guint32 sum = 0;
	guint8 pseudo[40] = { 0 };

	memcpy(pseudo, frame + 22, 32);
	pseudo[35] = (guint8)icmp_len;
	pseudo[39] = 58;
	for (gsize i = 0; i < sizeof(pseudo); i += 2)
		sum += (guint32)(pseudo[i] << 8 | pseudo[i + 1]);
	for (gsize i = 0; i < icmp_len; i += 2)
		sum += (guint32)(frame[54 + i] << 8 | (i + 1 < icmp_len ? frame[55 + i] : 0));
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (guint16)sum;
}

static void
test_probe_eui64(void)
{
	static const guint8 expected[16] = { 0xfe, 0x80, 0,    0,    0,    0, 0, 0,
					     0x8e, 0xf8, 0xc5, 0xff, 0xfe, 1, 2, 3 };
	guint8 global[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1 };
	MgProbeTarget t;

	make_target(&t);
	g_assert_cmpmem(t.link_local, 16, expected, 16);
	memcpy(global + 8, expected + 8, 8);
	g_assert_true(mg_ipv6_is_eui64_of(global, &t.mac));
	global[15] ^= 1;
	g_assert_false(mg_ipv6_is_eui64_of(global, &t.mac));
}

static void
test_probe_ns_frame(void)
{
	static const guint8 group[16] = { 0xff, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 1, 2, 3 };
	guint8 f[MG_PROBE_FRAME_MAX];
	MgProbeTarget t;
	gsize len;

	make_target(&t);
	len = mg_probe_build_ns(&t, f);
	g_assert_cmpuint(len, ==, 14 + 40 + 24 + 8);
	g_assert_cmpmem(f, 6, ((const guint8[]){ 0x33, 0x33, 0xff, 1, 2, 3 }), 6);
	g_assert_cmpmem(f + 6, 6, t.mac.octet, 6);
	g_assert_cmpuint(f[12] << 8 | f[13], ==, 0x86dd);
	g_assert_cmpuint(f[14] >> 4, ==, 6);
	g_assert_cmpuint(f[18] << 8 | f[19], ==, 32); /* payload: the NS and its nonce */
	g_assert_cmpuint(f[20], ==, 58);
	g_assert_cmpuint(f[21], ==, 255);
	g_assert_cmpmem(f + 22, 16, ((const guint8[16]){ 0 }), 16); /* from :: */
	g_assert_cmpmem(f + 38, 16, group, 16);
	g_assert_cmpuint(f[54], ==, 135);
	g_assert_cmpmem(f + 62, 16, t.link_local, 16);
	/* RFC 7527's nonce option, as Linux's own DAD sends it */
	g_assert_cmpuint(f[78], ==, 14);
	g_assert_cmpuint(f[79], ==, 1);
	g_assert_cmpmem(f + 80, 6, t.nonce, 6);
	g_assert_cmpuint(ones_sum(f, 32), ==, 0xffff);
}

static void
test_probe_arp_frame(void)
{
	guint8 f[MG_PROBE_FRAME_MAX];
	MgProbeTarget t;

	make_target(&t);
	g_assert_cmpuint(mg_probe_build_arp(&t, 0, f), ==, MG_FRAME_MIN_LEN);
	g_assert_cmpmem(f, 6, ((const guint8[]){ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }), 6);
	g_assert_cmpuint(f[12] << 8 | f[13], ==, 0x0806);
	g_assert_cmpuint(f[20] << 8 | f[21], ==, 1);
	g_assert_cmpmem(f + 22, 6, t.mac.octet, 6);
	g_assert_cmpmem(f + 28, 4, ((const guint8[4]){ 0 }), 4); /* sender IP 0.0.0.0 */
	g_assert_cmpmem(f + 32, 6, ((const guint8[6]){ 0 }), 6);
	g_assert_cmpmem(f + 38, 4, ours_ip, 4);
	/* repeats are one address; the table is bounded */
	g_assert_true(mg_probe_target_add_ipv4(&t, ours_ip));
	g_assert_cmpuint(t.n_ipv4, ==, 1);
	for (guint i = 1; i < MG_PROBE_MAX_IPV4; i++)
		g_assert_true(
		    mg_probe_target_add_ipv4(&t, (const guint8[4]){ 10, 0, 0, (guint8)i }));
	g_assert_false(mg_probe_target_add_ipv4(&t, (const guint8[4]){ 10, 1, 1, 1 }));
}

/* A Neighbour Advertisement or Solicitation as another station sends it. */
static gsize
nd_from(const MgProbeTarget *t, guint8 type, gboolean unspecified, guint8 hops, guint8 *f)
{
	gsize len = mg_probe_build_ns(t, f);
	memcpy(f + 6, other_mac, 6);
	f[85] ^= 0xff; /* its own nonce */
	f[21] = hops;
	f[54] = type;
	if (!unspecified)
		f[22] = 0xfe, f[23] = 0x80, f[37] = 9;
	return len;
}

static gsize
arp_from(const MgProbeTarget *t, const guint8 *sha, guint16 op, const guint8 *spa, guint8 *f)
{
	gsize len = mg_probe_build_arp(t, 0, f);
	memcpy(f + 6, sha, 6);
	memcpy(f + 22, sha, 6);
	f[21] = (guint8)op;
	memcpy(f + 28, spa, 4);
	return len;
}

static void
test_probe_classify(void)
{
	static const guint8 zero_ip[4] = { 0 };
	static const guint8 another_ip[4] = { 10, 77, 0, 9 };
	guint8 f[MG_PROBE_FRAME_MAX];
	MgProbeTarget t;
	gsize len;

	make_target(&t);
	/* Our own probes look like another station's with our address: which
	 * is why the hook drops exact copies of what it sent (reflections);
	 * a DAD probe with our nonce is ours in any case (RFC 7527). */
	len = mg_probe_build_ns(&t, f);
	g_assert_cmpint(mg_probe_classify(&t, f, len), ==, MG_FINDING_SAME_SOURCE);
	len = mg_probe_build_arp(&t, 0, f);
	g_assert_cmpint(
	    mg_probe_classify(&t, f, len), ==, MG_FINDING_SAME_SOURCE | MG_FINDING_ARP_SAME_HW);

	len = nd_from(&t, 136, FALSE, 255, f);
	g_assert_cmpint(mg_probe_classify(&t, f, len), ==, MG_FINDING_NA);
	len = nd_from(&t, 136, FALSE, 64, f); /* not from the link itself */
	g_assert_cmpint(mg_probe_classify(&t, f, len), ==, 0);
	len = nd_from(&t, 135, TRUE, 255, f);
	g_assert_cmpint(mg_probe_classify(&t, f, len), ==, MG_FINDING_NS_DAD);
	memcpy(f + 80, t.nonce, 6); /* ours, looped back by the network */
	g_assert_cmpint(mg_probe_classify(&t, f, len), ==, 0);
	len -= 8; /* no nonce at all */
	g_assert_cmpint(mg_probe_classify(&t, f, len), ==, MG_FINDING_NS_DAD);
	len = nd_from(&t, 135, FALSE, 255, f); /* plain address resolution */
	g_assert_cmpint(mg_probe_classify(&t, f, len), ==, 0);
	len = nd_from(&t, 136, FALSE, 255, f);
	f[77] ^= 1; /* another target */
	g_assert_cmpint(mg_probe_classify(&t, f, len), ==, 0);

	len = arp_from(&t, t.mac.octet, 2, ours_ip, f);
	g_assert_cmpint(
	    mg_probe_classify(&t, f, len), ==, MG_FINDING_ARP_SAME_HW | MG_FINDING_SAME_SOURCE);
	memcpy(f + 6, other_mac, 6); /* our address inside, another outside */
	g_assert_cmpint(mg_probe_classify(&t, f, len), ==, MG_FINDING_ARP_SAME_HW);
	len = arp_from(&t, other_mac, 2, ours_ip, f);
	g_assert_cmpint(mg_probe_classify(&t, f, len), ==, MG_FINDING_ARP_IP_IN_USE);
	len = arp_from(&t, other_mac, 1, zero_ip, f); /* someone else probes for our IP */
	g_assert_cmpint(mg_probe_classify(&t, f, len), ==, MG_FINDING_ARP_IP_IN_USE);
	len = arp_from(&t, other_mac, 1, another_ip, f);
	f[41] = 1; /* asks for someone else */
	g_assert_cmpint(mg_probe_classify(&t, f, len), ==, 0);
	f[21] = 3; /* RARP: not ours to judge */
	g_assert_cmpint(mg_probe_classify(&t, f, len), ==, 0);

	/* Every truncation of an answer short of its target: no finding beyond
	 * the source (the nonce option after it is optional). */
	len = nd_from(&t, 136, FALSE, 255, f);
	g_assert_cmpuint(len, ==, 86);
	for (gsize n = 0; n < 78; n++)
		g_assert_cmpint(mg_probe_classify(&t, f, n) & ~MG_FINDING_SAME_SOURCE, ==, 0);
	len = arp_from(&t, other_mac, 2, ours_ip, f);
	for (gsize n = 0; n < 42; n++)
		g_assert_cmpint(mg_probe_classify(&t, f, n), ==, 0);
	g_assert_cmpint(mg_probe_classify(&t, NULL, 0), ==, 0);
}

static void
assert_no_address(const MgProbeTarget *t, const char *evidence)
{
	g_autofree char *mac = mg_mac_to_string(&t->mac);
	g_autofree char *lower = g_ascii_strdown(evidence, -1);
	g_assert_null(strstr(lower, mac));
	g_assert_null(strstr(lower, "8ef8:c5ff:fe01:203"));
	g_assert_null(strstr(lower, "8cf8c5"));
	g_assert_true(mg_evidence_is_valid(evidence));
}

static void
test_probe_verdict(void)
{
	MgProbeTarget t;
	static const MgProbeTally quiet = { 0 };
	static const MgProbeTally passive = { .same_source = 3 };
	static const MgProbeTally na = { .na = 1 };
	static const MgProbeTally dad = { .ns_dad = 1 };
	static const MgProbeTally kernel = { .kernel_dad_failed = TRUE };
	static const MgProbeTally arp = { .arp_same_hw = 2, .same_source = 2 };
	static const MgProbeTally ip_only = { .arp_ip_in_use = 1, .kernel_dad_failed_other = TRUE };
	static const struct {
		const MgProbeTally *tally;
		MgProbeKinds enabled;
		MgVerdict verdict;
		const char *says;
	} cases[] = {
		{ &quiet, MG_PROBE_ALL, MG_VERDICT_CLEAN, "in 200 ms (probes passive;ipv6;arp" },
		{ &passive, MG_PROBE_ALL, MG_VERDICT_CONFLICT, "passive: 3 frames" },
		{ &passive, MG_PROBE_IPV6 | MG_PROBE_ARP, MG_VERDICT_CLEAN, "probes ipv6;arp" },
		{ &na, MG_PROBE_IPV6, MG_VERDICT_CONFLICT, "ipv6: 1 neighbour advertisement" },
		{ &na, MG_PROBE_PASSIVE | MG_PROBE_ARP, MG_VERDICT_CLEAN, "nothing else" },
		{ &dad, MG_PROBE_ALL, MG_VERDICT_CONFLICT, "1 duplicate address probe" },
		{ &kernel, MG_PROBE_ALL, MG_VERDICT_CONFLICT, "kernel's duplicate address" },
		{ &kernel, MG_PROBE_ARP, MG_VERDICT_CLEAN, "nothing else" },
		{ &arp, MG_PROBE_ARP, MG_VERDICT_CONFLICT, "arp: 2 ARP messages" },
		{ &arp, MG_PROBE_IPV6, MG_VERDICT_CLEAN, "nothing else" },
		{ &ip_only, MG_PROBE_ALL, MG_VERDICT_CLEAN, "an IP conflict, not a MAC one" },
	};

	make_target(&t);
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *evidence = NULL;
		MgVerdict v =
		    mg_probe_tally_verdict(cases[i].tally, cases[i].enabled, 1, 200, &evidence);
		if (v != cases[i].verdict || strstr(evidence, cases[i].says) == NULL)
			g_error("case %u: %s, '%s'", i, mg_verdict_to_string(v), evidence);
		assert_no_address(&t, evidence);
	}
	/* Only conflicts it would act on count, and only those of enabled probes. */
	{
		MgProbeTally all = { 0 };
		g_autofree char *evidence = NULL;
		mg_probe_tally_add(&all, MG_FINDING_NA | MG_FINDING_SAME_SOURCE);
		mg_probe_tally_add(&all, MG_FINDING_ARP_SAME_HW);
		g_assert_cmpuint(all.na, ==, 1);
		g_assert_cmpuint(all.same_source, ==, 1);
		g_assert_cmpuint(all.arp_same_hw, ==, 1);
		g_assert_cmpint(mg_probe_tally_verdict(&all, MG_PROBE_ALL, 1, 200, &evidence),
				==,
				MG_VERDICT_CONFLICT);
		g_assert_nonnull(strstr(evidence, "passive: 1 frame from"));
		g_assert_nonnull(strstr(evidence, "; ipv6: "));
		g_assert_nonnull(strstr(evidence, "; arp: 1 ARP message from"));
	}
}

static void
test_probe_kinds_for_link(void)
{
	/* Only a host whose link-local address is its EUI-64 one probes for it. */
	g_assert_cmpint(mg_probe_kinds_for_link(MG_PROBE_ALL, TRUE), ==, MG_PROBE_ALL);
	g_assert_cmpint(
	    mg_probe_kinds_for_link(MG_PROBE_ALL, FALSE), ==, MG_PROBE_PASSIVE | MG_PROBE_ARP);
	g_assert_cmpint(mg_probe_kinds_for_link(MG_PROBE_IPV6, FALSE), ==, 0);
}

static void
test_probe_kinds(void)
{
	static const struct {
		const char *text;
		MgProbeKinds kinds;
		const char *canonical;
	} good[] = {
		{ "passive;ipv6;arp", MG_PROBE_ALL, "passive;ipv6;arp" },
		{ " arp , passive ", MG_PROBE_ARP | MG_PROBE_PASSIVE, "passive;arp" },
		{ "ipv6;", MG_PROBE_IPV6, "ipv6" },
		{ "none", 0, "none" },
	};
	static const char *const bad[] = { "", ";", "ping", "arp;ARP", "none;arp" };

	for (guint i = 0; i < G_N_ELEMENTS(good); i++) {
		g_autofree char *back = NULL;
		MgProbeKinds k = 99;
		g_assert_true(mg_probe_kinds_parse(good[i].text, &k, NULL));
		g_assert_cmpint(k, ==, good[i].kinds);
		back = mg_probe_kinds_to_string(k);
		g_assert_cmpstr(back, ==, good[i].canonical);
	}
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		MgProbeKinds k = 99;
		g_assert_false(mg_probe_kinds_parse(bad[i], &k, &error));
		g_assert_error(error, MG_ERROR, MG_ERROR_CONFIG);
		g_assert_cmpint(k, ==, 99);
	}
}

static void
test_verdict_names_and_evidence(void)
{
	g_autofree char *long_text = g_strnfill(MG_EVIDENCE_MAX_LEN + 10, 'x');
	g_autofree char *long_umlauts = NULL;
	g_autofree char *s = NULL;
	MgVerdict v;

	for (MgVerdict i = MG_VERDICT_CLEAN; i <= MG_VERDICT_UNCHECKED; i++) {
		g_assert_true(mg_verdict_parse(mg_verdict_to_string(i), &v));
		g_assert_cmpint(v, ==, i);
	}
	g_assert_false(mg_verdict_parse("none", &v));
	g_assert_false(mg_verdict_parse("Clean", &v));
	g_assert_false(mg_verdict_parse(NULL, &v));

	g_assert_true(mg_evidence_is_valid(""));
	g_assert_true(mg_evidence_is_valid("Prüfung: keine Antwort"));
	g_assert_false(mg_evidence_is_valid("two\nlines"));
	g_assert_false(mg_evidence_is_valid("tab\there"));
	g_assert_false(mg_evidence_is_valid("\xff\xfe"));
	g_assert_false(mg_evidence_is_valid(long_text));
	g_assert_false(mg_evidence_is_valid(NULL));

	s = mg_evidence_sanitize("a\nb\xff");
	g_assert_true(mg_evidence_is_valid(s));
	g_assert_cmpstr(s, ==, "a b\xef\xbf\xbd");
	g_clear_pointer(&s, g_free);
	s = mg_evidence_sanitize(long_text);
	g_assert_cmpuint(strlen(s), ==, MG_EVIDENCE_MAX_LEN);
	g_clear_pointer(&s, g_free);
	/* cut between characters, never inside one */
	long_umlauts = g_strconcat(long_text, "ü", NULL);
	s = mg_evidence_sanitize(long_umlauts + 11);
	g_assert_true(mg_evidence_is_valid(s));
	g_assert_cmpuint(strlen(s), ==, MG_EVIDENCE_MAX_LEN - 1);
}

static void
test_hook_env(void)
{
	const char *argv[] = { "hook", "veth0", "pre-up", NULL };
	const char *env[] = { "PATH=/bin",
			      "NM_DISPATCHER_ACTION=pre-up",
			      "DEVICE_IFACE=veth0",
			      "CONNECTION_UUID=0b6f3c2e-5a1d-4e8a-9f00-123456789abc",
			      "IP4_ADDRESS_0=10.77.0.2/24 10.77.0.1",
			      "IP4_ADDRESS_1=192.168.1.5/24 0.0.0.0",
			      "IP4_ADDRESS_3=172.16.0.1/16 0.0.0.0", /* after a gap: not read */
			      "IP4_NUM_ADDRESSES=2",
			      MG_HOOK_STARTED_ENV "=123456789",
			      NULL };
	g_autoptr(GError) error = NULL;
	MgHookRequest r;

	g_assert_true(mg_hook_request_parse(&r, 3, argv, env, &error));
	g_assert_no_error(error);
	g_assert_true(mg_hook_request_wants_check(&r));
	g_assert_cmpstr(r.iface, ==, "veth0");
	g_assert_cmpstr(r.uuid, ==, "0b6f3c2e-5a1d-4e8a-9f00-123456789abc");
	g_assert_cmpuint(r.n_ipv4, ==, 2);
	g_assert_cmpmem(r.ipv4[0], 4, ((const guint8[]){ 10, 77, 0, 2 }), 4);
	g_assert_cmpmem(r.ipv4[1], 4, ((const guint8[]){ 192, 168, 1, 5 }), 4);
	/* The front's note of the hook's start. */
	g_assert_cmpint(r.started_us, ==, 123456789);
	mg_hook_request_clear(&r);

	/* Other events are fine and need nothing else. */
	{
		const char *e[] = { "NM_DISPATCHER_ACTION=up", "DEVICE_IFACE=../x", NULL };
		g_assert_true(mg_hook_request_parse(&r, 0, NULL, e, NULL));
		g_assert_false(mg_hook_request_wants_check(&r));
		mg_hook_request_clear(&r);
	}
	/* The action and interface fall back to argv; no UUID: nothing to check. */
	{
		const char *e[] = { NULL };
		g_assert_true(mg_hook_request_parse(&r, 3, argv, e, NULL));
		g_assert_true(mg_hook_request_wants_check(&r));
		g_assert_cmpstr(r.iface, ==, "veth0");
		g_assert_null(r.uuid);
		g_assert_cmpint(r.started_us, ==, 0);
		mg_hook_request_clear(&r);
	}
	/* A bad note is ours: ignored, not an error. */
	{
		const char *e[] = { MG_HOOK_STARTED_ENV "=soon", NULL };
		g_assert_true(mg_hook_request_parse(&r, 3, argv, e, NULL));
		g_assert_cmpint(r.started_us, ==, 0);
		mg_hook_request_clear(&r);
	}
}

static void
test_hook_env_bad(void)
{
	static const struct {
		const char *var;
		const char *message;
	} cases[] = {
		{ "DEVICE_IFACE=", "DEVICE_IFACE" },
		{ "DEVICE_IFACE=../../etc", "DEVICE_IFACE" },
		{ "DEVICE_IFACE=averyveryverylongname", "DEVICE_IFACE" },
		{ "DEVICE_IFACE=eth 0", "DEVICE_IFACE" },
		{ "CONNECTION_UUID=$(reboot)", "CONNECTION_UUID" },
		{ "IP4_ADDRESS_0=10.77.0/24 0.0.0.0", "IP4_ADDRESS_0" },
		{ "IP4_ADDRESS_0=10.77.0.256/24 0.0.0.0", "IP4_ADDRESS_0" },
		{ "IP4_ADDRESS_0=10.77..2/24", "IP4_ADDRESS_0" },
		{ "IP4_ADDRESS_0=", "IP4_ADDRESS_0" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *env[] = { cases[i].var,
				      "NM_DISPATCHER_ACTION=pre-up",
				      "DEVICE_IFACE=veth0",
				      "CONNECTION_UUID=0b6f3c2e-5a1d-4e8a-9f00-123456789abc",
				      NULL };
		g_autoptr(GError) error = NULL;
		MgHookRequest r;
		/* the first definition wins, as getenv() would have it */
		g_assert_false(mg_hook_request_parse(&r, 0, NULL, env, &error));
		g_assert_error(error, MG_ERROR, MG_ERROR_HOOK_ENV);
		if (strstr(error->message, cases[i].message) == NULL)
			g_error("case %u: '%s'", i, error->message);
		mg_hook_request_clear(&r);
	}
	g_assert_true(mg_iface_name_is_valid("wlp0s20f3"));
	g_assert_true(mg_iface_name_is_valid("enx001122334455"));
	g_assert_false(mg_iface_name_is_valid(".."));
	g_assert_false(mg_iface_name_is_valid("a/b"));
	g_assert_false(mg_iface_name_is_valid("a:b"));
	g_assert_false(mg_iface_name_is_valid(NULL));
}

/* A copy of the machine's own broadcast, as an access point repeats it, is
 * told from another station's frame: the same bytes as far as both go (the
 * copy may come padded), within two seconds; its own unicast is never
 * repeated, so never noted. */
static void
test_own_frames(void)
{
	guint8 arp[42] = { 0 }, padded[60] = { 0 }, other[42] = { 0 };
	MgOwnFrames own = { 0 };
	const gint64 t = 1000 * G_USEC_PER_SEC;

	memset(arp, 0xff, 6);
	memcpy(arp + 6, (const guint8[]){ 0x8c, 0xf8, 0xc5, 1, 2, 3 }, 6);
	for (gsize i = 12; i < sizeof(arp); i++)
		arp[i] = (guint8)i;
	memset(padded, 0, sizeof(padded));
	memcpy(padded, arp, sizeof(arp));
	memcpy(other, arp, sizeof(other));
	other[30] ^= 1; /* another station's request from the same address */
	g_assert_false(mg_own_frames_is_copy(&own, arp, sizeof(arp), t));
	mg_own_frames_note(&own, arp, sizeof(arp), t);
	g_assert_true(mg_own_frames_is_copy(&own, arp, sizeof(arp), t + 1));
	g_assert_true(mg_own_frames_is_copy(&own, padded, sizeof(padded), t + 1));
	g_assert_false(mg_own_frames_is_copy(&own, other, sizeof(other), t + 1));
	g_assert_false(mg_own_frames_is_copy(&own, arp, 12, t + 1)); /* no header */
	g_assert_false(mg_own_frames_is_copy(&own, arp, sizeof(arp), t + MG_OWN_FRAMES_FOR_US + 1));
	/* unicast is not noted */
	memcpy(other, (const guint8[]){ 0x00, 0x1b, 0x21, 9, 9, 9 }, 6);
	mg_own_frames_note(&own, other, sizeof(other), t);
	g_assert_false(mg_own_frames_is_copy(&own, other, sizeof(other), t + 1));
	/* the oldest goes once as many newer ones are noted */
	for (guint i = 0; i < MG_OWN_FRAMES_KEPT; i++) {
		padded[40] = (guint8)i;
		padded[41] = 0xaa;
		mg_own_frames_note(&own, padded, sizeof(padded), t + 2);
	}
	g_assert_false(mg_own_frames_is_copy(&own, arp, sizeof(arp), t + 3));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/probe/eui64", test_probe_eui64);
	g_test_add_func("/probe/ns-frame", test_probe_ns_frame);
	g_test_add_func("/probe/arp-frame", test_probe_arp_frame);
	g_test_add_func("/probe/classify", test_probe_classify);
	g_test_add_func("/probe/verdict", test_probe_verdict);
	g_test_add_func("/probe/kinds", test_probe_kinds);
	g_test_add_func("/probe/own-frames", test_own_frames);
	g_test_add_func("/probe/kinds-for-link", test_probe_kinds_for_link);
	g_test_add_func("/verdict/names-and-evidence", test_verdict_names_and_evidence);
	g_test_add_func("/hook-env/parse", test_hook_env);
	g_test_add_func("/hook-env/bad", test_hook_env_bad);
	return g_test_run();
}
