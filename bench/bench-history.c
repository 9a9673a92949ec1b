/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the state's history tells whoever has the disk, and so its key
 * (core/mg-state-private.h: 20 bits of a keyed digest per entry):
 *   candidates per entry  the catalogue addresses that share one entry,
 *                         counted over a whole block and scaled to the
 *                         catalogue, against 2^-20 of it
 *   redraws               the share of new draws whose entry 10,000 earlier
 *                         addresses already hold, against 10,000 / 2^20
 *   cost of a test        one address tested against an entry, as an
 *                         attacker would, against a bare keyed BLAKE2b */
#include "config.h"

#include <sodium.h>
#include <stdio.h>

#include "mg-bench-info.h"
#include "mg-catalogue.h"
#include "mg-generator.h"
#include "mg-random.h"
#include "mg-state.h"

#define HISTORY 10000
#define DRAWS 100000

static double
catalogue_addresses(MgCatalogue *cat)
{
	GPtrArray *entries = mg_catalogue_get_entries(cat);
	double total = 0;

	for (guint i = 0; i < entries->len; i++) {
		const MgCatalogueEntry *e = g_ptr_array_index(entries, i);
		total += (double)(e->serial_max - e->serial_min + 1);
	}
	return total;
}

/* How many of the block's addresses share the entry of its first one. */
static guint
block_crowd(MgState *state, const MgCatalogueEntry *e, double *seconds)
{
	gint64 start = g_get_monotonic_time();
	guint crowd = 0;
	MgMac m;

	mg_prefix_make_mac(&e->prefix, e->serial_min, &m);
	mg_state_remember(state, &m, 1);
	for (guint64 s = e->serial_min; s <= e->serial_max; s++) {
		mg_prefix_make_mac(&e->prefix, s, &m);
		crowd += mg_state_was_used(state, &m) ? 1 : 0;
	}
	*seconds = (double)(g_get_monotonic_time() - start) / G_USEC_PER_SEC;
	return crowd;
}

static double
bare_blake2b_seconds(guint64 n)
{
	guint8 key[crypto_generichash_KEYBYTES] = { 1 }, out[16], in[25] = { 0 };
	gint64 start = g_get_monotonic_time();

	for (guint64 i = 0; i < n; i++) {
		memcpy(in, &i, sizeof(i));
		crypto_generichash(out, sizeof(out), in, sizeof(in), key, sizeof(key));
	}
	return (double)(g_get_monotonic_time() - start) / G_USEC_PER_SEC;
}

static double
redraw_share(MgCatalogue *cat, MgState *state)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(MgGenerator) gen = mg_generator_new(
	    cat, MG_DEVICE_CLASS_WIFI, NULL, g_get_real_time() / G_USEC_PER_SEC, &error);
	g_autoptr(MgRandom) rng = mg_random_new_system(&error);
	guint taken = 0;
	MgMac m;

	g_assert_no_error(error);
	for (guint i = 0; i < HISTORY; i++) {
		g_assert_true(mg_generator_next(gen, rng, NULL, NULL, 1, &m, NULL, NULL));
		mg_state_remember(state, &m, 2);
	}
	for (guint i = 0; i < DRAWS; i++) {
		g_assert_true(mg_generator_next(gen, rng, NULL, NULL, 1, &m, NULL, NULL));
		taken += mg_state_was_used(state, &m) ? 1 : 0;
	}
	return (double)taken / DRAWS;
}

int
main(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(MgCatalogue) cat = NULL;
	guint8 key[32];
	const MgCatalogueEntry *block;
	double total, scan_s, bare_s, block_size, redraws;
	guint crowd, entries_before;

	g_assert_true(mg_random_init(NULL));
	cat = mg_catalogue_new_builtin(&error);
	g_assert_no_error(error);
	randombytes_buf(key, sizeof(key));
	{
		g_autoptr(MgState) state = mg_state_new_empty(key, sizeof(key));
		block = g_ptr_array_index(mg_catalogue_get_entries(cat), 0);
		block_size = (double)(block->serial_max - block->serial_min + 1);
		total = catalogue_addresses(cat);
		crowd = block_crowd(state, block, &scan_s);
		bare_s = bare_blake2b_seconds((guint64)block_size);
	}
	{
		g_autoptr(MgState) state = mg_state_new_empty(key, sizeof(key));
		redraws = redraw_share(cat, state);
		entries_before = mg_state_history_size(state);
	}
	mg_bench_print_info();
	g_print(
	    "catalogue: %u blocks, %.3g addresses\n", mg_catalogue_get_entries(cat)->len, total);
	g_print("%-40s %14s %14s %8s\n", "measure", "measured", "baseline", "ratio");
	g_print("%-40s %14.0f %14.0f %8.2f\n",
		"candidates per entry / catalogue / 2^20",
		total * crowd / block_size,
		total / 1048576.0,
		(total * crowd / block_size) / (total / 1048576.0));
	g_print("%-40s %13.2f%% %13.2f%% %8.2f\n",
		"redraws with 10,000 entries / 10^4/2^20",
		100.0 * redraws,
		100.0 * HISTORY / 1048576.0,
		redraws / (HISTORY / 1048576.0));
	g_print("%-40s %12.0fns %12.0fns %8.2f\n",
		"one test of an address / bare BLAKE2b",
		1e9 * scan_s / block_size,
		1e9 * bare_s / block_size,
		scan_s / bare_s);
	g_print("(%u entries held the 10,000 earlier addresses; the block scanned: %.0f addresses, "
		"%u of them sharing its first one's entry)\n",
		entries_before,
		block_size,
		crowd);
	return 0;
}
