/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-catalogue.h"
#include "mg-error.h"

#define VENDOR_HEAD                                                                                \
	"vendor acme\n"                                                                            \
	"  name Acme\n"                                                                            \
	"  organization Acme Networks\n"                                                           \
	"  classes wifi ethernet\n"                                                                \
	"  weight wifi 3 ieee-blocks\n"                                                            \
	"  weight ethernet 2 cited: a survey\n"                                                    \
	"  products test cards\n"

#define DRIVER_HEAD                                                                                \
	"driver iwl\n"                                                                             \
	"  class wifi\n"                                                                           \
	"  match iwlwifi iwl*\n"                                                                   \
	"  products test radios\n"

/* A registration date: every row needs one. */
#define REG " registered=2015-03-01"

static MgCatalogue *
parse(const char *text, GError **error)
{
	return mg_catalogue_new_from_data(text, strlen(text), error);
}

static void
test_catalogue_parse_good(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(MgCatalogue) cat =
	    parse("# a comment\n" VENDOR_HEAD "  prefix 8CF8C5" REG "\n"
		  "  prefix 646266D classes=ethernet serial=00010-000FF" REG "\n"
		  "  prefix 00E04C" REG " era=current why=still made today\n"
		  "  prefix 000102" REG "\n"
		  "\n"
		  "vendor other\n"
		  "  name Other Co\n"
		  "  organization Other\n"
		  "  organization Other Inc.\n"
		  "  classes ethernet\n"
		  "  weight ethernet 7 cited: a made-up survey\n"
		  "  products boards\n"
		  "  prefix 70B3D5C4B" REG "\n",
		  &error);
	const MgVendor *acme;
	const MgCatalogueEntry *e;
	MgMac mac;

	g_assert_no_error(error);
	g_assert_nonnull(cat);
	g_assert_cmpuint(mg_catalogue_get_vendors(cat)->len, ==, 2);
	g_assert_cmpuint(mg_catalogue_get_entries(cat)->len, ==, 5);

	acme = mg_catalogue_find_vendor(cat, "ACME");
	g_assert_nonnull(acme);
	g_assert_cmpstr(mg_vendor_weight_source(acme, MG_DEVICE_CLASS_WIFI), ==, "ieee-blocks");
	g_assert_cmpuint(mg_vendor_weight(acme, MG_DEVICE_CLASS_WIFI), ==, 3);
	g_assert_cmpuint(mg_vendor_weight(acme, MG_DEVICE_CLASS_ETHERNET), ==, 2);
	g_assert_cmpuint(mg_vendor_weight(acme, MG_DEVICE_CLASS_AP), ==, 0);
	g_assert_null(mg_vendor_weight_source(acme, MG_DEVICE_CLASS_AP));
	g_assert_cmpint(acme->classes, ==, MG_DEVICE_CLASS_WIFI | MG_DEVICE_CLASS_ETHERNET);
	g_assert_nonnull(mg_catalogue_find_vendor(cat, "other co"));
	g_assert_null(mg_catalogue_find_vendor(cat, "nobody"));
	g_assert_cmpstr(mg_vendor_weight_source(mg_catalogue_find_vendor(cat, "other"),
						MG_DEVICE_CLASS_ETHERNET),
			==,
			"cited: a made-up survey");

	g_assert_true(mg_mac_parse("64:62:66:d0:00:20", &mac, NULL));
	e = mg_catalogue_lookup(cat, &mac);
	g_assert_nonnull(e);
	g_assert_cmpint(e->prefix.bits, ==, MG_BLOCK_MA_M);
	g_assert_cmpint(e->classes, ==, MG_DEVICE_CLASS_ETHERNET);
	g_assert_cmphex(e->serial_min, ==, 0x10);
	g_assert_cmphex(e->serial_max, ==, 0xff);
	/* Same OUI, outside the MA-M block. */
	g_assert_true(mg_mac_parse("64:62:66:e0:00:20", &mac, NULL));
	g_assert_null(mg_catalogue_lookup(cat, &mac));

	/* Dated to the day, 00:00 UTC. */
	g_assert_cmpint(e->registered, ==, G_GINT64_CONSTANT(1425168000));
	g_assert_true(mg_mac_parse("00:e0:4c:12:34:56", &mac, NULL));
	e = mg_catalogue_lookup(cat, &mac);
	g_assert_cmpint(e->era, ==, MG_ERA_CURRENT);
	g_assert_cmpstr(e->why, ==, "still made today");
	/* A 00-xx-xx block is legacy unless a row argues otherwise. */
	g_assert_true(mg_mac_parse("00:01:02:12:34:56", &mac, NULL));
	g_assert_cmpint(mg_catalogue_lookup(cat, &mac)->era, ==, MG_ERA_LEGACY);
	g_assert_true(mg_mac_parse("70:b3:d5:c4:b1:23", &mac, NULL));
	g_assert_cmpstr(mg_catalogue_lookup(cat, &mac)->vendor->id, ==, "other");
}

