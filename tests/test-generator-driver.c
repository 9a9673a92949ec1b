/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Draws for a chip family: the makers whose blocks its cards carry. */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-error.h"
#include "mg-first-contact.h"
#include "mg-generator.h"

#define DRAWS 20000
/* A fixed clock for the block-age rule: 2026-12-01 00:00 UTC. */
#define NOW G_GINT64_CONSTANT(1796083200)

static MgCatalogue *
builtin(void)
{
	g_autoptr(GError) error = NULL;
	MgCatalogue *cat = mg_catalogue_new_builtin(&error);
	g_assert_no_error(error);
	return cat;
}

typedef struct {
	const char *driver; /* as NetworkManager reports it */
	MgDeviceClass device_class;
	const char *mix;    /* the mix it draws from */
	const char *vendor; /* a vendor whose share is bounded */
	double lo, hi;      /* its share of DRAWS seeded draws */
} MgDriverBand;

/* Held-out bands (issue #32's Check): an Intel radio carries Intel's block;
 * Realtek, Qualcomm and MediaTek radios never do; on-board Realtek Ethernet
 * never carries Intel's own block; Realtek's USB adapters mostly Realtek's. */
static const MgDriverBand bands[] = {
	{ "iwlwifi", MG_DEVICE_CLASS_WIFI, "iwlwifi", "intel", 0.99, 1.0 },
	{ "rtw89_pci", MG_DEVICE_CLASS_WIFI, "rtw89", "intel", 0.0, 0.0 },
	{ "rtw89_8852be", MG_DEVICE_CLASS_WIFI, "rtw89", "intel", 0.0, 0.0 },
	{ "rtw89_8852be", MG_DEVICE_CLASS_WIFI, "rtw89", "azurewave", 0.3, 0.9 },
	{ "ath11k_pci", MG_DEVICE_CLASS_WIFI, "ath11k", "intel", 0.0, 0.0 },
	{ "ath11k_pci", MG_DEVICE_CLASS_WIFI, "ath11k", "honhai", 0.2, 0.8 },
	{ "mt7921e", MG_DEVICE_CLASS_WIFI, "mt7921", "intel", 0.0, 0.0 },
	{ "mt7921e", MG_DEVICE_CLASS_WIFI, "mt7921", "azurewave", 0.2, 0.8 },
	{ "rtw88_8822ce", MG_DEVICE_CLASS_WIFI, "rtw88", "intel", 0.0, 0.0 },
	{ "ath10k_pci", MG_DEVICE_CLASS_WIFI, "ath10k", "intel", 0.0, 0.0 },
	{ "ath12k_pci", MG_DEVICE_CLASS_WIFI, "ath12k", "intel", 0.0, 0.0 },
	{ "ath9k", MG_DEVICE_CLASS_WIFI, "ath9k", "intel", 0.0, 0.0 },
	{ "brcmfmac", MG_DEVICE_CLASS_WIFI, "brcm", "intel", 0.0, 0.0 },
	{ "wl", MG_DEVICE_CLASS_WIFI, "brcm", "intel", 0.0, 0.0 },
	{ "rtl8xxxu", MG_DEVICE_CLASS_WIFI, "rtlwifi", "intel", 0.0, 0.0 },
	{ "mt76x2e", MG_DEVICE_CLASS_WIFI, "mt76", "intel", 0.0, 0.0 },
	{ "r8169", MG_DEVICE_CLASS_ETHERNET, "r8169", "intel", 0.0, 0.0 },
	{ "r8152", MG_DEVICE_CLASS_ETHERNET, "r8152", "realtek", 0.75, 1.0 },
	{ "ax88179_178a", MG_DEVICE_CLASS_ETHERNET, "ax88179", "asix", 0.75, 1.0 },
	{ "e1000e", MG_DEVICE_CLASS_ETHERNET, "intel-ethernet", "lenovo", 0.05, 0.4 },
	{ "igc", MG_DEVICE_CLASS_ETHERNET, "intel-ethernet", "intel", 0.001, 0.1 },
};

