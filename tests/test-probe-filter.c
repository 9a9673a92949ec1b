/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The link check's kernel socket filter, run here by a small classic-BPF
 * interpreter (the instructions it uses, with the kernel's rule that a load
 * past the frame's end drops it): it keeps every frame the classifier can
 * find evidence in, and drops the rest of a busy link. */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-probe-filter.h"
#include "mg-probe.h"

static const guint8 other_mac[6] = { 0x00, 0x1b, 0x21, 0x0a, 0x0b, 0x0c };
static const guint8 ours_ip[4] = { 10, 77, 0, 2 };

static gboolean
load(const guint8 *frame, gsize len, guint32 off, guint size, guint32 *a)
{
	if (off + size > len)
		return FALSE;
	*a = 0;
	for (guint i = 0; i < size; i++)
		*a = *a << 8 | frame[off + i];
	return TRUE;
}

/* The number of bytes the filter keeps: 0 drops the frame. */
static guint32
run_filter(const struct sock_filter *prog, guint n, const guint8 *frame, gsize len)
{
	guint32 a = 0;

	for (guint pc = 0; pc < n; pc++) {
		const struct sock_filter *i = &prog[pc];
		switch (i->code) {
		case BPF_LD | BPF_B | BPF_ABS:
			if (!load(frame, len, i->k, 1, &a))
				return 0;
			break;
		case BPF_LD | BPF_H | BPF_ABS:
			if (!load(frame, len, i->k, 2, &a))
				return 0;
			break;
		case BPF_LD | BPF_W | BPF_ABS:
			if (!load(frame, len, i->k, 4, &a))
				return 0;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == i->k ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += a >= i->k ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JSET | BPF_K:
			pc += (a & i->k) != 0 ? i->jt : i->jf;
			break;
		case BPF_RET | BPF_K:
			return i->k;
		default:
			g_assert_not_reached();
		}
	}
	g_assert_not_reached();
}

typedef struct {
	MgProbeTarget target;
	struct sock_filter prog[MG_PROBE_FILTER_LEN];
} Fixture;

static void
fixture_init(Fixture *f)
{
	MgMac mac;
	g_assert_true(mg_mac_parse("8c:f8:c5:01:02:03", &mac, NULL));
	mg_probe_target_init(&f->target, &mac);
	g_assert_true(mg_probe_target_add_ipv4(&f->target, ours_ip));
	mg_probe_filter_build(&mac, f->prog);
}

static gboolean
kept(const Fixture *f, const guint8 *frame, gsize len)
{
	return run_filter(f->prog, MG_PROBE_FILTER_LEN, frame, len) > 0;
}

/* A frame from another station: @ethertype, then @payload at byte 14. */
static gsize
other_frame(guint16 ethertype, const guint8 *payload, gsize n, guint8 frame[MG_PROBE_FRAME_MAX])
{
	memset(frame, 0, MG_PROBE_FRAME_MAX);
	memset(frame, 0xff, 6);
	memcpy(frame + 6, other_mac, 6);
	frame[12] = (guint8)(ethertype >> 8);
	frame[13] = (guint8)ethertype;
	memcpy(frame + 14, payload, MIN(n, (gsize)MG_PROBE_FRAME_MAX - 14));
	return MG_FRAME_MIN_LEN + 20;
}

static void
test_keeps_every_frame_with_evidence(void)
{
	Fixture f;
	guint8 frame[MG_PROBE_FRAME_MAX];
	gsize len;

	fixture_init(&f);
	/* Another station's duplicate address probe for our link-local. */
	len = mg_probe_build_ns(&f.target, frame);
	memcpy(frame + 6, other_mac, 6);
	frame[85] ^= 0xff; /* with its own nonce */
	g_assert_cmpint(mg_probe_classify(&f.target, frame, len), ==, MG_FINDING_NS_DAD);
	g_assert_true(kept(&f, frame, len));
	/* An advertisement of it. */
	frame[54] = 136;
	g_assert_cmpint(mg_probe_classify(&f.target, frame, len), ==, MG_FINDING_NA);
	g_assert_true(kept(&f, frame, len));
	/* An ARP message from a station with our hardware address. */
	len = mg_probe_build_arp(&f.target, 0, frame);
	memcpy(frame + 6, other_mac, 6);
	g_assert_cmpint(mg_probe_classify(&f.target, frame, len), ==, MG_FINDING_ARP_SAME_HW);
	g_assert_true(kept(&f, frame, len));
	/* Anything at all sent from our address. */
	len = other_frame(0x88b5, (const guint8 *)"macguise test", 13, frame);
	memcpy(frame + 6, f.target.mac.octet, 6);
	g_assert_cmpint(mg_probe_classify(&f.target, frame, len), ==, MG_FINDING_SAME_SOURCE);
	g_assert_true(kept(&f, frame, len));
}

static void
test_drops_what_cannot_be_evidence(void)
{
	static const guint8 ipv4_udp[20] = { 0x45, 0, 0, 40, 0, 0, 0, 0, 64, 17 };
	/* IPv6 with ICMPv6 echo (128), router advertisement (134), redirect (137) */
	static const guint8 icmp6_types[] = { 128, 134, 137 };
	Fixture f;
	guint8 frame[MG_PROBE_FRAME_MAX];
	gsize len;

	fixture_init(&f);
	len = other_frame(0x0800, ipv4_udp, sizeof(ipv4_udp), frame);
	g_assert_false(kept(&f, frame, len));
	for (gsize i = 0; i < G_N_ELEMENTS(icmp6_types); i++) {
		guint8 ip6[48] = { 0x60, 0, 0, 0, 0, 8, 58, 255 };
		ip6[40] = icmp6_types[i];
		len = other_frame(0x86dd, ip6, sizeof(ip6), frame);
		g_assert_false(kept(&f, frame, len));
	}
	/* IPv6 UDP from another station. */
	{
		guint8 ip6[48] = { 0x60, 0, 0, 0, 0, 8, 17, 64 };
		ip6[40] = 135; /* where an ICMPv6 type would be */
		len = other_frame(0x86dd, ip6, sizeof(ip6), frame);
		g_assert_false(kept(&f, frame, len));
	}
	/* A source that shares our first four octets only, and one that shares
	 * the last two only. */
	len = other_frame(0x88b5, (const guint8 *)"x", 1, frame);
	memcpy(frame + 6, f.target.mac.octet, 4);
	g_assert_false(kept(&f, frame, len));
	memcpy(frame + 6, other_mac, 6);
	memcpy(frame + 10, f.target.mac.octet + 4, 2);
	g_assert_false(kept(&f, frame, len));
	/* A runt that ends before the ethertype. */
	g_assert_false(kept(&f, frame, 12));
}

/* Whatever a frame looks like, the filter keeps it when the classifier finds
 * something in it: frames made by flipping bytes of evidence frames. */
static void
test_never_drops_a_frame_the_classifier_counts(void)
{
	Fixture f;
	guint8 seeds[3][MG_PROBE_FRAME_MAX];
	gsize lens[3];
	GRand *rand = g_rand_new_with_seed(42);
	guint counted = 0;

	fixture_init(&f);
	lens[0] = mg_probe_build_ns(&f.target, seeds[0]);
	lens[1] = mg_probe_build_arp(&f.target, 0, seeds[1]);
	lens[2] = other_frame(0x0800, (const guint8 *)"y", 1, seeds[2]);
	memcpy(seeds[2] + 6, f.target.mac.octet, 6);
	for (guint round = 0; round < 200000; round++) {
		guint s = round % 3;
		guint8 frame[MG_PROBE_FRAME_MAX];
		memcpy(frame, seeds[s], lens[s]);
		for (guint flips = g_rand_int_range(rand, 1, 4); flips > 0; flips--)
			frame[g_rand_int_range(rand, 0, (gint32)lens[s])] =
			    (guint8)g_rand_int(rand);
		if (mg_probe_classify(&f.target, frame, lens[s]) != 0) {
			counted++;
			g_assert_true(kept(&f, frame, lens[s]));
		}
	}
	g_assert_cmpuint(counted, >, 1000);
	g_rand_free(rand);
}

/* The watch after a clean check keeps group-addressed frames from our
 * address, whatever they carry, and nothing else: not unicast ones, nor
 * the evidence frames of the check itself when another source sends them. */
static void
test_source_filter_keeps_only_our_source(void)
{
	struct sock_filter prog[MG_SOURCE_FILTER_LEN];
	Fixture f;
	guint8 frame[MG_PROBE_FRAME_MAX];
	gsize len;

	fixture_init(&f);
	mg_probe_filter_build_source(&f.target.mac, prog);
	len = other_frame(0x0800, (const guint8 *)"z", 1, frame); /* broadcast */
	g_assert_cmpuint(run_filter(prog, MG_SOURCE_FILTER_LEN, frame, len), ==, 0);
	memcpy(frame + 6, f.target.mac.octet, 6);
	g_assert_cmpuint(run_filter(prog, MG_SOURCE_FILTER_LEN, frame, len), >, 0);
	memcpy(frame, (const guint8[]){ 0x33, 0x33, 0xff, 0, 0, 1 }, 6); /* IPv6 multicast */
	g_assert_cmpuint(run_filter(prog, MG_SOURCE_FILTER_LEN, frame, len), >, 0);
	memcpy(frame, other_mac, 6); /* unicast */
	g_assert_cmpuint(run_filter(prog, MG_SOURCE_FILTER_LEN, frame, len), ==, 0);
	len = mg_probe_build_arp(&f.target, 0, frame);
	memcpy(frame + 6, other_mac, 6); /* our address as ARP sender only */
	g_assert_cmpuint(run_filter(prog, MG_SOURCE_FILTER_LEN, frame, len), ==, 0);
	len = other_frame(0x88b5, (const guint8 *)"x", 1, frame);
	memcpy(frame + 6, f.target.mac.octet, 4);
	g_assert_cmpuint(run_filter(prog, MG_SOURCE_FILTER_LEN, frame, len), ==, 0);
	memcpy(frame + 6, other_mac, 6);
	memcpy(frame + 10, f.target.mac.octet + 4, 2);
	g_assert_cmpuint(run_filter(prog, MG_SOURCE_FILTER_LEN, frame, len), ==, 0);
	g_assert_cmpuint(run_filter(prog, MG_SOURCE_FILTER_LEN, frame, 11), ==, 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/probe-filter/source-filter-keeps-only-our-source",
			test_source_filter_keeps_only_our_source);
	g_test_add_func("/probe-filter/keeps-every-frame-with-evidence",
			test_keeps_every_frame_with_evidence);
	g_test_add_func("/probe-filter/drops-what-cannot-be-evidence",
			test_drops_what_cannot_be_evidence);
	g_test_add_func("/probe-filter/never-drops-a-frame-the-classifier-counts",
			test_never_drops_a_frame_the_classifier_counts);
	return g_test_run();
}
