/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where macguise's random numbers come from. Production code uses the
 * system source (libsodium's randombytes, i.e. getrandom(2)); tests use a
 * seeded source so a million draws are reproducible. Both are libsodium. */
typedef struct _MgRandom MgRandom;

gboolean mg_random_init(GError **error);
MgRandom *mg_random_new_system(GError **error);
/* Deterministic: libsodium's ChaCha20 stream keyed by @seed. Tests only. */
MgRandom *mg_random_new_seeded(guint64 seed);
void mg_random_free(MgRandom *rng);

/* Uniform over [0, upper_bound), without modulo bias. upper_bound >= 1. */
guint32 mg_random_uniform(MgRandom *rng, guint32 upper_bound);
void mg_random_fill(MgRandom *rng, void *buf, gsize len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgRandom, mg_random_free)

G_END_DECLS
