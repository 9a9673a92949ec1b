/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer: the vendor-table parser, and drawing from whatever it accepts. */
#include "config.h"

#include <glib.h>

#include "mg-catalogue.h"
#include "mg-generator.h"

/* A fixed day, so that a crash reproduces: 2026-12-01 00:00 UTC. */
#define MG_FUZZ_NOW G_GINT64_CONSTANT(1796083200)

int LLVMFuzzerTestOneInput(const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput(const guint8 *data, size_t size)
{
	g_autoptr(MgCatalogue) cat = mg_catalogue_new_from_data((const char *)data, size, NULL);
	static const MgDeviceClass classes[] = { MG_DEVICE_CLASS_WIFI, MG_DEVICE_CLASS_ETHERNET };

	if (cat == NULL)
		return 0;
	for (guint c = 0; c < G_N_ELEMENTS(classes); c++) {
		g_autoptr(MgGenerator) gen =
		    mg_generator_new(cat, classes[c], NULL, MG_FUZZ_NOW, NULL);
		g_autoptr(MgRandom) rng = mg_random_new_seeded(size);
		for (guint i = 0; gen != NULL && i < 16; i++) {
			const MgCatalogueEntry *e = NULL;
			MgMac mac;
			g_assert_true(mg_generator_next(gen, rng, NULL, NULL, 1, &mac, &e, NULL));
			g_assert_true(mg_mac_is_global_unicast(&mac));
			g_assert_true(mg_catalogue_lookup(cat, &mac) == e);
		}
	}
	return 0;
}