static void
test_driver_bands(void)
{
	g_autoptr(MgCatalogue) cat = builtin();
	g_autoptr(MgRandom) rng = mg_random_new_seeded(32);

	for (guint i = 0; i < G_N_ELEMENTS(bands); i++) {
		const MgDriverBand *b = &bands[i];
		g_autoptr(GError) error = NULL;
		const MgDriverMix *mix = NULL;
		g_autoptr(MgGenerator) gen =
		    mg_generator_new_for_driver(cat, b->device_class, b->driver, NOW, &mix, &error);
		const MgVendor *v = mg_catalogue_find_vendor(cat, b->vendor);
		g_autoptr(GHashTable) makers = g_hash_table_new(NULL, NULL);
		guint hits = 0;
		double share;

		g_assert_no_error(error);
		g_assert_nonnull(v);
		g_assert_nonnull(mix);
		g_assert_cmpstr(mix->id, ==, b->mix);
		for (guint n = 0; n < DRAWS; n++) {
			const MgCatalogueEntry *e = NULL;
			MgMac mac;
			g_assert_true(mg_generator_next(gen, rng, NULL, NULL, 10, &mac, &e, NULL));
			g_assert_true((e->classes & b->device_class) != 0);
			hits += e->vendor == v;
			g_hash_table_add(makers, (gpointer)e->vendor);
		}
		share = (double)hits / DRAWS;
		if (share < b->lo || share > b->hi)
			g_error("%s: %s drew %.4f, outside [%.3f, %.3f]",
				b->driver,
				b->vendor,
				share,
				b->lo,
				b->hi);
		/* Only Intel builds every card of its chips. */
		if (g_strcmp0(b->mix, "iwlwifi") != 0)
			g_assert_cmpuint(g_hash_table_size(makers), >=, 2);
		/* The generator's exact share agrees with the mix's weights. */
		g_assert_cmpfloat_with_epsilon(mg_generator_vendor_share(gen, v),
					       (b->lo + b->hi) / 2,
					       (b->hi - b->lo) / 2 + 1e-9);
	}
}

/* A driver no mix takes, none at all, or one of the other class draws as
 * the class does, and says so by a NULL mix. */
static void
test_driver_fallback(void)
{
	g_autoptr(MgCatalogue) cat = builtin();
	static const char *const drivers[] = { "veth", "", "r8169", NULL };

	for (guint i = 0; i < G_N_ELEMENTS(drivers); i++) {
		g_autoptr(GError) error = NULL;
		const MgDriverMix *mix = (const MgDriverMix *)&error; /* must be reset */
		g_autoptr(MgGenerator) gen = mg_generator_new_for_driver(
		    cat, MG_DEVICE_CLASS_WIFI, drivers[i], NOW, &mix, &error);
		g_autoptr(MgGenerator) class_gen =
		    mg_generator_new(cat, MG_DEVICE_CLASS_WIFI, NULL, NOW, &error);
		GPtrArray *vendors = mg_catalogue_get_vendors(cat);

		g_assert_no_error(error);
		g_assert_null(mix);
		for (guint j = 0; j < vendors->len; j++) {
			const MgVendor *v = g_ptr_array_index(vendors, j);
			g_assert_cmpfloat(mg_generator_vendor_share(gen, v),
					  ==,
					  mg_generator_vendor_share(class_gen, v));
		}
	}
}

/* Every shipped mix draws only vendors of its class, from at least two
 * organisations but for Intel's own radios, each weight with its source. */
static void
test_driver_shipped_mixes(void)
{
	g_autoptr(MgCatalogue) cat = builtin();
	GPtrArray *mixes = mg_catalogue_get_driver_mixes(cat);
	static const char *const wanted[] = { "iwlwifi", "rtw88",   "rtw89",         "rtlwifi",
					      "ath9k",   "ath10k",  "ath11k",        "ath12k",
					      "mt7921",  "mt76",    "brcm",          "r8169",
					      "r8152",   "ax88179", "intel-ethernet" };

	for (guint i = 0; i < G_N_ELEMENTS(wanted); i++)
		g_assert_nonnull(mg_catalogue_find_driver_mix_id(cat, wanted[i]));
	for (guint i = 0; i < mixes->len; i++) {
		const MgDriverMix *mix = g_ptr_array_index(mixes, i);
		g_assert_true(mix->weights->len >= 2 || g_strcmp0(mix->id, "iwlwifi") == 0);
		/* the first-contact defaults name them to NetworkManager, whose
		 * driver: match takes no globs */
		for (guint j = 0; mix->match[j] != NULL; j++)
			g_assert_null(strpbrk(mix->match[j], "*?["));
		for (guint j = 0; j < mix->weights->len; j++) {
			const MgDriverWeight *w = g_ptr_array_index(mix->weights, j);
			g_assert_true((w->vendor->classes & mix->device_class) != 0);
			g_assert_nonnull(w->source);
		}
	}
	/* NetworkManager's names, globs included. */
	g_assert_cmpstr(mg_catalogue_find_driver_mix(cat, MG_DEVICE_CLASS_WIFI, "rtw88_8821ce")->id,
			==,
			"rtw88");
	g_assert_cmpstr(mg_catalogue_find_driver_mix(cat, MG_DEVICE_CLASS_ETHERNET, "igb")->id,
			==,
			"intel-ethernet");
	g_assert_null(mg_catalogue_find_driver_mix(cat, MG_DEVICE_CLASS_ETHERNET, "iwlwifi"));
}

