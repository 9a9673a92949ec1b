/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-error.h"
#include "mg-first-contact.h"
#include "mg-generator.h"
#include "mg-test-stats.h"

#define DRAWS 1000000
/* A fixed clock for the block-age rule: 2026-12-01 00:00 UTC. */
#define NOW G_GINT64_CONSTANT(1796083200)
#define DAY (24 * 60 * 60)
#define SERIAL_BINS 100

static MgCatalogue *
builtin(void)
{
	g_autoptr(GError) error = NULL;
	MgCatalogue *cat = mg_catalogue_new_builtin(&error);
	g_assert_no_error(error);
	return cat;
}

static guint
vendor_index(MgCatalogue *cat, const MgVendor *v)
{
	guint idx;
	g_assert_true(g_ptr_array_find(mg_catalogue_get_vendors(cat), v, &idx));
	return idx;
}

/* A million seeded draws for one class: every address is one macguise may
 * hand out, and vendors, blocks and serials follow the stated distribution. */
static void
test_generator_million(gconstpointer data)
{
	MgDeviceClass device_class = GPOINTER_TO_UINT(data);
	g_autoptr(MgCatalogue) cat = builtin();
	g_autoptr(GError) error = NULL;
	g_autoptr(MgGenerator) gen = mg_generator_new(cat, device_class, NULL, NOW, &error);
	g_autoptr(MgRandom) rng = mg_random_new_seeded(20261203 + device_class);
	GPtrArray *vendors = mg_catalogue_get_vendors(cat);
	g_autofree guint64 *vendor_counts = g_new0(guint64, vendors->len);
	g_autofree double *vendor_expected = g_new0(double, vendors->len);
	g_autoptr(GHashTable) intel_blocks = g_hash_table_new(NULL, NULL);
	const MgVendor *intel = mg_catalogue_find_vendor(cat, "intel");
	guint64 serial_counts[SERIAL_BINS] = { 0 };
	double serial_expected[SERIAL_BINS];
	guint64 octet_counts[256] = { 0 };
	double octet_expected[256];
	guint64 same_vendor_in_a_row = 0;
	double same_vendor_expected = 0;
	g_autofree guint64 *intel_block_counts = NULL;
	g_autofree double *intel_block_expected = NULL;
	guint intel_blocks_n = 0;
	guint64 intel_draws = 0;
	const MgVendor *previous = NULL;
	double total_weight = 0;
	guint dof = 0;

	g_assert_no_error(error);
	g_assert_nonnull(intel);
	/* Intel's blocks the age rule lets in, each with its weight. */
	for (guint i = 0; i < intel->entries->len; i++) {
		const MgCatalogueEntry *e = g_ptr_array_index(intel->entries, i);
		if ((e->classes & device_class) && e->era == MG_ERA_CURRENT &&
		    mg_block_draw_weight(e, device_class, NOW) > 0)
			g_hash_table_insert(
			    intel_blocks, (gpointer)e, GUINT_TO_POINTER(intel_blocks_n++));
	}
	intel_block_counts = g_new0(guint64, intel_blocks_n);
	intel_block_expected = g_new0(double, intel_blocks_n);
	{
		GHashTableIter it;
		gpointer key, value;
		double intel_weight = 0;
		g_hash_table_iter_init(&it, intel_blocks);
		while (g_hash_table_iter_next(&it, &key, NULL))
			intel_weight += mg_block_draw_weight(key, device_class, NOW);
		g_hash_table_iter_init(&it, intel_blocks);
		while (g_hash_table_iter_next(&it, &key, &value))
			intel_block_expected[GPOINTER_TO_UINT(value)] =
			    mg_block_draw_weight(key, device_class, NOW) / intel_weight;
	}

	for (guint i = 0; i < DRAWS; i++) {
		const MgCatalogueEntry *e = NULL;
		MgMac mac;
		guint64 serial, width;

		g_assert_true(mg_generator_next(gen, rng, NULL, NULL, 1, &mac, &e, &error));
		g_assert_no_error(error);
		/* Never a block too new to have shipped. */
		g_assert_cmpint(e->registered, <=, NOW - MG_BLOCK_MIN_AGE_DAYS * DAY);
		/* Never the local or the group bit, never a zero or all-one serial. */
		g_assert_true(mg_mac_is_global_unicast(&mac));
		g_assert_true(mg_prefix_contains(&e->prefix, &mac));
		g_assert_true(mg_catalogue_lookup(cat, &mac) == e);
		g_assert_true((e->classes & device_class) != 0);
		g_assert_cmpint(e->era, ==, MG_ERA_CURRENT);
		serial = mg_mac_serial(&e->prefix, &mac);
		width = G_GUINT64_CONSTANT(1) << mg_prefix_serial_bits(&e->prefix);
		g_assert_cmpuint(serial, !=, 0);
		g_assert_cmpuint(serial, !=, width - 1);
		g_assert_cmpuint(serial, >=, e->serial_min);
		g_assert_cmpuint(serial, <=, e->serial_max);

		vendor_counts[vendor_index(cat, e->vendor)]++;
		serial_counts[(serial * SERIAL_BINS) / width]++;
		octet_counts[mac.octet[5]]++;
		intel_draws += e->vendor == intel;
		if (e->vendor == intel)
			intel_block_counts[GPOINTER_TO_UINT(
			    g_hash_table_lookup(intel_blocks, e))]++;
		same_vendor_in_a_row += previous == e->vendor;
		previous = e->vendor;
	}

	/* Vendors in proportion to their weights; only this class's vendors
	 * enter the statistic, the others must never appear. */
	for (guint i = 0; i < vendors->len; i++) {
		const MgVendor *v = g_ptr_array_index(vendors, i);
		if (v->classes & device_class)
			total_weight += mg_vendor_weight(v, device_class);
		else
			g_assert_cmpuint(vendor_counts[i], ==, 0);
	}
	for (guint i = 0; i < vendors->len; i++) {
		const MgVendor *v = g_ptr_array_index(vendors, i);
		double share = mg_vendor_weight(v, device_class) / total_weight;
		if ((v->classes & device_class) == 0)
			continue;
		/* The derived weight is the vendor's share of the draws. */
		g_assert_cmpfloat_with_epsilon(mg_generator_vendor_share(gen, v), share, 1e-12);
		vendor_counts[dof] = vendor_counts[i];
		vendor_expected[dof] = DRAWS * share;
		same_vendor_expected += share * share;
		dof++;
	}
	g_test_message("vendor chi2 %.1f, limit %.1f (%u vendors)",
		       mg_test_chi_square(vendor_counts, vendor_expected, dof),
		       mg_test_chi_square_limit(dof - 1),
		       dof);
	g_assert_cmpfloat(mg_test_chi_square(vendor_counts, vendor_expected, dof),
			  <,
			  mg_test_chi_square_limit(dof - 1));

	/* Within a vendor, its blocks by size and the age rule. */
	for (guint i = 0; i < intel_blocks_n; i++)
		intel_block_expected[i] *= (double)intel_draws;
	g_assert_cmpfloat(
	    mg_test_chi_square(intel_block_counts, intel_block_expected, intel_blocks_n),
	    <,
	    mg_test_chi_square_limit(intel_blocks_n - 1));

	/* Serials uniformly over the block, and so the last octet too. */
	for (guint i = 0; i < SERIAL_BINS; i++)
		serial_expected[i] = (double)DRAWS / SERIAL_BINS;
	g_assert_cmpfloat(mg_test_chi_square(serial_counts, serial_expected, SERIAL_BINS),
			  <,
			  mg_test_chi_square_limit(SERIAL_BINS - 1));
	for (guint i = 0; i < 256; i++)
		octet_expected[i] = DRAWS / 256.0;
	g_assert_cmpfloat(mg_test_chi_square(octet_counts, octet_expected, 256),
			  <,
			  mg_test_chi_square_limit(255));

	/* Successive draws are independent: the same vendor twice in a row as
	 * often as the weights predict (sum of squared shares), not more. */
	g_test_message("same vendor in a row: %.4f, expected %.4f",
		       (double)same_vendor_in_a_row / (DRAWS - 1),
		       same_vendor_expected);
	g_assert_cmpfloat(
	    fabs((double)same_vendor_in_a_row / (DRAWS - 1) - same_vendor_expected), <, 0.003);
}