typedef struct {
	const char *text;
	const char *message; /* a part of the expected error */
} MgBadCase;

static const MgBadCase bad_cases[] = {
	{ "", "lists no vendor" },
	{ "  name Acme\n", "line 1: 'name' before the first vendor" },
	{ "vendor Acme\n", "lowercase" },
	{ "vendor acme\n", "has no name line" },
	{ "thing acme\n", "expected 'vendor ID'" },
	{ VENDOR_HEAD, "has no prefix line" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\nvendor acme\n", "listed twice" },
	{ VENDOR_HEAD "  prefix 8CF8C\n", "line 8: '8CF8C' is not a registry block" },
	{ VENDOR_HEAD "  prefix 8EF8C5" REG "\n", "locally-administered" },
	{ VENDOR_HEAD "  prefix 8DF8C5" REG "\n", "multicast" },
	{ VENDOR_HEAD "  prefix 000102 era=current" REG "\n", "without why=" },
	{ VENDOR_HEAD "  prefix 8CF8C5 era=ancient" REG "\n", "neither current nor legacy" },
	{ VENDOR_HEAD "  prefix 8CF8C5 colour=blue" REG "\n", "unknown prefix option" },
	{ VENDOR_HEAD "  prefix 8CF8C5 classes=bluetooth" REG "\n", "unknown device class" },
	{ VENDOR_HEAD "  prefix 8CF8C5 serial=10" REG "\n", "is not LO-HI" },
	{ VENDOR_HEAD "  prefix 8CF8C5 serial=20-10" REG "\n", "ascending" },
	{ VENDOR_HEAD "  prefix 8CF8C5 serial=0-1000000" REG "\n", "within the block" },
	{ VENDOR_HEAD "  prefix 646266D serial=0-100000" REG "\n", "within the block" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG " why=\n", "why= is empty" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\n  prefix 8CF8C5" REG "\n", "overlaps" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\n  prefix 8CF8C5A" REG "\n", "overlaps" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\n  name Again\n", "after the first prefix" },
	{ VENDOR_HEAD "  prefix 8CF8C5\n", "8CF8C5 has no registered= date" },
	{ VENDOR_HEAD "  prefix 8CF8C5 registered=2015-13-01\n", "is not a date" },
	{ VENDOR_HEAD "  prefix 8CF8C5 registered=15-03-01\n", "is not a date" },
	{ VENDOR_HEAD "  prefix 8CF8C5 registered=2015-03-01x\n", "is not a date" },
	{ VENDOR_HEAD "  colour blue\n", "unknown keyword" },
	{ VENDOR_HEAD "  weight wifi 4 ieee-blocks\n", "a second weight for wifi" },
	{ VENDOR_HEAD "  weight ap 4 ieee-blocks\n", "not among the vendor's classes" },
	{ VENDOR_HEAD "  weight 4 ieee-blocks\n", "weight is not CLASS N SOURCE" },
	{ VENDOR_HEAD "  weight radio 4 ieee-blocks\n", "unknown device class 'radio'" },
	{ "vendor acme\n  name A\n  organization O\n  classes wifi\n  weight wifi 0 x\n",
	  "not a whole number" },
	{ "vendor acme\n  name A\n  organization O\n  classes wifi\n  weight wifi 5\n",
	  "not CLASS N SOURCE" },
	{ "vendor acme\n  name A\n  organization O\n  classes wifi ethernet\n"
	  "  weight wifi 5 x\n  products p\n  prefix 8CF8C5" REG "\n",
	  "has no weight line" },
	{ "vendor acme\n  name A\n  organization O\n  classes radio\n", "unknown device class" },
	{ "vendor acme\n  name A\n  organization O\n  prefix 8CF8C5\n", "before the classes" },
	{ "vendor acme\n  name A\n  organization O\n  classes wifi\n  prefix 8CF8C5 "
	  "classes=ethernet" REG "\n",
	  "not among the vendor's classes" },
	{ "vendor acme\n  name\n", "has no value" },
	{ "vendor acme\n  name \xff\n", "not valid UTF-8" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\ndriver Iwl\n", "not lowercase" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\ndriver iwl\n", "driver 'iwl' has no class" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\n" DRIVER_HEAD, "driver 'iwl' has no weight" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\n" DRIVER_HEAD "  weight acme 5 x\n" DRIVER_HEAD,
	  "driver 'iwl' is listed twice" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\n" DRIVER_HEAD "  weight nobody 5 x\n",
	  "'nobody' is not a vendor id" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\n" DRIVER_HEAD "  weight Acme 5 x\n",
	  "'Acme' is not a vendor id" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\n" DRIVER_HEAD "  weight acme 0 x\n",
	  "not a whole number" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\n" DRIVER_HEAD "  weight acme 5\n",
	  "not VENDOR N SOURCE" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\n" DRIVER_HEAD
		      "  weight acme 5 x\n  weight acme 5 y\n",
	  "a second weight for acme" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\ndriver iwl\n  class ap\n  match iwlwifi\n"
		      "  products p\n  weight acme 5 x\n",
	  "vendor 'acme' has no ap blocks" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\n" DRIVER_HEAD "  colour blue\n", "unknown keyword" },
	{ VENDOR_HEAD "  prefix 8CF8C5" REG "\n" DRIVER_HEAD "  weight acme 5 x\n" VENDOR_HEAD,
	  "'vendor' after the first driver block" },
};

static void
test_catalogue_parse_bad(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(MgCatalogue) cat = parse(bad_cases[i].text, &error);
		g_assert_null(cat);
		g_assert_error(error, MG_ERROR, MG_ERROR_CATALOGUE);
		if (strstr(error->message, bad_cases[i].message) == NULL)
			g_error("case %u: '%s' does not contain '%s'",
				i,
				error->message,
				bad_cases[i].message);
	}
}

/* A driver block: its vendors' weights, its match list with globs, its
 * class; a driver it does not take, or another class's, finds no mix. */
static void
test_catalogue_parse_driver(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(MgCatalogue) cat = parse(
	    VENDOR_HEAD "  prefix 8CF8C5" REG "\n"
			"vendor other\n  name Other\n  organization O\n"
			"  classes wifi\n  weight wifi 1 x\n  products p\n"
			"  prefix 3C6A9D" REG "\n" DRIVER_HEAD "  weight acme 9 cited: a count\n"
			"  weight other 1 cited: another\n"
			"  note left out: nothing\n",
	    &error);
	const MgDriverMix *mix;

	g_assert_no_error(error);
	g_assert_cmpuint(mg_catalogue_get_driver_mixes(cat)->len, ==, 1);
	mix = mg_catalogue_find_driver_mix(cat, MG_DEVICE_CLASS_WIFI, "iwl-test");
	g_assert_nonnull(mix);
	g_assert_true(mix == mg_catalogue_find_driver_mix(cat, MG_DEVICE_CLASS_WIFI, "iwlwifi"));
	g_assert_true(mix == mg_catalogue_find_driver_mix_id(cat, "IWL"));
	g_assert_null(mg_catalogue_find_driver_mix(cat, MG_DEVICE_CLASS_WIFI, "rtw89_pci"));
	g_assert_null(mg_catalogue_find_driver_mix(cat, MG_DEVICE_CLASS_ETHERNET, "iwlwifi"));
	g_assert_null(mg_catalogue_find_driver_mix(cat, MG_DEVICE_CLASS_WIFI, NULL));
	g_assert_cmpuint(mg_driver_mix_weight(mix, mg_catalogue_find_vendor(cat, "acme")), ==, 9);
	g_assert_cmpuint(mg_driver_mix_weight(mix, mg_catalogue_find_vendor(cat, "other")), ==, 1);
	g_assert_cmpstr(
	    ((MgDriverWeight *)g_ptr_array_index(mix->weights, 0))->source, ==, "cited: a count");
	g_assert_cmpuint(mix->notes->len, ==, 1);
	g_assert_cmpstr(mix->products, ==, "test radios");
}

static void
test_catalogue_embedded_nul(void)
{
	static const char text[] = VENDOR_HEAD "  prefix 8CF8C5\0  prefix 8CF8C6\n";
	g_autoptr(GError) error = NULL;
	g_autoptr(MgCatalogue) cat = mg_catalogue_new_from_data(text, sizeof(text) - 1, &error);
	g_assert_null(cat);
	g_assert_error(error, MG_ERROR, MG_ERROR_CATALOGUE);
}

/* The embedded table: big enough to hide in, every row drawable-safe. */
static void
test_catalogue_builtin(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(MgCatalogue) cat = mg_catalogue_new_builtin(&error);
	GPtrArray *entries;
	guint wifi_vendors = 0, ethernet_vendors = 0, ap_vendors = 0;
	static const char *const left_out[] = { "hpe",         "murata",   "ampak",   "lbl",
						"raspberrypi", "qualcomm", "broadcom" };
	MgMac mac;

	g_assert_no_error(error);
	g_assert_nonnull(cat);
	g_assert_cmpuint(mg_catalogue_get_vendors(cat)->len, >=, 50);
	entries = mg_catalogue_get_entries(cat);
	g_assert_cmpuint(entries->len, >=, 300);
	for (guint i = 0; i < entries->len; i++) {
		const MgCatalogueEntry *e = g_ptr_array_index(entries, i);
		MgMac first, last;
		mg_prefix_make_mac(&e->prefix, e->serial_min, &first);
		mg_prefix_make_mac(&e->prefix, e->serial_max, &last);
		g_assert_true(mg_mac_is_global_unicast(&first));
		g_assert_true(mg_mac_is_global_unicast(&last));
		g_assert_true(mg_catalogue_lookup(cat, &first) == e);
		g_assert_true(mg_catalogue_lookup(cat, &last) == e);
	}
	for (guint i = 0; i < mg_catalogue_get_vendors(cat)->len; i++) {
		const MgVendor *v = g_ptr_array_index(mg_catalogue_get_vendors(cat), i);
		for (guint c = 0; c < MG_DEVICE_CLASS_COUNT; c++)
			g_assert_true((v->weight[c] == 0) == (v->weight_source[c] == NULL));
		g_assert_nonnull(v->products);
		wifi_vendors += (v->classes & MG_DEVICE_CLASS_WIFI) != 0;
		ethernet_vendors += (v->classes & MG_DEVICE_CLASS_ETHERNET) != 0;
		ap_vendors += (v->classes & MG_DEVICE_CLASS_AP) != 0;
	}
	g_assert_cmpuint(wifi_vendors, >=, 10);
	g_assert_cmpuint(ap_vendors, >=, 10);
	/* The wrong hardware is out: switches and access points (HPE), phone,
	 * TV-box and IoT modules (Murata, AMPAK, LB-Link), single-board
	 * computers and the Pico W microcontroller (Raspberry Pi). */
	for (guint i = 0; i < G_N_ELEMENTS(left_out); i++)
		g_assert_null(mg_catalogue_find_vendor(cat, left_out[i]));
	g_assert_true(mg_mac_parse("28:cd:c1:00:00:01", &mac, NULL));
	g_assert_null(mg_catalogue_lookup(cat, &mac));
	/* Small registrations (MA-M, MA-S) are embedded runs, not laptop cards. */
	for (guint i = 0; i < entries->len; i++)
		g_assert_cmpint(
		    ((const MgCatalogueEntry *)g_ptr_array_index(entries, i))->prefix.bits,
		    ==,
		    MG_BLOCK_MA_L);
	/* Router makers serve hotspots only; a laptop card maker never does. */
	g_assert_cmpint(mg_catalogue_find_vendor(cat, "tplink")->classes, ==, MG_DEVICE_CLASS_AP);
	g_assert_cmpint(mg_catalogue_find_vendor(cat, "avm")->classes, ==, MG_DEVICE_CLASS_AP);
	g_assert_cmpint(
	    mg_catalogue_find_vendor(cat, "intel")->classes & MG_DEVICE_CLASS_AP, ==, 0);
	g_assert_cmpstr(mg_device_class_to_string(MG_DEVICE_CLASS_ALL), ==, "wifi,ethernet,ap");
	g_assert_cmpstr(mg_device_class_to_string(MG_DEVICE_CLASS_AP), ==, "ap");
	g_assert_cmpuint(ethernet_vendors, >=, 15);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/catalogue/parse-good", test_catalogue_parse_good);
	g_test_add_func("/catalogue/parse-bad", test_catalogue_parse_bad);
	g_test_add_func("/catalogue/parse-driver", test_catalogue_parse_driver);
	g_test_add_func("/catalogue/embedded-nul", test_catalogue_embedded_nul);
	g_test_add_func("/catalogue/builtin", test_catalogue_builtin);
	return g_test_run();
}