/* The vendors of the blocks a first-contact section's mask lists. */
static GHashTable *
mask_vendors(MgCatalogue *cat, GKeyFile *kf, const char *group, const char *key)
{
	g_autofree char *k = g_strconcat(key, ".generate-mac-address-mask", NULL);
	g_autofree char *mask = g_key_file_get_string(kf, group, k, NULL);
	g_auto(GStrv) words = NULL;
	GHashTable *vendors = g_hash_table_new(g_str_hash, g_str_equal);

	g_assert_nonnull(mask);
	words = g_strsplit(mask, " ", -1);
	g_assert_cmpuint(g_strv_length(words), ==, 65);
	for (guint i = 1; words[i] != NULL; i++) {
		MgMac oui;
		const MgCatalogueEntry *e;
		g_assert_true(mg_mac_parse(words[i], &oui, NULL));
		oui.octet[5] = 1;
		e = mg_catalogue_lookup(cat, &oui);
		g_assert_nonnull(e);
		g_hash_table_add(vendors, e->vendor->id);
	}
	return vendors;
}

/* First contact: each chip family its own section, for its drivers, before
 * the general one (NetworkManager takes the first that matches), listing
 * only its makers' blocks; a file without them is not current. */
static void
test_driver_first_contact(void)
{
	g_autoptr(MgCatalogue) cat = builtin();
	g_autoptr(MgRandom) rng = mg_random_new_seeded(7);
	g_autoptr(GError) error = NULL;
	g_autofree char *conf = mg_first_contact_conf(cat, rng, 64, NOW, &error);
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_auto(GStrv) groups = NULL;
	g_autoptr(GHashTable) iwl = NULL;
	g_autoptr(GHashTable) rtw89 = NULL;
	g_autoptr(GHashTable) r8169 = NULL;
	g_autofree char *match = NULL;
	guint n;
	char *general;

	g_assert_no_error(error);
	g_assert_true(g_key_file_load_from_data(kf, conf, -1, G_KEY_FILE_NONE, NULL));
	groups = g_key_file_get_groups(kf, NULL);
	n = g_strv_length(groups);
	g_assert_cmpuint(n, ==, mg_catalogue_get_driver_mixes(cat)->len + 1);
	g_assert_cmpstr(groups[n - 1], ==, "connection-macguise-first-contact");
	match = g_key_file_get_string(
	    kf, "connection-macguise-first-contact-driver-iwlwifi", "match-device", NULL);
	g_assert_cmpstr(match, ==, "driver:iwlwifi");
	iwl = mask_vendors(cat, kf, "connection-macguise-first-contact-driver-iwlwifi", "wifi");
	g_assert_cmpuint(g_hash_table_size(iwl), ==, 1);
	g_assert_true(g_hash_table_contains(iwl, "intel"));
	rtw89 = mask_vendors(cat, kf, "connection-macguise-first-contact-driver-rtw89", "wifi");
	g_assert_false(g_hash_table_contains(rtw89, "intel"));
	g_assert_cmpuint(g_hash_table_size(rtw89), >=, 2);
	r8169 = mask_vendors(cat, kf, "connection-macguise-first-contact-driver-r8169", "ethernet");
	g_assert_false(g_hash_table_contains(r8169, "intel"));
	g_assert_true(mg_first_contact_conf_is_current(cat, conf, NOW));
	/* the general section alone, as before the per-driver mixes */
	general = strstr(conf, "[connection-macguise-first-contact]");
	g_assert_nonnull(general);
	g_assert_false(mg_first_contact_conf_is_current(cat, general, NOW));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/generator-driver/bands", test_driver_bands);
	g_test_add_func("/generator-driver/fallback", test_driver_fallback);
	g_test_add_func("/generator-driver/shipped-mixes", test_driver_shipped_mixes);
	g_test_add_func("/generator-driver/first-contact", test_driver_first_contact);
	return g_test_run();
}