static void
test_generator_vendor_filter(void)
{
	g_autoptr(MgCatalogue) cat = builtin();
	g_autoptr(GError) error = NULL;
	const char *want[] = { "lenovo", "Intel", NULL };
	g_autoptr(MgGenerator) gen =
	    mg_generator_new(cat, MG_DEVICE_CLASS_ETHERNET, want, NOW, &error);
	g_autoptr(MgRandom) rng = mg_random_new_seeded(1);
	gboolean seen_lenovo = FALSE, seen_intel = FALSE;

	g_assert_no_error(error);
	for (guint i = 0; i < 20000; i++) {
		const MgCatalogueEntry *e;
		MgMac mac;
		g_assert_true(mg_generator_next(gen, rng, NULL, NULL, 1, &mac, &e, NULL));
		g_assert_true(g_str_equal(e->vendor->id, "lenovo") ||
			      g_str_equal(e->vendor->id, "intel"));
		seen_lenovo |= g_str_equal(e->vendor->id, "lenovo");
		seen_intel |= g_str_equal(e->vendor->id, "intel");
	}
	g_assert_true(seen_lenovo && seen_intel);
}

/* Hotspots draw from router makers only, and laptops never from them. */
static void
test_generator_classes_apart(void)
{
	g_autoptr(MgCatalogue) cat = builtin();
	g_autoptr(GError) error = NULL;
	g_autoptr(MgGenerator) ap = mg_generator_new(cat, MG_DEVICE_CLASS_AP, NULL, NOW, &error);
	g_autoptr(MgGenerator) wifi =
	    mg_generator_new(cat, MG_DEVICE_CLASS_WIFI, NULL, NOW, &error);
	g_autoptr(MgRandom) rng = mg_random_new_seeded(11);
	g_autoptr(GHashTable) ap_vendors = g_hash_table_new(g_str_hash, g_str_equal);

	g_assert_no_error(error);
	for (guint i = 0; i < 20000; i++) {
		const MgCatalogueEntry *e;
		MgMac mac;
		g_assert_true(mg_generator_next(ap, rng, NULL, NULL, 1, &mac, &e, NULL));
		g_assert_true(mg_mac_is_global_unicast(&mac));
		g_assert_cmpint(e->classes & MG_DEVICE_CLASS_AP, !=, 0);
		g_hash_table_add(ap_vendors, e->vendor->id);
		g_assert_true(mg_generator_next(wifi, rng, NULL, NULL, 1, &mac, &e, NULL));
		g_assert_cmpint(e->vendor->classes & MG_DEVICE_CLASS_WIFI, !=, 0);
		g_assert_false(g_str_equal(e->vendor->id, "tplink"));
	}
	g_assert_true(g_hash_table_contains(ap_vendors, "tplink"));
	g_assert_true(g_hash_table_contains(ap_vendors, "asus"));
	g_assert_false(g_hash_table_contains(ap_vendors, "intel"));
	g_assert_cmpuint(g_hash_table_size(ap_vendors), >=, 10);
}

