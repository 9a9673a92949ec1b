/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-error.h"
#include "mg-mac.h"

typedef struct {
	const char *text;
	const char *formatted; /* NULL: the text must be refused */
} MgParseCase;

static const MgParseCase parse_cases[] = {
	{ "8c:f8:c5:01:02:03", "8c:f8:c5:01:02:03" },
	{ "8C:F8:C5:0A:0B:0C", "8c:f8:c5:0a:0b:0c" },
	{ "8C-F8-C5-0A-0B-0C", "8c:f8:c5:0a:0b:0c" },
	{ "8cf8.c50a.0b0c", "8c:f8:c5:0a:0b:0c" },
	{ "8CF8C50A0B0C", "8c:f8:c5:0a:0b:0c" },
	{ "00:00:00:00:00:00", "00:00:00:00:00:00" },
	{ "ff:ff:ff:ff:ff:ff", "ff:ff:ff:ff:ff:ff" },
	{ "", NULL },
	{ "8c:f8:c5:01:02", NULL },
	{ "8c:f8:c5:01:02:03:04", NULL },
	{ "8c:f8-c5:01:02:03", NULL },  /* mixed separators */
	{ "8c:f8:c5:01:02:0g", NULL },  /* not hex */
	{ "8c.f8.c5.01.02.03", NULL },  /* dots belong to the 4-digit form */
	{ "8cf8:c50a:0b0c", NULL },     /* colons belong to the 2-digit form */
	{ "8cf8c50a0b0", NULL },        /* 11 digits */
	{ " 8c:f8:c5:01:02:03", NULL }, /* no silent trimming */
	{ "8c:f8:c5:01:02:03 ", NULL },
	{ "8c::f8:c5:01:02:0", NULL },
	{ "+c:f8:c5:01:02:03", NULL },
	{ "\xc3\xa9:f8:c5:01:02:03", NULL },
};

static void
test_mac_parse(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(parse_cases); i++) {
		const MgParseCase *c = &parse_cases[i];
		g_autoptr(GError) error = NULL;
		MgMac mac;
		gboolean ok = mg_mac_parse(c->text, &mac, &error);

		if (c->formatted == NULL) {
			g_assert_false(ok);
			g_assert_error(error, MG_ERROR, MG_ERROR_INVALID_MAC);
			/* The message quotes what was wrong. */
			g_assert_nonnull(strstr(error->message, "not a MAC address"));
		} else {
			g_autofree char *out = NULL;
			g_assert_no_error(error);
			g_assert_true(ok);
			out = mg_mac_to_string(&mac);
			g_assert_cmpstr(out, ==, c->formatted);
		}
	}
}

typedef struct {
	const char *mac;
	gboolean multicast;
	gboolean local;
	guint32 oui;
} MgBitCase;

static const MgBitCase bit_cases[] = {
	{ "8c:f8:c5:01:02:03", FALSE, FALSE, 0x8cf8c5 },
	{ "f2:b7:7c:01:02:03", FALSE, TRUE, 0xf2b77c }, /* NM's random */
	{ "01:00:5e:00:00:fb", TRUE, FALSE, 0x01005e }, /* IPv4 multicast */
	{ "33:33:00:00:00:01", TRUE, TRUE, 0x333300 },  /* IPv6 multicast */
	{ "ff:ff:ff:ff:ff:ff", TRUE, TRUE, 0xffffff },  /* broadcast */
	{ "02:00:00:00:00:00", FALSE, TRUE, 0x020000 },
	{ "00:e0:4c:00:00:01", FALSE, FALSE, 0x00e04c },
};

static void
test_mac_bits(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(bit_cases); i++) {
		const MgBitCase *c = &bit_cases[i];
		MgMac mac;
		g_assert_true(mg_mac_parse(c->mac, &mac, NULL));
		g_assert_cmpint(mg_mac_is_multicast(&mac), ==, c->multicast);
		g_assert_cmpint(mg_mac_is_locally_administered(&mac), ==, c->local);
		g_assert_cmpint(mg_mac_is_global_unicast(&mac), ==, !c->multicast && !c->local);
		g_assert_cmphex(mg_mac_oui(&mac), ==, c->oui);
	}
}

