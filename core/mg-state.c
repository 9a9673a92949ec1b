/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-state"

#include "config.h"

#include "mg-state.h"

#include "mg-state-private.h"

#include <sodium.h>
#include <string.h>

#include "mg-error.h"

static void
mg_profile_state_free(MgProfileState *p)
{
	g_free(p->uuid);
	g_free(p->boot_id);
	g_free(p->evidence);
	g_free(p->conflict_evidence);
	g_free(p);
}

MgState *
mg_state_new_empty(const guint8 *key, gsize key_len)
{
	MgState *state;

	g_return_val_if_fail(key_len == MG_STATE_KEY_BYTES, NULL);
	state = g_new0(MgState, 1);
	memcpy(state->key, key, MG_STATE_KEY_BYTES);
	state->profiles = g_hash_table_new_full(
	    g_str_hash, g_str_equal, NULL, (GDestroyNotify)mg_profile_state_free);
	state->history = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	return state;
}

void
mg_state_free(MgState *state)
{
	if (state == NULL)
		return;
	g_hash_table_unref(state->profiles);
	g_hash_table_unref(state->history);
	sodium_memzero(state->key, sizeof(state->key));
	g_free(state);
}

/* Digests --------------------------------------------------------------- */

static char *
mg_state_keyed_hex(MgState *state, const char *domain, const MgMac *mac, gsize bytes)
{
	crypto_generichash_state h;
	guint8 out[MG_HISTORY_DIGEST_BYTES];
	char hex[2 * MG_HISTORY_DIGEST_BYTES + 1];

	g_assert(bytes <= sizeof(out));
	crypto_generichash_init(&h, state->key, sizeof(state->key), bytes);
	crypto_generichash_update(&h, (const guint8 *)domain, strlen(domain));
	crypto_generichash_update(&h, mac->octet, MG_MAC_LEN);
	crypto_generichash_final(&h, out, bytes);
	sodium_bin2hex(hex, sizeof(hex), out, bytes);
	return g_strdup(hex);
}

/* The history's entry for @mac: 20 bits (MG_HISTORY_ENTRY_HEX). An entry
 * holds about 44,000 of the catalogue's addresses, and some 1 in 100 new
 * draws finds its entry taken by 10,000 others: the draw is made again. */
static char *
mg_state_history_digest(MgState *state, const MgMac *mac)
{
	g_autofree char *full =
	    mg_state_keyed_hex(state, "macguise history v1", mac, MG_HISTORY_DIGEST_BYTES);
	return g_strndup(full, MG_HISTORY_ENTRY_HEX);
}

/* The journal names an address by its history entry: the journal and the
 * disk together then tell no more of it than the history alone. */
char *
mg_state_log_digest(MgState *state, const MgMac *mac)
{
	return mg_state_history_digest(state, mac);
}

/* Proves the file was written with this key: a history made under another
 * key cannot answer "was this address used?" and must not pass for one. */
char *
mg_state_key_check(MgState *state)
{
	MgMac zero = { { 0 } };
	return mg_state_keyed_hex(state, "macguise key check v1", &zero, MG_HISTORY_DIGEST_BYTES);
}

/* Profiles and history --------------------------------------------------- */

int
mg_strcmp_indirect(gconstpointer a, gconstpointer b)
{
	return g_strcmp0(*(const char *const *)a, *(const char *const *)b);
}

/* g_hash_table_get_keys_as_ptr_array() is GLib 2.76; we pin 2.74. */
GPtrArray *
mg_hash_table_keys(GHashTable *table)
{
	GPtrArray *keys = g_ptr_array_sized_new(g_hash_table_size(table));
	GHashTableIter iter;
	gpointer k;

	g_hash_table_iter_init(&iter, table);
	while (g_hash_table_iter_next(&iter, &k, NULL))
		g_ptr_array_add(keys, k);
	return keys;
}

MgProfileState *
mg_state_get_profile(MgState *state, const char *uuid)
{
	return g_hash_table_lookup(state->profiles, uuid);
}

MgProfileState *
mg_state_ensure_profile(MgState *state, const char *uuid)
{
	MgProfileState *p = mg_state_get_profile(state, uuid);
	if (p == NULL) {
		p = g_new0(MgProfileState, 1);
		p->uuid = g_strdup(uuid);
		g_hash_table_insert(state->profiles, p->uuid, p);
	}
	return p;
}

gboolean
mg_state_remove_profile(MgState *state, const char *uuid)
{
	return g_hash_table_remove(state->profiles, uuid);
}

GPtrArray *
mg_state_list_profiles(MgState *state)
{
	GPtrArray *uuids = mg_hash_table_keys(state->profiles);
	g_ptr_array_sort(uuids, mg_strcmp_indirect);
	return uuids;
}

void
mg_state_remember(MgState *state, const MgMac *mac, gint64 now)
{
	mg_state_remember_digest(state, mg_state_history_digest(state, mac), now);
}