static void
test_generator_vendor_errors(void)
{
	g_autoptr(MgCatalogue) cat = builtin();
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) error2 = NULL;
	const char *unknown[] = { "no-such-maker", NULL };
	const char *ethernet_only[] = { "dell", NULL };

	g_assert_null(mg_generator_new(cat, MG_DEVICE_CLASS_WIFI, unknown, NOW, &error));
	g_assert_error(error, MG_ERROR, MG_ERROR_NOT_FOUND);
	g_assert_nonnull(strstr(error->message, "no-such-maker"));
	/* Dell is in the catalogue, but not for Wi-Fi. */
	g_assert_null(mg_generator_new(cat, MG_DEVICE_CLASS_WIFI, ethernet_only, NOW, &error2));
	g_assert_error(error2, MG_ERROR, MG_ERROR_NO_CANDIDATE);
}

typedef struct {
	guint calls;
	guint32 refused_oui;
} MgAcceptData;

static gboolean
refuse_one_oui(const MgMac *mac, gpointer user_data)
{
	MgAcceptData *d = user_data;
	d->calls++;
	return mg_mac_oui(mac) != d->refused_oui;
}

static gboolean
refuse_all(const MgMac *mac, gpointer user_data)
{
	(*(guint *)user_data)++;
	return FALSE;
}

