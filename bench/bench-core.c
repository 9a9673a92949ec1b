/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Costs of the core, each as a ratio against a baseline measured in the same
 * process, so the figures compare across machines:
 *   catalogue load    vs. splitting the same table text into lines
 *   10^6 addresses    vs. the 10^6 x 3 libsodium draws they need at least */
#include "config.h"

#include <gio/gio.h>
#include <sodium.h>
#include <stdio.h>

#include "mg-bench-info.h"
#include "mg-catalogue.h"
#include "mg-generator.h"

#define ROUNDS 5
#define ADDRESSES 1000000

typedef void (*MgBenchFunc)(gpointer data);

static double
mg_bench_median_us(MgBenchFunc fn, gpointer data)
{
	double t[ROUNDS];
	for (guint r = 0; r < ROUNDS; r++) {
		gint64 start = g_get_monotonic_time();
		fn(data);
		t[r] = (double)(g_get_monotonic_time() - start);
	}
	for (guint i = 1; i < ROUNDS; i++) {
		for (guint j = i; j > 0 && t[j - 1] > t[j]; j--) {
			double x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	}
	return t[ROUNDS / 2];
}

static void
bench_split_lines(gpointer data)
{
	GBytes *bytes = data;
	gsize len;
	const char *text = g_bytes_get_data(bytes, &len);
	g_autofree char *copy = g_strndup(text, len);
	g_auto(GStrv) lines = g_strsplit(copy, "\n", -1);
	g_assert_nonnull(lines[0]);
}

static void
bench_load_catalogue(gpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(MgCatalogue) cat = mg_catalogue_new_builtin(&error);
	g_assert_no_error(error);
	g_assert_nonnull(cat);
}

static void
bench_raw_draws(gpointer data)
{
	volatile guint32 sink = 0;
	for (guint i = 0; i < ADDRESSES; i++)
		sink ^= randombytes_uniform(1000) ^ randombytes_uniform(400) ^
			randombytes_uniform(0xfffffe);
	(void)sink;
}

static void
bench_generate(gpointer data)
{
	MgGenerator *gen = data;
	g_autoptr(MgRandom) rng = mg_random_new_system(NULL);
	for (guint i = 0; i < ADDRESSES; i++) {
		MgMac mac;
		g_assert_true(mg_generator_next(gen, rng, NULL, NULL, 1, &mac, NULL, NULL));
	}
}

/* One step alone, for callgrind's instruction counts (bench/callgrind.py):
 * "none" (start-up only), "split", "load", or "generate" (load, then 10^4
 * seeded draws: the counts are the generator's, not the kernel's). */
static int
mg_bench_one_step(const char *step)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) table = g_resources_lookup_data(
	    "/org/macguise/vendors.table", G_RESOURCE_LOOKUP_FLAGS_NONE, &error);

	g_assert_no_error(error);
	if (g_strcmp0(step, "split") == 0) {
		bench_split_lines(table);
	} else if (g_strcmp0(step, "load") == 0) {
		bench_load_catalogue(NULL);
	} else if (g_strcmp0(step, "generate") == 0) {
		g_autoptr(MgCatalogue) cat = mg_catalogue_new_builtin(&error);
		g_autoptr(MgGenerator) gen = mg_generator_new(
		    cat, MG_DEVICE_CLASS_WIFI, NULL, g_get_real_time() / G_USEC_PER_SEC, &error);
		g_autoptr(MgRandom) rng = mg_random_new_seeded(1);
		g_assert_no_error(error);
		for (guint i = 0; i < 10000; i++) {
			MgMac mac;
			g_assert_true(mg_generator_next(gen, rng, NULL, NULL, 1, &mac, NULL, NULL));
		}
	} else if (g_strcmp0(step, "none") != 0) {
		g_printerr("bench-core: unknown step %s\n", step);
		return 2;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) table = g_resources_lookup_data(
	    "/org/macguise/vendors.table", G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
	g_autoptr(MgCatalogue) cat = NULL;
	g_autoptr(MgGenerator) gen = NULL;
	double split, load, raw, generate;

	if (argc == 3 && g_strcmp0(argv[1], "--step") == 0)
		return mg_bench_one_step(argv[2]);
	g_assert_no_error(error);
	g_assert_true(mg_random_init(NULL));
	cat = mg_catalogue_new_builtin(&error);
	g_assert_no_error(error);
	gen = mg_generator_new(
	    cat, MG_DEVICE_CLASS_WIFI, NULL, g_get_real_time() / G_USEC_PER_SEC, &error);
	g_assert_no_error(error);

	split = mg_bench_median_us(bench_split_lines, table);
	load = mg_bench_median_us(bench_load_catalogue, NULL);
	raw = mg_bench_median_us(bench_raw_draws, NULL);
	generate = mg_bench_median_us(bench_generate, gen);

	mg_bench_print_info();
	g_print("%-34s %12s %12s %8s\n", "measure (median of 5)", "us", "baseline us", "ratio");
	g_print("%-34s %12.0f %12.0f %8.2f\n",
		"catalogue load / split lines",
		load,
		split,
		load / split);
	g_print("%-34s %12.0f %12.0f %8.2f\n",
		"10^6 wifi addresses / 3x10^6 draws",
		generate,
		raw,
		generate / raw);
	g_print("catalogue: %u vendors, %u blocks, %" G_GSIZE_FORMAT " bytes\n",
		mg_catalogue_get_vendors(cat)->len,
		mg_catalogue_get_entries(cat)->len,
		g_bytes_get_size(table));
	return 0;
}
