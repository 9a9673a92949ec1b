/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A fleet of machines drawing addresses with macguise's generator, on LANs
 * of k stations, rotating daily for a year: how often does some LAN see two
 * stations with one address, with and without the pre-up check, against
 * NetworkManager's "random" (46 random bits) and the all-zeros proposal of
 * the FreedomBox discussion (seeds/000)? Also how far the drawn vendors are
 * from the catalogue's weights, and whether one machine's next vendor can
 * be guessed from its last.
 *
 * The one figure that depends on macguise's distribution is q, the chance
 * that two independent draws give the same address. It is computed exactly
 * from the catalogue and measured from D seeded draws (every colliding pair
 * counted); LAN and fleet figures follow from it:
 *   per LAN-day   P1 = 1 - exp(-k(k-1)/2 * q)         (birthday bound)
 *   per LAN-year  Py = 1 - (1 - P1)^365                (a fresh draw daily)
 *   fleet-year    Pf = 1 - (1 - Py)^(N/k)
 * With the check, a collision with a station that is there and answers is
 * found and the address drawn again: only two in a row remain, about
 * P1 * (k-1) * q; with a share m of stations that do not answer (asleep),
 * about m * P1.
 *
 *   fleet [--machines N] [--draws D] [--tsv FILE] [--seed S] */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mg-catalogue.h"
#include "mg-bench-info.h"
#include "mg-generator.h"

#define DAYS 365
#define NM_RANDOM_BITS 46
#define ASLEEP 0.01

static int
cmp_u64(const void *a, const void *b)
{
	guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;
	return x < y ? -1 : x > y;
}

typedef struct {
	double q;       /* P(two draws are one address) */
	double per_day; /* P1 */
} MgScheme;

static double
lan_day(double q, double k)
{
	return -expm1(-k * (k - 1) / 2 * q);
}

static double
years(double p_day, double times)
{
	/* 1 - (1-p)^times, accurate for tiny p */
	return -expm1(times * log1p(-p_day));
}

/* What the seeded draws measured. */
typedef struct {
	guint64 pairs;            /* pairs of draws that gave one address */
	guint64 same_vendor_next; /* draws from the vendor of the draw before */
	double kl;                /* KL(drawn vendor shares || catalogue weights) */
	guint vendors;            /* vendors drawn at least once */
} MgFleetDraws;

static void
mg_fleet_draw(MgGenerator *gen, MgRandom *rng, gint64 draws, MgFleetDraws *out)
{
	g_autoptr(GHashTable) vendor_counts = g_hash_table_new(NULL, NULL);
	guint64 *macs = g_new(guint64, draws);
	const MgVendor *last = NULL;
	GHashTableIter iter;
	gpointer k, v;

	memset(out, 0, sizeof(*out));
	for (gint64 i = 0; i < draws; i++) {
		const MgCatalogueEntry *e;
		MgMac mac;
		gpointer n;
		g_assert(mg_generator_next(gen, rng, NULL, NULL, 1, &mac, &e, NULL));
		macs[i] = mg_mac_to_u64(&mac);
		n = g_hash_table_lookup(vendor_counts, e->vendor);
		g_hash_table_insert(
		    vendor_counts, (gpointer)e->vendor, GSIZE_TO_POINTER(GPOINTER_TO_SIZE(n) + 1));
		/* the draws in a row are one machine's successive addresses */
		out->same_vendor_next += e->vendor == last;
		last = e->vendor;
	}
	qsort(macs, (size_t)draws, sizeof(guint64), cmp_u64);
	for (gint64 i = 0, j; i < draws; i = j) {
		for (j = i + 1; j < draws && macs[j] == macs[i]; j++)
			;
		out->pairs += (guint64)(j - i) * (guint64)(j - i - 1) / 2;
	}
	g_free(macs);
	g_hash_table_iter_init(&iter, vendor_counts);
	while (g_hash_table_iter_next(&iter, &k, &v)) {
		double phat = (double)GPOINTER_TO_SIZE(v) / (double)draws;
		out->kl += phat * log(phat / mg_generator_vendor_share(gen, k));
	}
	out->vendors = g_hash_table_size(vendor_counts);
}

static void
mg_fleet_print_draws(MgGenerator *gen, const MgFleetDraws *d, gint64 draws)
{
	double q_exact = mg_generator_same_address(gen);
	double q_drawn = (double)d->pairs / ((double)draws * (double)(draws - 1) / 2);
	double q_nm = ldexp(1.0, -NM_RANDOM_BITS);

	printf("q = P(two draws give one address)\n");
	printf("  macguise, exact from the catalogue   %.4g  (as many equally likely addresses: "
	       "%.3g)\n",
	       q_exact,
	       1 / q_exact);
	printf("  macguise, measured (%" G_GUINT64_FORMAT " colliding pairs)  %.4g  (ratio %.3f)\n",
	       d->pairs,
	       q_drawn,
	       q_drawn / q_exact);
	printf("  NetworkManager random, 2^-%d        %.4g  (%.3g addresses)\n",
	       NM_RANDOM_BITS,
	       q_nm,
	       1 / q_nm);
	printf("  all-zeros proposal                   1\n\n");

	printf("vendor distribution: KL(drawn || catalogue weights) = %.3g nats "
	       "(sampling noise alone: about %.3g)\n",
	       d->kl,
	       (double)(d->vendors - 1) / (2.0 * (double)draws));
	printf("next address of one machine from the same vendor: %.4f measured, %.4f population "
	       "rate (sum of squared shares)\n\n",
	       (double)d->same_vendor_next / (double)(draws - 1),
	       mg_generator_same_vendor(gen));
}