static void
test_generator_accept(void)
{
	static const char table[] = "vendor acme\n  name Acme\n  organization A\n  classes wifi\n"
				    "  weight wifi 1 ieee-blocks\n  products p\n"
				    "  prefix 8CF8C5 registered=2020-01-01\n"
				    "  prefix 8CF8C6 registered=2020-01-01\n";
	g_autoptr(MgCatalogue) cat = mg_catalogue_new_from_data(table, strlen(table), NULL);
	g_autoptr(MgGenerator) gen = mg_generator_new(cat, MG_DEVICE_CLASS_WIFI, NULL, NOW, NULL);
	g_autoptr(MgRandom) rng = mg_random_new_seeded(3);
	g_autoptr(GError) error = NULL;
	MgAcceptData d = { 0, 0x8cf8c5 };
	guint calls = 0;
	MgMac mac;

	for (guint i = 0; i < 1000; i++) {
		g_assert_true(
		    mg_generator_next(gen, rng, refuse_one_oui, &d, 1000, &mac, NULL, NULL));
		g_assert_cmphex(mg_mac_oui(&mac), ==, 0x8cf8c6);
	}
	/* About half the candidates were refused and drawn again. */
	g_assert_cmpuint(d.calls, >, 1800);
	g_assert_false(mg_generator_next(gen, rng, refuse_all, &calls, 25, &mac, NULL, &error));
	g_assert_error(error, MG_ERROR, MG_ERROR_NO_CANDIDATE);
	g_assert_cmpuint(calls, ==, 25);
}

typedef struct {
	const char *row;
	guint64 lo, hi; /* the serials that may come out */
} MgRangeCase;

static const MgRangeCase range_cases[] = {
	{ "prefix 8CF8C5 serial=000010-00001F", 0x10, 0x1f },
	{ "prefix 8CF8C5 serial=000000-000001", 1, 1 },               /* never all-zero */
	{ "prefix 8CF8C5 serial=FFFFFE-FFFFFF", 0xfffffe, 0xfffffe }, /* never all-one */
	{ "prefix 646266D", 1, 0xffffe },                             /* MA-M: 20-bit serial */
	{ "prefix 70B3D5C4B", 1, 0xffe },                             /* MA-S: 12-bit serial */
};

