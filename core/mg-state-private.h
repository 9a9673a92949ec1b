/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the state's model (mg-state.c), its file format (mg-state-format.c)
 * and its directory store (mg-state-store.c) share, and nothing else sees. */

#include <sodium.h>

#include "mg-state.h"

G_BEGIN_DECLS

#define MG_STATE_KEY_BYTES crypto_generichash_KEYBYTES
#define MG_HISTORY_DIGEST_BYTES 16
/* A history entry keeps 20 bits of its keyed digest, in hex: whoever has
 * the disk has the key too, and of the catalogue's 4.6 x 10^10 addresses
 * about 44,000 share each entry's 20 bits. Files written before kept all
 * 128; their entries load as their first 20. */
#define MG_HISTORY_ENTRY_HEX 5

struct _MgState {
	guint8 key[MG_STATE_KEY_BYTES];
	GHashTable *profiles; /* uuid -> MgProfileState* */
	GHashTable *history;  /* hex digest -> time last recorded (gint64*) */
	gboolean older_form;  /* loaded from a file that kept more than this form does */
};

/* Records the history entry @digest (taken) as used at @when. */
void mg_state_remember_digest(MgState *state, char *digest, gint64 when);
/* Proves the file was written with this key. */
char *mg_state_key_check(MgState *state);
/* A hash table's keys, unsorted; free the container only. */
GPtrArray *mg_hash_table_keys(GHashTable *table);
/* g_ptr_array_sort's comparison of strings. */
int mg_strcmp_indirect(gconstpointer a, gconstpointer b);

G_END_DECLS