static void
mg_fleet_print_collisions(double q_exact, gint64 machines)
{
	static const int lans[] = { 2, 10, 50, 100, 250, 500, 1000 };
	double q_nm = ldexp(1.0, -NM_RANDOM_BITS);

	printf("P(a collision): on one LAN in a day and in a year; anywhere in the fleet in a "
	       "year, unchecked,\nchecked (every station answers), checked with 1%% of stations "
	       "asleep, and with NetworkManager's random\n");
	printf("%6s  %-11s %-11s %-11s %-11s %-11s %-11s\n",
	       "LAN k",
	       "LAN-day",
	       "LAN-year",
	       "fleet",
	       "fleet chk",
	       "fleet 1%",
	       "fleet NM");
	for (guint i = 0; i < G_N_ELEMENTS(lans); i++) {
		double k = lans[i], nlans = (double)machines / k;
		double p1 = lan_day(q_exact, k);
		double checked = p1 * (k - 1) * q_exact;
		printf("%6d  %-11.3g %-11.3g %-11.3g %-11.3g %-11.3g %-11.3g\n",
		       lans[i],
		       p1,
		       years(p1, DAYS),
		       years(years(p1, DAYS), nlans),
		       years(years(checked, DAYS), nlans),
		       years(years(ASLEEP * p1, DAYS), nlans),
		       years(years(lan_day(q_nm, k), DAYS), nlans));
	}
	printf("(all-zeros: 1 on any LAN with two boxes)\n");
}

static gboolean
mg_fleet_write_tsv(const char *path, double q_exact)
{
	double q_nm = ldexp(1.0, -NM_RANDOM_BITS);
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		perror(path);
		return FALSE;
	}
	fprintf(f, "k\tmacguise\tchecked\tasleep\tnm_random\tall_zeros\n");
	for (int k = 2; k <= 1000; k = k < 10 ? k + 1 : (int)ceil(k * 1.1)) {
		double p1 = lan_day(q_exact, k);
		fprintf(f,
			"%d\t%.6g\t%.6g\t%.6g\t%.6g\t1\n",
			k,
			years(p1, DAYS),
			years(p1 * (k - 1) * q_exact, DAYS),
			years(ASLEEP * p1, DAYS),
			years(lan_day(q_nm, k), DAYS));
	}
	fclose(f);
	return TRUE;
}

int
main(int argc, char **argv)
{
	gint64 machines = 10000000;
	gint64 draws = 10000000;
	gint64 seed = 20261203;
	g_autofree char *tsv = NULL;
	const GOptionEntry entries[] = {
		{ "machines", 0, 0, G_OPTION_ARG_INT64, &machines, "fleet size", "N" },
		{ "draws", 0, 0, G_OPTION_ARG_INT64, &draws, "seeded draws measuring q", "D" },
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "seed of the draws", "S" },
		{ "tsv",
		  0,
		  0,
		  G_OPTION_ARG_FILENAME,
		  &tsv,
		  "write the curve for the plot",
		  "FILE" },
		{ NULL },
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new(NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(MgCatalogue) cat = NULL;
	g_autoptr(MgGenerator) gen = NULL;
	g_autoptr(MgRandom) rng = NULL;
	MgFleetDraws measured;
	gint64 start;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &error) || machines < 2 || draws < 2) {
		fprintf(stderr, "fleet: %s\n", error != NULL ? error->message : "bad sizes");
		return 2;
	}
	cat = mg_catalogue_new_builtin(&error);
	gen = cat != NULL
		  ? mg_generator_new(
			cat, MG_DEVICE_CLASS_WIFI, NULL, g_get_real_time() / G_USEC_PER_SEC, &error)
		  : NULL;
	if (gen == NULL) {
		fprintf(stderr, "fleet: %s\n", error->message);
		return 1;
	}
	rng = mg_random_new_seeded((guint64)seed);
	start = g_get_monotonic_time();
	mg_fleet_draw(gen, rng, draws, &measured);

	printf("fleet simulation: %" G_GINT64_FORMAT " machines, daily rotation for %d days; "
	       "Wi-Fi class\n",
	       machines,
	       DAYS);
	fflush(stdout);
	mg_bench_print_info();
	printf("%" G_GINT64_FORMAT " seeded draws in %.1f s\n\n",
	       draws,
	       (double)(g_get_monotonic_time() - start) / 1e6);
	mg_fleet_print_draws(gen, &measured, draws);
	mg_fleet_print_collisions(mg_generator_same_address(gen), machines);
	if (tsv != NULL && !mg_fleet_write_tsv(tsv, mg_generator_same_address(gen)))
		return 1;
	return 0;
}