/* Two addresses may share an entry: it keeps the later time. */
void
mg_state_remember_digest(MgState *state, char *digest, gint64 when)
{
	const gint64 *known = g_hash_table_lookup(state->history, digest);

	if (known != NULL && *known >= when) {
		g_free(digest);
		return;
	}
	g_hash_table_replace(state->history, digest, g_memdup2(&when, sizeof(when)));
}

void
mg_state_assign(MgState *state,
		MgProfileState *profile,
		const MgMac *mac,
		gint64 now,
		gint64 due_at,
		const char *boot_id)
{
	g_return_if_fail(boot_id != NULL);
	mg_state_remember(state, mac, now);
	profile->has_address = TRUE;
	profile->address = *mac;
	profile->assigned_at = now;
	profile->due_at = due_at;
	profile->generation++;
	g_free(profile->boot_id);
	profile->boot_id = g_strdup(boot_id);
	profile->used = FALSE;
	profile->pending = FALSE;
}

void
mg_state_record_verdict(MgProfileState *profile,
			MgVerdict verdict,
			const char *evidence,
			gint64 now)
{
	g_return_if_fail(verdict != MG_VERDICT_NONE && mg_evidence_is_valid(evidence));
	profile->verdict = verdict;
	g_free(profile->evidence);
	profile->evidence = g_strdup(evidence);
	profile->checked_at = now;
	if (verdict == MG_VERDICT_CLEAN) {
		profile->recovery_attempts = 0;
		profile->recovery_failed = FALSE;
	} else if (verdict == MG_VERDICT_CONFLICT) {
		profile->conflict_at = now;
		g_free(profile->conflict_evidence);
		profile->conflict_evidence = g_strdup(evidence);
	}
}

/* Every profile's current address stays in the history, whatever its
 * age (mg_state_prune_history keeps it; a loaded file gets it back), so
 * that mg_state_was_used alone tells a candidate is taken, without a pass
 * over every profile for each draw. */
void
mg_state_remember_current(MgState *state)
{
	GHashTableIter iter;
	gpointer value;

	g_hash_table_iter_init(&iter, state->profiles);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		const MgProfileState *p = value;
		if (p->has_address)
			mg_state_remember(state, &p->address, p->assigned_at);
	}
}

static GHashTable *
mg_state_current_digests(MgState *state)
{
	GHashTable *current = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GHashTableIter iter;
	gpointer value;

	g_hash_table_iter_init(&iter, state->profiles);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		const MgProfileState *p = value;
		if (p->has_address)
			g_hash_table_add(current, mg_state_history_digest(state, &p->address));
	}
	return current;
}

gboolean
mg_state_was_used(MgState *state, const MgMac *mac)
{
	g_autofree char *digest = mg_state_history_digest(state, mac);
	return g_hash_table_contains(state->history, digest);
}

gboolean
mg_state_is_current_elsewhere(MgState *state, const MgMac *mac, const char *uuid)
{
	GHashTableIter iter;
	gpointer value;

	g_hash_table_iter_init(&iter, state->profiles);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		const MgProfileState *p = value;
		if (p->has_address && mg_mac_equal(&p->address, mac) &&
		    g_strcmp0(p->uuid, uuid) != 0)
			return TRUE;
	}
	return FALSE;
}

gint64
mg_state_remembered_at(MgState *state, const MgMac *mac)
{
	g_autofree char *digest = mg_state_history_digest(state, mac);
	const gint64 *t = g_hash_table_lookup(state->history, digest);
	return t != NULL ? *t : 0;
}

gboolean
mg_state_loaded_older_form(MgState *state)
{
	return state->older_form;
}

guint
mg_state_history_size(MgState *state)
{
	return g_hash_table_size(state->history);
}

typedef struct {
	const char *digest;
	gint64 time;
} MgHistoryItem;

static int
mg_history_item_older(gconstpointer a, gconstpointer b)
{
	const MgHistoryItem *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return g_strcmp0(x->digest, y->digest);
}

guint
mg_state_prune_history(MgState *state, gint64 now, gint64 max_age, guint max_entries)
{
	g_autoptr(GArray) items = g_array_new(FALSE, FALSE, sizeof(MgHistoryItem));
	g_autoptr(GPtrArray) doomed = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) current = mg_state_current_digests(state);
	GHashTableIter iter;
	gpointer k, v;
	guint keep;

	g_hash_table_iter_init(&iter, state->history);
	while (g_hash_table_iter_next(&iter, &k, &v)) {
		MgHistoryItem item = { k, *(gint64 *)v };
		if (g_hash_table_contains(current, k))
			continue; /* in use: kept, and not counted */
		if (item.time < now - max_age)
			g_ptr_array_add(doomed, g_strdup(k));
		else
			g_array_append_val(items, item);
	}
	g_array_sort(items, mg_history_item_older);
	keep = MIN(items->len, max_entries);
	for (guint i = 0; i < items->len - keep; i++)
		g_ptr_array_add(doomed, g_strdup(g_array_index(items, MgHistoryItem, i).digest));
	for (guint i = 0; i < doomed->len; i++)
		g_hash_table_remove(state->history, g_ptr_array_index(doomed, i));
	return doomed->len;
}