static void
test_generator_serial_ranges(void)
{
	for (guint c = 0; c < G_N_ELEMENTS(range_cases); c++) {
		g_autofree char *table =
		    g_strdup_printf("vendor acme\n  name Acme\n  organization A\n"
				    "  classes ethernet\n  weight ethernet 1 ieee-blocks\n"
				    "  products p\n  %s registered=2020-01-01\n",
				    range_cases[c].row);
		g_autoptr(MgCatalogue) cat = mg_catalogue_new_from_data(table, strlen(table), NULL);
		g_autoptr(MgGenerator) gen =
		    mg_generator_new(cat, MG_DEVICE_CLASS_ETHERNET, NULL, NOW, NULL);
		g_autoptr(MgRandom) rng = mg_random_new_seeded(c);
		guint64 lo = G_MAXUINT64, hi = 0;

		g_assert_nonnull(gen);
		for (guint i = 0; i < 200000; i++) {
			const MgCatalogueEntry *e;
			MgMac mac;
			guint64 s;
			g_assert_true(mg_generator_next(gen, rng, NULL, NULL, 1, &mac, &e, NULL));
			g_assert_true(mg_prefix_contains(&e->prefix, &mac));
			s = mg_mac_serial(&e->prefix, &mac);
			lo = MIN(lo, s);
			hi = MAX(hi, s);
		}
		g_assert_cmphex(lo, >=, range_cases[c].lo);
		g_assert_cmphex(hi, <=, range_cases[c].hi);
		/* And the whole range is reached where it is small. */
		if (range_cases[c].hi - range_cases[c].lo < 4096) {
			g_assert_cmphex(lo, ==, range_cases[c].lo);
			g_assert_cmphex(hi, ==, range_cases[c].hi);
		}
	}
}

static void
test_generator_nothing_drawable(void)
{
	/* Only the all-zero serial is allowed: nothing may be drawn. */
	static const char table[] = "vendor acme\n  name Acme\n  organization A\n  classes wifi\n"
				    "  weight wifi 1 ieee-blocks\n  products p\n"
				    "  prefix 8CF8C5 serial=000000-000000 registered=2020-01-01\n"
				    "  prefix 000102 registered=2020-01-01\n";
	g_autoptr(MgCatalogue) cat = mg_catalogue_new_from_data(table, strlen(table), NULL);
	g_autoptr(GError) error = NULL;

	g_assert_nonnull(cat);
	/* ...and the legacy 00-xx-xx block is never drawn either. */
	g_assert_null(mg_generator_new(cat, MG_DEVICE_CLASS_WIFI, NULL, NOW, &error));
	g_assert_error(error, MG_ERROR, MG_ERROR_NO_CANDIDATE);
}

static gboolean
refuse_first_half(const MgMac *candidate, gpointer user_data)
{
	guint *calls = user_data;
	(*calls)++;
	return candidate->octet[5] >= 0x80;
}

/* keep-vendor: the hardware's block (the catalogue's, which may be MA-M or
 * MA-S, else the OUI), a uniform serial, never the reserved ones. */
static void
test_generator_keep_vendor(void)
{
	g_autoptr(MgCatalogue) cat = builtin();
	g_autoptr(MgRandom) rng = mg_random_new_seeded(7);
	MgPrefix block;
	MgMac hw, m;
	guint high_half = 0, calls = 0;

	/* Not in the catalogue: the MA-L OUI of the card. */
	g_assert_true(mg_mac_parse("00:16:3e:12:34:56", &hw, NULL));
	g_assert_true(mg_generator_vendor_block(cat, &hw, &block));
	g_assert_cmpuint(block.bits, ==, MG_BLOCK_MA_L);
	g_assert_cmphex(block.value, ==, 0x00163e);
	for (guint i = 0; i < 20000; i++) {
		g_assert_true(mg_generator_next_in_block(&block, rng, NULL, NULL, 1, &m, NULL));
		g_assert_true(mg_prefix_contains(&block, &m) && mg_mac_is_global_unicast(&m));
		g_assert_cmpuint(mg_mac_serial(&block, &m), >=, 1);
		g_assert_cmpuint(mg_mac_serial(&block, &m), <, 0xffffff);
		high_half += m.octet[3] >= 0x80;
	}
	/* uniform: half of the serials are in the upper half, within 4 sigma */
	g_assert_cmpuint(high_half, >, 10000 - 283);
	g_assert_cmpuint(high_half, <, 10000 + 283);
	/* The accept callback is honoured. */
	g_assert_true(
	    mg_generator_next_in_block(&block, rng, refuse_first_half, &calls, 1000, &m, NULL));
	g_assert_cmpuint(m.octet[5], >=, 0x80);
	/* A catalogue card keeps the catalogue's block. */
	{
		const MgVendor *v = mg_catalogue_find_vendor(cat, "intel");
		const MgCatalogueEntry *e = g_ptr_array_index(v->entries, 0);
		mg_prefix_make_mac(&e->prefix, 5, &hw);
		g_assert_true(mg_generator_vendor_block(cat, &hw, &block));
		g_assert_cmpuint(block.bits, ==, e->prefix.bits);
		g_assert_cmphex(block.value, ==, e->prefix.value);
	}
	/* Nobody made a locally administered or zero address. */
	g_assert_true(mg_mac_parse("02:00:00:00:00:01", &hw, NULL));
	g_assert_false(mg_generator_vendor_block(cat, &hw, &block));
	g_assert_true(mg_mac_parse("00:00:00:00:00:00", &hw, NULL));
	g_assert_false(mg_generator_vendor_block(cat, &hw, &block));
}

