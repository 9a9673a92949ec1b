/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-random.h"

static void
test_random_seeded_is_reproducible(void)
{
	g_autoptr(MgRandom) a = mg_random_new_seeded(42);
	g_autoptr(MgRandom) b = mg_random_new_seeded(42);
	g_autoptr(MgRandom) c = mg_random_new_seeded(43);
	guint8 ba[10000], bb[10000], bc[10000];

	/* Across pool refills too. */
	mg_random_fill(a, ba, sizeof(ba));
	mg_random_fill(b, bb, sizeof(bb));
	mg_random_fill(c, bc, sizeof(bc));
	g_assert_cmpmem(ba, sizeof(ba), bb, sizeof(bb));
	g_assert_true(memcmp(ba, bc, sizeof(ba)) != 0);
	/* Successive pools differ: the stream does not repeat itself. */
	g_assert_true(memcmp(ba, ba + 4096, 4096) != 0);
}

/* With upper = 3 * 2^30, a naive r % upper would give [0, 2^30) twice the
 * chance of the rest: one half instead of one third. */
static void
check_no_modulo_bias(MgRandom *rng)
{
	const guint32 upper = 3u << 30;
	const guint n = 200000;
	guint low = 0;
	double share;

	for (guint i = 0; i < n; i++) {
		guint32 r = mg_random_uniform(rng, upper);
		g_assert_cmpuint(r, <, upper);
		low += r < (1u << 30);
	}
	share = (double)low / n;
	/* 1/3 +- 6 standard deviations (sd = 0.00105) */
	g_assert_cmpfloat(share, >, 1.0 / 3 - 0.0063);
	g_assert_cmpfloat(share, <, 1.0 / 3 + 0.0063);
}

static void
test_random_uniform_seeded(void)
{
	g_autoptr(MgRandom) rng = mg_random_new_seeded(7);
	check_no_modulo_bias(rng);
	for (guint i = 0; i < 1000; i++)
		g_assert_cmpuint(mg_random_uniform(rng, 1), ==, 0);
}

static void
test_random_uniform_system(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(MgRandom) rng = mg_random_new_system(&error);
	guint8 a[32] = { 0 }, b[32] = { 0 };

	g_assert_no_error(error);
	check_no_modulo_bias(rng);
	mg_random_fill(rng, a, sizeof(a));
	mg_random_fill(rng, b, sizeof(b));
	g_assert_true(memcmp(a, b, sizeof(a)) != 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/random/seeded-reproducible", test_random_seeded_is_reproducible);
	g_test_add_func("/random/uniform-seeded", test_random_uniform_seeded);
	g_test_add_func("/random/uniform-system", test_random_uniform_system);
	return g_test_run();
}
