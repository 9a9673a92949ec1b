/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-random"

#include "config.h"

#include "mg-random.h"

#include <glib/gi18n-lib.h>
#include <sodium.h>
#include <string.h>

#include "mg-error.h"

/* How many bytes the seeded source makes at a time. */
#define MG_RANDOM_POOL 4096

struct _MgRandom {
	gboolean seeded;
	guint8 seed[randombytes_SEEDBYTES];
	guint64 block; /* how many pools the seeded stream has made */
	guint8 pool[MG_RANDOM_POOL];
	gsize pool_used;
};

gboolean
mg_random_init(GError **error)
{
	/* sodium_init() returns 1 when already initialised, which is fine. */
	if (sodium_init() < 0) {
		g_set_error_literal(
		    error,
		    MG_ERROR,
		    MG_ERROR_RANDOMNESS,
		    _("libsodium could not be initialised: no source of randomness"));
		return FALSE;
	}
	return TRUE;
}

MgRandom *
mg_random_new_system(GError **error)
{
	if (!mg_random_init(error))
		return NULL;
	return g_new0(MgRandom, 1);
}

MgRandom *
mg_random_new_seeded(guint64 seed)
{
	MgRandom *rng;

	if (!mg_random_init(NULL))
		g_error("libsodium could not be initialised");
	rng = g_new0(MgRandom, 1);
	rng->seeded = TRUE;
	for (guint i = 0; i < 8; i++)
		rng->seed[i] = (guint8)(seed >> (8 * i));
	rng->pool_used = MG_RANDOM_POOL;
	return rng;
}

void
mg_random_free(MgRandom *rng)
{
	if (rng == NULL)
		return;
	sodium_memzero(rng, sizeof(*rng));
	g_free(rng);
}

/* The seeded stream is pool after pool of ChaCha20 output, each keyed by the
 * seed with the pool number mixed into its last bytes. */
static void
mg_random_refill(MgRandom *rng)
{
	guint8 key[randombytes_SEEDBYTES];

	memcpy(key, rng->seed, sizeof(key));
	for (guint i = 0; i < 8; i++)
		key[sizeof(key) - 8 + i] ^= (guint8)(rng->block >> (8 * i));
	randombytes_buf_deterministic(rng->pool, sizeof(rng->pool), key);
	sodium_memzero(key, sizeof(key));
	rng->block++;
	rng->pool_used = 0;
}

void
mg_random_fill(MgRandom *rng, void *buf, gsize len)
{
	guint8 *out = buf;

	if (!rng->seeded) {
		randombytes_buf(buf, len);
		return;
	}
	while (len > 0) {
		gsize n;
		if (rng->pool_used == sizeof(rng->pool))
			mg_random_refill(rng);
		n = MIN(len, sizeof(rng->pool) - rng->pool_used);
		memcpy(out, rng->pool + rng->pool_used, n);
		sodium_memzero(rng->pool + rng->pool_used, n);
		rng->pool_used += n;
		out += n;
		len -= n;
	}
}

guint32
mg_random_uniform(MgRandom *rng, guint32 upper_bound)
{
	guint32 min, r;

	g_return_val_if_fail(upper_bound >= 1, 0);
	if (!rng->seeded)
		return randombytes_uniform(upper_bound);

	/* The same rejection rule as libsodium's: drop the 2^32 mod upper_bound
	 * lowest values so every residue is equally likely. */
	if (upper_bound < 2)
		return 0;
	min = (guint32)(-upper_bound % upper_bound);
	do {
		mg_random_fill(rng, &r, sizeof(r));
	} while (r < min);
	return r % upper_bound;
}