/* The exact figures bench/fleet rests on, against a two-vendor table small
 * enough to count: acme weight 3 with two rows of 100 and 10 serials (an old 00-xx-xx row would be
 * legacy), zeta weight 1 with one row of 1000. */
static void
test_generator_exact_distribution(void)
{
	static const char table[] = "vendor acme\n  name Acme\n  organization A\n  classes wifi\n"
				    "  weight wifi 3 ieee-blocks\n  products p\n"
				    "  prefix 8CF8C5 serial=000001-000064 registered=2020-01-01\n"
				    "  prefix DCA632 serial=000001-00000A registered=2020-01-01\n"
				    "vendor zeta\n  name Zeta\n  organization Z\n  classes wifi\n"
				    "  weight wifi 1 ieee-blocks\n  products p\n"
				    "  prefix B827EB serial=000001-0003E8 registered=2020-01-01\n";
	g_autoptr(GError) error = NULL;
	g_autoptr(MgCatalogue) cat = mg_catalogue_new_from_data(table, strlen(table), &error);
	g_autoptr(MgGenerator) gen = NULL;
	const double acme = 0.75, zeta = 0.25;

	g_assert_no_error(error);
	gen = mg_generator_new(cat, MG_DEVICE_CLASS_WIFI, NULL, NOW, &error);
	g_assert_no_error(error);
	g_assert_cmpfloat_with_epsilon(
	    mg_generator_vendor_share(gen, mg_catalogue_find_vendor(cat, "acme")), acme, 1e-12);
	g_assert_cmpfloat_with_epsilon(
	    mg_generator_same_vendor(gen), acme * acme + zeta * zeta, 1e-12);
	/* acme/2 over 100, acme/2 over 10, zeta over 1000 */
	g_assert_cmpfloat_with_epsilon(mg_generator_same_address(gen),
				       (acme / 2) * (acme / 2) / 100 +
					   (acme / 2) * (acme / 2) / 10 + zeta * zeta / 1000,
				       1e-12);
}

/* Counts @n draws per row of @cat for @device_class and checks them against
 * the generator's exact row shares. */
static void
assert_rows_drawn_as_stated(MgCatalogue *cat, MgDeviceClass device_class, const double *expected)
{
	GPtrArray *entries = mg_catalogue_get_entries(cat);
	g_autoptr(GError) error = NULL;
	g_autoptr(MgGenerator) gen = mg_generator_new(cat, device_class, NULL, NOW, &error);
	g_autoptr(MgRandom) rng = mg_random_new_seeded(42 + device_class);
	g_autofree guint64 *counts = g_new0(guint64, entries->len);
	g_autofree double *want = g_new0(double, entries->len);
	const guint n = 200000;
	guint drawn = 0;

	g_assert_no_error(error);
	for (guint i = 0; i < n; i++) {
		const MgCatalogueEntry *e;
		MgMac mac;
		guint idx;
		g_assert_true(mg_generator_next(gen, rng, NULL, NULL, 1, &mac, &e, NULL));
		g_assert_true(g_ptr_array_find(entries, e, &idx));
		counts[idx]++;
	}
	for (guint i = 0; i < entries->len; i++) {
		g_assert_cmpfloat_with_epsilon(
		    mg_generator_entry_share(gen, g_ptr_array_index(entries, i)),
		    expected[i],
		    1e-12);
		if (expected[i] == 0) {
			g_assert_cmpuint(counts[i], ==, 0);
			continue;
		}
		counts[drawn] = counts[i];
		want[drawn++] = n * expected[i];
	}
	g_assert_cmpfloat(
	    mg_test_chi_square(counts, want, drawn), <, mg_test_chi_square_limit(drawn - 1));
}