static void
test_mac_u64_roundtrip(void)
{
	MgMac mac, back;
	g_assert_true(mg_mac_parse("12:34:56:78:9a:bc", &mac, NULL));
	g_assert_cmphex(mg_mac_to_u64(&mac), ==, G_GUINT64_CONSTANT(0x123456789abc));
	mg_mac_from_u64(G_GUINT64_CONSTANT(0x123456789abc), &back);
	g_assert_true(mg_mac_equal(&mac, &back));
	g_assert_false(mg_mac_is_zero(&mac));
	mg_mac_from_u64(0, &back);
	g_assert_true(mg_mac_is_zero(&back));
}

typedef struct {
	const char *text;
	MgBlockSize bits; /* 0: refused */
	const char *display;
	const char *inside;
	const char *outside;
} MgPrefixCase;

static const MgPrefixCase prefix_cases[] = {
	{ "8CF8C5", MG_BLOCK_MA_L, "8c:f8:c5", "8c:f8:c5:ff:ff:ff", "8c:f8:c6:00:00:00" },
	{ "646266D", MG_BLOCK_MA_M, "64:62:66:d", "64:62:66:d0:00:01", "64:62:66:e0:00:00" },
	{ "70B3D5C4B", MG_BLOCK_MA_S, "70:b3:d5:c4:b", "70:b3:d5:c4:bf:ff", "70:b3:d5:c4:c0:00" },
	{ "8cf8c5", MG_BLOCK_MA_L, "8c:f8:c5", "8c:f8:c5:00:00:00", "8c:f8:c4:ff:ff:ff" },
	{ "8CF8C", 0 },
	{ "8CF8C5A0", 0 },
	{ "8CF8C5A0B1", 0 },
	{ "8C:F8:C5", 0 },
	{ "8CF8CZ", 0 },
};

static void
test_prefix(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(prefix_cases); i++) {
		const MgPrefixCase *c = &prefix_cases[i];
		g_autoptr(GError) error = NULL;
		MgPrefix p;
		MgMac in, out, made;
		g_autofree char *display = NULL;
		g_autofree char *registry = NULL;

		if (c->bits == 0) {
			g_assert_false(mg_prefix_parse(c->text, &p, &error));
			g_assert_error(error, MG_ERROR, MG_ERROR_INVALID_PREFIX);
			continue;
		}
		g_assert_true(mg_prefix_parse(c->text, &p, &error));
		g_assert_no_error(error);
		g_assert_cmpint(p.bits, ==, c->bits);
		g_assert_cmpuint(mg_prefix_serial_bits(&p), ==, 48 - c->bits);
		display = mg_prefix_to_display(&p);
		g_assert_cmpstr(display, ==, c->display);
		registry = mg_prefix_to_string(&p);
		g_assert_cmpint(g_ascii_strcasecmp(registry, c->text), ==, 0);
		g_assert_true(mg_mac_parse(c->inside, &in, NULL));
		g_assert_true(mg_mac_parse(c->outside, &out, NULL));
		g_assert_true(mg_prefix_contains(&p, &in));
		g_assert_false(mg_prefix_contains(&p, &out));
		/* The serial is what is left after the block's bits. */
		mg_prefix_make_mac(&p, mg_mac_serial(&p, &in), &made);
		g_assert_true(mg_mac_equal(&made, &in));
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/mac/parse", test_mac_parse);
	g_test_add_func("/mac/bits", test_mac_bits);
	g_test_add_func("/mac/u64-roundtrip", test_mac_u64_roundtrip);
	g_test_add_func("/mac/prefix", test_prefix);
	return g_test_run();
}