/* The age rule at a fixed clock (2026-12-01): a block under two years old
 * is never drawn; a Wi-Fi block over ten years old at a quarter of the
 * weight of its size, an Ethernet one at the full weight. */
static void
test_generator_block_ages(void)
{
	static const char table[] =
	    "vendor acme\n  name Acme\n  organization A\n  classes wifi ethernet\n"
	    "  weight wifi 1 survey: cited\n  weight ethernet 1 survey: cited\n  products p\n"
	    "  prefix 8CF8C5 registered=2026-01-01\n"  /* 11 months old */
	    "  prefix 8CF8C6 registered=2024-12-02\n"  /* 729 days: one day short */
	    "  prefix 8CF8C7 registered=2024-11-30\n"  /* 731 days */
	    "  prefix 8CF8C8 registered=2016-12-03\n"  /* 9 years 363 days */
	    "  prefix 8CF8C9 registered=2010-01-01\n"; /* 16 years */
	g_autoptr(GError) error = NULL;
	g_autoptr(MgCatalogue) cat = mg_catalogue_new_from_data(table, strlen(table), &error);
	const double wifi[] = { 0, 0, 4.0 / 9, 4.0 / 9, 1.0 / 9 };
	const double ethernet[] = { 0, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3 };

	g_assert_no_error(error);
	assert_rows_drawn_as_stated(cat, MG_DEVICE_CLASS_WIFI, wifi);
	assert_rows_drawn_as_stated(cat, MG_DEVICE_CLASS_ETHERNET, ethernet);
}

/* Within a vendor a block is chosen in proportion to its size: an MA-L
 * holds 16 times an MA-M and 4,096 times an MA-S. */
static void
test_generator_block_sizes(void)
{
	static const char table[] =
	    "vendor acme\n  name Acme\n  organization A\n  classes ethernet\n"
	    "  weight ethernet 1 survey: cited\n  products p\n"
	    "  prefix 8CF8C5 registered=2015-01-01\n"
	    "  prefix 646266D registered=2015-01-01\n"
	    "  prefix 70B3D5C4B registered=2015-01-01\n";
	g_autoptr(GError) error = NULL;
	g_autoptr(MgCatalogue) cat = mg_catalogue_new_from_data(table, strlen(table), &error);
	const double total = 4096 + 256 + 1;
	const double shares[] = { 4096 / total, 256 / total, 1 / total };

	g_assert_no_error(error);
	assert_rows_drawn_as_stated(cat, MG_DEVICE_CLASS_ETHERNET, shares);
}

/* The shipped catalogue at the fixed clock: the age rule leaves most of
 * each client class's draws to blocks between two and ten years old. */
static void
test_generator_shipped_ages(void)
{
	g_autoptr(MgCatalogue) cat = builtin();
	GPtrArray *entries = mg_catalogue_get_entries(cat);
	g_autoptr(GError) error = NULL;
	g_autoptr(MgGenerator) wifi =
	    mg_generator_new(cat, MG_DEVICE_CLASS_WIFI, NULL, NOW, &error);
	double old = 0, total = 0;

	g_assert_no_error(error);
	for (guint i = 0; i < entries->len; i++) {
		const MgCatalogueEntry *e = g_ptr_array_index(entries, i);
		double share = mg_generator_entry_share(wifi, e);
		total += share;
		if (NOW - e->registered > MG_BLOCK_WIFI_OLD_DAYS * (gint64)DAY)
			old += share;
	}
	g_assert_cmpfloat_with_epsilon(total, 1.0, 1e-9);
	g_test_message("Wi-Fi draws from blocks over ten years old: %.1f%%", 100 * old);
	g_assert_cmpfloat(old, <, 0.25);
}

/* macguised rewrites NetworkManager's first-contact defaults only where they
 * are not what the catalogue draws today: its own draw is, a block the
 * catalogue does not draw (or none) is not. */
static void
test_first_contact_current(void)
{
	g_autoptr(MgCatalogue) cat = builtin();
	g_autoptr(MgRandom) rng = mg_random_new_seeded(5);
	g_autoptr(GError) error = NULL;
	gint64 now = 1796500000; /* 2026-12 */
	g_autofree char *conf = mg_first_contact_conf(cat, rng, 8, now, &error);
	g_autofree char *foreign = NULL;
	g_autofree char *cut = NULL;
	char *mask;

	g_assert_no_error(error);
	g_assert_true(mg_first_contact_conf_is_current(cat, conf, now));
	/* 02:00:00 is locally administered: no catalogue block */
	mask = strstr(conf, "ethernet.generate-mac-address-mask=FF:FF:FF:00:00:00 ");
	g_assert_nonnull(mask);
	foreign = g_strdup(conf);
	memcpy(foreign + (mask - conf) +
		   strlen("ethernet.generate-mac-address-mask=FF:FF:FF:00:00:00 "),
	       "02:00:00",
	       8);
	g_assert_false(mg_first_contact_conf_is_current(cat, foreign, now));
	cut = g_strndup(conf, (gsize)(strstr(conf, "wifi.") - conf));
	g_assert_false(mg_first_contact_conf_is_current(cat, cut, now));
	g_assert_false(mg_first_contact_conf_is_current(cat, "", now));
	/* an earlier file, for every device */
	memcpy(strstr(foreign, "match-device="), "#", 1);
	memcpy(strstr(foreign, "ethernet.generate-mac-address-mask=") +
		   strlen("ethernet.generate-mac-address-mask=FF:FF:FF:00:00:00 "),
	       mask + strlen("ethernet.generate-mac-address-mask=FF:FF:FF:00:00:00 "),
	       8);
	g_assert_false(mg_first_contact_conf_is_current(cat, foreign, now));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_data_func("/generator/million/wifi",
			     GUINT_TO_POINTER(MG_DEVICE_CLASS_WIFI),
			     test_generator_million);
	g_test_add_data_func("/generator/million/ethernet",
			     GUINT_TO_POINTER(MG_DEVICE_CLASS_ETHERNET),
			     test_generator_million);
	g_test_add_func("/generator/keep-vendor", test_generator_keep_vendor);
	g_test_add_func("/generator/vendor-filter", test_generator_vendor_filter);
	g_test_add_func("/generator/vendor-errors", test_generator_vendor_errors);
	g_test_add_func("/generator/classes-apart", test_generator_classes_apart);
	g_test_add_func("/generator/accept", test_generator_accept);
	g_test_add_func("/generator/serial-ranges", test_generator_serial_ranges);
	g_test_add_func("/generator/nothing-drawable", test_generator_nothing_drawable);
	g_test_add_func("/generator/exact-distribution", test_generator_exact_distribution);
	g_test_add_func("/generator/block-ages", test_generator_block_ages);
	g_test_add_func("/generator/block-sizes", test_generator_block_sizes);
	g_test_add_func("/generator/shipped-ages", test_generator_shipped_ages);
	g_test_add_func("/generator/first-contact-current", test_first_contact_current);
	return g_test_run();
}
