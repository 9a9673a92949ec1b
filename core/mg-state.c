/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-state"

#include "config.h"

#include "mg-state.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sodium.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mg-error.h"

#define MG_STATE_KEY_BYTES crypto_generichash_KEYBYTES
#define MG_HISTORY_DIGEST_BYTES 16
#define MG_LOG_DIGEST_BYTES 4
#define MG_INTEGRITY_MARK "\n[integrity]\nblake2b="
#define MG_PROFILE_GROUP "profile "

struct _MgState {
	guint8 key[MG_STATE_KEY_BYTES];
	GHashTable *profiles; /* uuid -> MgProfileState* */
	GHashTable *history;  /* hex digest -> time last recorded (gint64*) */
};

static void
mg_profile_state_free(MgProfileState *p)
{
	g_free(p->uuid);
	g_free(p->boot_id);
	g_free(p->evidence);
	g_free(p->conflict_evidence);
	g_free(p);
}

void
mg_state_load_report_clear(MgStateLoadReport *report)
{
	g_clear_pointer(&report->moved_to, g_free);
	g_clear_pointer(&report->reason, g_free);
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

static char *
mg_state_history_digest(MgState *state, const MgMac *mac)
{
	return mg_state_keyed_hex(state, "macguise history v1", mac, MG_HISTORY_DIGEST_BYTES);
}

char *
mg_state_log_digest(MgState *state, const MgMac *mac)
{
	return mg_state_keyed_hex(state, "macguise log v1", mac, MG_LOG_DIGEST_BYTES);
}

/* Proves the file was written with this key: a history made under another
 * key cannot answer "was this address used?" and must not pass for one. */
static char *
mg_state_key_check(MgState *state)
{
	MgMac zero = { { 0 } };
	return mg_state_keyed_hex(state, "macguise key check v1", &zero, MG_HISTORY_DIGEST_BYTES);
}

static char *
mg_state_integrity(const char *body, gsize len)
{
	guint8 out[crypto_generichash_BYTES];
	char hex[2 * crypto_generichash_BYTES + 1];
	crypto_generichash(out, sizeof(out), (const guint8 *)body, len, NULL, 0);
	sodium_bin2hex(hex, sizeof(hex), out, sizeof(out));
	return g_strdup(hex);
}

/* Profiles and history --------------------------------------------------- */

static int
mg_strcmp_indirect(gconstpointer a, gconstpointer b)
{
	return g_strcmp0(*(const char *const *)a, *(const char *const *)b);
}

/* g_hash_table_get_keys_as_ptr_array() is GLib 2.76; we pin 2.74. */
static GPtrArray *
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
	g_hash_table_replace(
	    state->history, mg_state_history_digest(state, mac), g_memdup2(&now, sizeof(now)));
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

gboolean
mg_state_is_current(MgState *state, const MgMac *mac)
{
	GHashTableIter iter;
	gpointer value;

	g_hash_table_iter_init(&iter, state->profiles);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		const MgProfileState *p = value;
		if (p->has_address && mg_mac_equal(&p->address, mac))
			return TRUE;
	}
	return FALSE;
}

gboolean
mg_state_was_used(MgState *state, const MgMac *mac)
{
	g_autofree char *digest = mg_state_history_digest(state, mac);
	return g_hash_table_contains(state->history, digest);
}

gint64
mg_state_remembered_at(MgState *state, const MgMac *mac)
{
	g_autofree char *digest = mg_state_history_digest(state, mac);
	const gint64 *t = g_hash_table_lookup(state->history, digest);
	return t != NULL ? *t : 0;
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
	GHashTableIter iter;
	gpointer k, v;
	guint keep;

	g_hash_table_iter_init(&iter, state->history);
	while (g_hash_table_iter_next(&iter, &k, &v)) {
		MgHistoryItem item = { k, *(gint64 *)v };
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

/* Serialising -------------------------------------------------------------- */

/* Key files, written directly: GKeyFile's setters cost most of a save
 * with thousands of profiles and history entries. The loader reads the
 * text with GKeyFile, so a string is escaped as g_key_file_set_string
 * escapes it. */
static void
mg_kf_string(GString *out, const char *key, const char *value)
{
	g_string_append_printf(out, "%s=", key);
	for (const char *c = value; *c != '\0'; c++) {
		switch (*c) {
		case ' ':
			g_string_append(out, c == value ? "\\s" : " ");
			break;
		case '\n':
			g_string_append(out, "\\n");
			break;
		case '\t':
			g_string_append(out, "\\t");
			break;
		case '\r':
			g_string_append(out, "\\r");
			break;
		case '\\':
			g_string_append(out, "\\\\");
			break;
		default:
			g_string_append_c(out, *c);
		}
	}
	g_string_append_c(out, '\n');
}

static void
mg_kf_int(GString *out, const char *key, gint64 value)
{
	g_string_append_printf(out, "%s=%" G_GINT64_FORMAT "\n", key, value);
}

static void
mg_kf_bool(GString *out, const char *key, gboolean value)
{
	g_string_append_printf(out, "%s=%s\n", key, value ? "true" : "false");
}

static void
mg_state_profile_to_data(GString *out, const MgProfileState *p)
{
	g_string_append_printf(out, "\n[" MG_PROFILE_GROUP "%s]\n", p->uuid);
	if (p->has_address) {
		char mac[MG_MAC_STRLEN];
		mg_mac_format(&p->address, mac);
		mg_kf_string(out, "address", mac);
	}
	mg_kf_int(out, "assigned-at", p->assigned_at);
	mg_kf_int(out, "due-at", p->due_at);
	g_string_append_printf(out, "generation=%" G_GUINT64_FORMAT "\n", p->generation);
	g_string_append_printf(out, "conflicts=%" G_GUINT64_FORMAT "\n", (guint64)p->conflicts);
	mg_kf_string(out, "boot-id", p->boot_id != NULL ? p->boot_id : "");
	mg_kf_bool(out, "used", p->used);
	mg_kf_bool(out, "pending", p->pending);
	mg_kf_bool(out, "user-owned", p->user_owned);
	/* Link checks: only once there was one. */
	if (p->verdict != MG_VERDICT_NONE) {
		mg_kf_string(out, "verdict", mg_verdict_to_string(p->verdict));
		mg_kf_string(out, "evidence", p->evidence);
		mg_kf_int(out, "checked-at", p->checked_at);
	}
	if (p->conflict_at != 0) {
		mg_kf_int(out, "conflict-at", p->conflict_at);
		mg_kf_string(out, "conflict-evidence", p->conflict_evidence);
	}
	if (p->recovery_attempts != 0)
		mg_kf_int(out, "recovery-attempts", p->recovery_attempts);
	if (p->recovery_failed)
		mg_kf_bool(out, "recovery-failed", TRUE);
	if (p->recognised_at != 0)
		mg_kf_int(out, "recognised-at", p->recognised_at);
}

char *
mg_state_to_data(MgState *state, gsize *len)
{
	g_autoptr(GPtrArray) uuids = mg_state_list_profiles(state);
	g_autoptr(GPtrArray) digests = mg_hash_table_keys(state->history);
	g_autofree char *check = mg_state_key_check(state);
	g_autofree char *integrity = NULL;
	GString *out = g_string_sized_new(256 * (uuids->len + 1) + 48 * digests->len);

	g_string_append(out, "[macguise]\n");
	mg_kf_int(out, "format", MG_STATE_FORMAT);
	mg_kf_string(out, "key-check", check);
	for (guint i = 0; i < uuids->len; i++)
		mg_state_profile_to_data(out,
					 mg_state_get_profile(state, g_ptr_array_index(uuids, i)));
	g_ptr_array_sort(digests, mg_strcmp_indirect);
	g_string_append(out, "\n[history]\n");
	for (guint i = 0; i < digests->len; i++) {
		const char *d = g_ptr_array_index(digests, i);
		mg_kf_int(out, d, *(gint64 *)g_hash_table_lookup(state->history, d));
	}
	integrity = mg_state_integrity(out->str, out->len);
	g_string_append_printf(out, MG_INTEGRITY_MARK "%s\n", integrity);
	if (len != NULL)
		*len = out->len;
	return g_string_free(out, FALSE);
}

/* Parsing ------------------------------------------------------------------ */

static gboolean G_GNUC_PRINTF(2, 3) mg_state_corrupt(GError **error, const char *format, ...)
{
	va_list args;
	g_autofree char *msg = NULL;

	va_start(args, format);
	msg = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error_literal(error, MG_ERROR, MG_ERROR_STATE, msg);
	return FALSE;
}

static gboolean
mg_state_get_int(
    GKeyFile *kf, const char *group, const char *key, gint64 min, gint64 *out, GError **error)
{
	g_autofree char *text = g_key_file_get_value(kf, group, key, NULL);
	if (text == NULL || !g_ascii_string_to_signed(text, 10, min, G_MAXINT64, out, NULL))
		return mg_state_corrupt(error, _("[%s] %s is missing or not a number"), group, key);
	return TRUE;
}

static gboolean
mg_state_get_bool(GKeyFile *kf, const char *group, const char *key, gboolean *out, GError **error)
{
	g_autofree char *text = g_key_file_get_value(kf, group, key, NULL);
	if (g_strcmp0(text, "true") != 0 && g_strcmp0(text, "false") != 0)
		return mg_state_corrupt(
		    error, _("[%s] %s is missing or not true/false"), group, key);
	*out = g_strcmp0(text, "true") == 0;
	return TRUE;
}

gboolean
mg_uuid_is_valid(const char *uuid)
{
	gsize len = strlen(uuid);
	return len > 0 && len <= 64 && strspn(uuid, "0123456789abcdefABCDEF-") == len;
}

/* The kernel's boot_id is a UUID; "" stands for "unknown". */
static gboolean
mg_boot_id_is_valid(const char *boot_id)
{
	return boot_id[0] == '\0' || mg_uuid_is_valid(boot_id);
}

static gboolean
mg_state_get_evidence(GKeyFile *kf, const char *group, const char *key, char **out, GError **error)
{
	g_autofree char *text = g_key_file_get_string(kf, group, key, NULL);
	if (text == NULL || !mg_evidence_is_valid(text))
		return mg_state_corrupt(
		    error, _("[%s] %s is missing or not one short line of text"), group, key);
	*out = g_steal_pointer(&text);
	return TRUE;
}

/* The link-check keys: all optional, but each pair complete. */
static gboolean
mg_state_parse_checks(GKeyFile *kf, const char *group, MgProfileState *p, GError **error)
{
	gint64 n;

	if (g_key_file_has_key(kf, group, "verdict", NULL)) {
		g_autofree char *v = g_key_file_get_value(kf, group, "verdict", NULL);
		if (!mg_verdict_parse(v, &p->verdict))
			return mg_state_corrupt(
			    error, _("[%s] verdict is not clean, conflict or unchecked"), group);
		if (!mg_state_get_evidence(kf, group, "evidence", &p->evidence, error) ||
		    !mg_state_get_int(kf, group, "checked-at", 0, &p->checked_at, error))
			return FALSE;
	} else if (g_key_file_has_key(kf, group, "evidence", NULL) ||
		   g_key_file_has_key(kf, group, "checked-at", NULL)) {
		return mg_state_corrupt(error, _("[%s] has evidence but no verdict"), group);
	}
	if (g_key_file_has_key(kf, group, "conflict-at", NULL)) {
		if (!mg_state_get_int(kf, group, "conflict-at", 1, &p->conflict_at, error) ||
		    !mg_state_get_evidence(
			kf, group, "conflict-evidence", &p->conflict_evidence, error))
			return FALSE;
	} else if (g_key_file_has_key(kf, group, "conflict-evidence", NULL)) {
		return mg_state_corrupt(
		    error, _("[%s] has conflict-evidence but no conflict-at"), group);
	}
	if (g_key_file_has_key(kf, group, "recovery-attempts", NULL)) {
		if (!mg_state_get_int(kf, group, "recovery-attempts", 1, &n, error))
			return FALSE;
		p->recovery_attempts = (guint)MIN(n, G_MAXUINT);
	}
	if (g_key_file_has_key(kf, group, "recovery-failed", NULL)) {
		if (!mg_state_get_bool(kf, group, "recovery-failed", &p->recovery_failed, error))
			return FALSE;
		if (!p->recovery_failed)
			return mg_state_corrupt(
			    error, _("[%s] recovery-failed is written only when true"), group);
	}
	if (g_key_file_has_key(kf, group, "recognised-at", NULL) &&
	    !mg_state_get_int(kf, group, "recognised-at", 1, &p->recognised_at, error))
		return FALSE;
	return TRUE;
}

static gboolean
mg_state_parse_profile(MgState *state, GKeyFile *kf, const char *group, GError **error)
{
	static const char *const known[] = { "address",
					     "assigned-at",
					     "due-at",
					     "generation",
					     "conflicts",
					     "boot-id",
					     "used",
					     "pending",
					     "user-owned",
					     "verdict",
					     "evidence",
					     "checked-at",
					     "conflict-at",
					     "conflict-evidence",
					     "recovery-attempts",
					     "recovery-failed",
					     "recognised-at",
					     NULL };
	const char *uuid = group + strlen(MG_PROFILE_GROUP);
	g_auto(GStrv) keys = g_key_file_get_keys(kf, group, NULL, NULL);
	g_autofree char *address = NULL;
	MgProfileState *p;
	gint64 n;

	if (!mg_uuid_is_valid(uuid) || mg_state_get_profile(state, uuid) != NULL)
		return mg_state_corrupt(error, _("[%s] does not name a profile UUID once"), group);
	for (guint i = 0; keys[i] != NULL; i++) {
		if (!g_strv_contains(known, keys[i]))
			return mg_state_corrupt(
			    error, _("[%s] has an unknown key %s"), group, keys[i]);
	}
	p = mg_state_ensure_profile(state, uuid);
	address = g_key_file_get_value(kf, group, "address", NULL);
	if (address != NULL) {
		if (!mg_mac_parse(address, &p->address, NULL) ||
		    !mg_mac_is_global_unicast(&p->address))
			return mg_state_corrupt(
			    error, _("[%s] address is not a global unicast MAC address"), group);
		p->has_address = TRUE;
	}
	if (!mg_state_get_int(kf, group, "assigned-at", 0, &p->assigned_at, error) ||
	    !mg_state_get_int(kf, group, "due-at", 0, &p->due_at, error) ||
	    !mg_state_get_int(kf, group, "generation", 0, &n, error))
		return FALSE;
	p->generation = (guint64)n;
	if (!mg_state_get_int(kf, group, "conflicts", 0, &n, error))
		return FALSE;
	p->conflicts = (guint)MIN(n, G_MAXUINT);
	p->boot_id = g_key_file_get_value(kf, group, "boot-id", NULL);
	if (p->boot_id == NULL || !mg_boot_id_is_valid(p->boot_id))
		return mg_state_corrupt(
		    error, _("[%s] boot-id is missing or not a boot id"), group);
	if (!mg_state_get_bool(kf, group, "used", &p->used, error) ||
	    !mg_state_get_bool(kf, group, "pending", &p->pending, error) ||
	    !mg_state_get_bool(kf, group, "user-owned", &p->user_owned, error))
		return FALSE;
	return mg_state_parse_checks(kf, group, p, error);
}

static gboolean
mg_state_parse_history(MgState *state, GKeyFile *kf, GError **error)
{
	g_auto(GStrv) keys = g_key_file_get_keys(kf, "history", NULL, NULL);

	for (guint i = 0; keys[i] != NULL; i++) {
		gint64 t;
		if (strlen(keys[i]) != 2 * MG_HISTORY_DIGEST_BYTES ||
		    strspn(keys[i], "0123456789abcdef") != 2 * MG_HISTORY_DIGEST_BYTES)
			return mg_state_corrupt(error, _("[history] %s is not a digest"), keys[i]);
		if (!mg_state_get_int(kf, "history", keys[i], 0, &t, error))
			return FALSE;
		g_hash_table_replace(state->history, g_strdup(keys[i]), g_memdup2(&t, sizeof(t)));
	}
	return TRUE;
}

MgState *
mg_state_new_from_data(
    const guint8 *key, gsize key_len, const char *text, gsize len, GError **error)
{
	g_autoptr(MgState) state = mg_state_new_empty(key, key_len);
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) local = NULL;
	g_autofree char *copy = NULL;
	g_autofree char *expected = NULL;
	g_autofree char *check = NULL;
	g_autofree char *found_check = NULL;
	g_auto(GStrv) groups = NULL;
	const char *mark;
	gint64 format;
	gsize body_len;

	g_return_val_if_fail(state != NULL, NULL); /* a key of the wrong size */
	/* The trailer proves the file is whole: a cut-off file parses as a
	 * smaller, valid key file and would silently lose profiles. */
	copy = g_strndup(text, len);
	if (strlen(copy) != len) {
		mg_state_corrupt(error, _("the file contains a NUL byte"));
		return NULL;
	}
	mark = g_strrstr(copy, MG_INTEGRITY_MARK);
	if (mark == NULL) {
		mg_state_corrupt(
		    error,
		    _("the integrity line is missing: the file is truncated or not macguise's"));
		return NULL;
	}
	body_len = (gsize)(mark - copy);
	expected = mg_state_integrity(copy, body_len);
	if (strlen(mark + strlen(MG_INTEGRITY_MARK)) != strlen(expected) + 1 ||
	    strncmp(mark + strlen(MG_INTEGRITY_MARK), expected, strlen(expected)) != 0 ||
	    copy[len - 1] != '\n') {
		mg_state_corrupt(error, _("the integrity check failed: the file is damaged"));
		return NULL;
	}
	copy[body_len] = '\0';
	if (!g_key_file_load_from_data(kf, copy, body_len, G_KEY_FILE_NONE, &local)) {
		mg_state_corrupt(error, _("not a key file: %s"), local->message);
		return NULL;
	}
	if (!mg_state_get_int(kf, "macguise", "format", 1, &format, error))
		return NULL;
	if (format > MG_STATE_FORMAT) {
		mg_state_corrupt(error,
				 _("it has format %lld, newer than this macguise (%d) reads"),
				 (long long)format,
				 MG_STATE_FORMAT);
		return NULL;
	}
	check = mg_state_key_check(state);
	found_check = g_key_file_get_value(kf, "macguise", "key-check", NULL);
	if (g_strcmp0(check, found_check) != 0) {
		mg_state_corrupt(
		    error,
		    _("it was written with another secret key, so its history cannot be checked"));
		return NULL;
	}
	groups = g_key_file_get_groups(kf, NULL);
	for (guint i = 0; groups[i] != NULL; i++) {
		gboolean ok = TRUE;
		if (g_str_has_prefix(groups[i], MG_PROFILE_GROUP))
			ok = mg_state_parse_profile(state, kf, groups[i], error);
		else if (g_strcmp0(groups[i], "history") == 0)
			ok = mg_state_parse_history(state, kf, error);
		else if (g_strcmp0(groups[i], "macguise") != 0)
			ok = mg_state_corrupt(error, _("unknown section [%s]"), groups[i]);
		if (!ok)
			return NULL;
	}
	return g_steal_pointer(&state);
}

/* Files ---------------------------------------------------------------------- */

char *
mg_systemd_directory(const char *variable, const char *fallback)
{
	const char *dirs = g_getenv(variable);
	if (dirs != NULL && dirs[0] != '\0') {
		g_auto(GStrv) list = g_strsplit(dirs, ":", 2);
		return g_strdup(list[0]);
	}
	return g_strdup(fallback);
}

char *
mg_state_default_dir(void)
{
	return mg_systemd_directory("STATE_DIRECTORY", MG_STATE_DEFAULT_DIR);
}

static gboolean
mg_fsync_dir(const char *dir, GError **error)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int saved;

	if (fd < 0 || fsync(fd) < 0) {
		saved = errno;
		if (fd >= 0)
			close(fd);
		g_set_error(error,
			    G_FILE_ERROR,
			    g_file_error_from_errno(saved),
			    _("cannot sync directory %s: %s"),
			    dir,
			    g_strerror(saved));
		return FALSE;
	}
	close(fd);
	return TRUE;
}

static gboolean
mg_write_durably(const char *dir, const char *name, const char *data, gsize len, GError **error)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	if (!g_file_set_contents_full(path,
				      data,
				      (gssize)len,
				      G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
				      0600,
				      error))
		return FALSE;
	/* The rename itself is durable only once the directory is on disk. */
	return mg_fsync_dir(dir, error);
}

/* With @create, a missing key is made; without, it is G_FILE_ERROR_NOENT. */
static gboolean
mg_state_read_key(const char *dir, guint8 key[MG_STATE_KEY_BYTES], gboolean create, GError **error)
{
	g_autofree char *path = g_build_filename(dir, MG_STATE_KEY_FILE_NAME, NULL);
	g_autofree char *data = NULL;
	g_autoptr(GError) local = NULL;
	gsize len = 0;

	if (g_file_get_contents(path, &data, &len, &local)) {
		if (len != MG_STATE_KEY_BYTES) {
			sodium_memzero(data, len);
			g_set_error(error,
				    MG_ERROR,
				    MG_ERROR_STATE,
				    _("the secret key %s has %u bytes, not %d; it is left "
				      "as it is, because the reuse history depends on it"),
				    path,
				    (guint)MIN(len, G_MAXUINT),
				    MG_STATE_KEY_BYTES);
			return FALSE;
		}
		memcpy(key, data, MG_STATE_KEY_BYTES);
		sodium_memzero(data, len);
		return TRUE;
	}
	if (!create || !g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
		g_propagate_prefixed_error(
		    error, g_steal_pointer(&local), _("cannot read the secret key: "));
		return FALSE;
	}
	/* First start: a key of our own, from libsodium, readable by root only. */
	if (sodium_init() < 0) {
		g_set_error_literal(
		    error, MG_ERROR, MG_ERROR_RANDOMNESS, _("libsodium could not be initialised"));
		return FALSE;
	}
	randombytes_buf(key, MG_STATE_KEY_BYTES);
	if (!mg_write_durably(
		dir, MG_STATE_KEY_FILE_NAME, (const char *)key, MG_STATE_KEY_BYTES, error)) {
		g_prefix_error(error, _("cannot create the secret key: "));
		return FALSE;
	}
	return TRUE;
}

/* g_file_set_contents() writes "state.XXXXXX" first; a writer killed in
 * between leaves one behind. Only macguised writes here, and only after
 * loading, so any such file at load time is stale. */
static void
mg_state_remove_stale_temporaries(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;
	gsize base = strlen(MG_STATE_FILE_NAME ".");

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		if (g_str_has_prefix(name, MG_STATE_FILE_NAME ".") && strlen(name) == base + 6 &&
		    strchr(name + base, '-') == NULL) {
			g_autofree char *path = g_build_filename(dir, name, NULL);
			g_unlink(path);
		}
	}
}

/* How many characters from @p are hex pairs joined by ':' or '-' ("8c:f8"),
 * counting @pairs; the run must not go on into more hex. */
static gsize
mg_hex_pairs_at(const char *p, gsize left, guint *pairs)
{
	gsize n = 0;

	*pairs = 0;
	while (n + 2 <= left && g_ascii_isxdigit(p[n]) && g_ascii_isxdigit(p[n + 1]) &&
	       (n + 2 == left || !g_ascii_isxdigit(p[n + 2]))) {
		(*pairs)++;
		n += 2;
		if (n + 3 <= left && (p[n] == ':' || p[n] == '-') && g_ascii_isxdigit(p[n + 1]))
			n++;
		else
			break;
	}
	return n;
}

char *
mg_state_redact(const char *text, gsize len)
{
	GString *out = g_string_sized_new(len);

	for (gsize i = 0; i < len;) {
		guint pairs = 0;
		gsize n = (i == 0 || !g_ascii_isxdigit(text[i - 1]))
			      ? mg_hex_pairs_at(text + i, len - i, &pairs)
			      : 0;
		/* three pairs or more: an address, or what a cut left of one */
		if (pairs >= 3) {
			g_string_append(out, "xx:xx:xx:xx:xx:xx");
			i += n;
		} else {
			g_string_append_c(out, text[i] != '\0' ? text[i] : '?');
			i++;
		}
	}
	return g_string_free(out, FALSE);
}

/* Keeps an unusable state for the administrator as @moved_to, its MAC
 * addresses redacted, and removes it. */
static gboolean
mg_state_set_aside(const char *dir,
		   const char *path,
		   const char *text,
		   gsize len,
		   const char *moved_to,
		   GError **error)
{
	g_autofree char *redacted = mg_state_redact(text, len);
	g_autofree char *name = g_path_get_basename(moved_to);

	if (!mg_write_durably(dir, name, redacted, strlen(redacted), error))
		return FALSE;
	if (g_unlink(path) < 0) {
		int saved = errno;
		g_set_error(
		    error, G_FILE_ERROR, g_file_error_from_errno(saved), "%s", g_strerror(saved));
		return FALSE;
	}
	return TRUE;
}

MgState *
mg_state_load(const char *dir, MgStateLoadReport *report, GError **error)
{
	guint8 key[MG_STATE_KEY_BYTES];
	g_autofree char *path = g_build_filename(dir, MG_STATE_FILE_NAME, NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;
	g_autoptr(GError) aside = NULL;
	g_autoptr(GDateTime) now = NULL;
	g_autofree char *stamp = NULL;
	MgState *state;
	gsize len = 0;

	memset(report, 0, sizeof(*report));
	if (g_mkdir_with_parents(dir, 0700) < 0) {
		int saved = errno;
		g_set_error(error,
			    G_FILE_ERROR,
			    g_file_error_from_errno(saved),
			    _("cannot create %s: %s"),
			    dir,
			    g_strerror(saved));
		return NULL;
	}
	{
		/* The key and the history are root's alone, whoever made the
		 * directory before (a hand-made one, an image builder's). */
		struct stat st;
		if (stat(dir, &st) == 0 && st.st_uid == geteuid() && (st.st_mode & 0077) != 0 &&
		    chmod(dir, 0700) == 0)
			report->made_private = TRUE;
	}
	if (!mg_state_read_key(dir, key, TRUE, error))
		return NULL;
	mg_state_remove_stale_temporaries(dir);

	if (!g_file_get_contents(path, &text, &len, &local)) {
		if (!g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
			sodium_memzero(key, sizeof(key));
			g_propagate_prefixed_error(
			    error, g_steal_pointer(&local), _("cannot read the state: "));
			return NULL;
		}
		report->origin = MG_STATE_CREATED;
		state = mg_state_new_empty(key, sizeof(key));
		sodium_memzero(key, sizeof(key));
		return state;
	}
	state = mg_state_new_from_data(key, sizeof(key), text, len, &local);
	if (state != NULL) {
		sodium_memzero(key, sizeof(key));
		report->origin = MG_STATE_LOADED;
		return state;
	}

	/* Unusable: keep it for the administrator, start afresh, and say so. */
	now = g_date_time_new_now_utc();
	stamp = g_date_time_format(now, "%Y%m%dT%H%M%SZ");
	report->moved_to = g_strdup_printf("%s.broken-%s", path, stamp);
	for (guint i = 1; g_file_test(report->moved_to, G_FILE_TEST_EXISTS); i++) {
		g_free(report->moved_to);
		report->moved_to = g_strdup_printf("%s.broken-%s-%u", path, stamp, i);
	}
	if (!mg_state_set_aside(dir, path, text, len, report->moved_to, &aside)) {
		sodium_memzero(key, sizeof(key));
		g_set_error(error,
			    G_FILE_ERROR,
			    G_FILE_ERROR_FAILED,
			    _("the state %s is unusable (%s) and cannot be moved aside: %s"),
			    path,
			    local->message,
			    aside->message);
		mg_state_load_report_clear(report);
		return NULL;
	}
	report->origin = MG_STATE_RECOVERED;
	report->reason = g_strdup(local->message);
	state = mg_state_new_empty(key, sizeof(key));
	sodium_memzero(key, sizeof(key));
	return state;
}

MgState *
mg_state_read(const char *dir, GError **error)
{
	guint8 key[MG_STATE_KEY_BYTES];
	g_autofree char *path = g_build_filename(dir, MG_STATE_FILE_NAME, NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;
	MgState *state;
	gsize len = 0;

	if (!g_file_get_contents(path, &text, &len, &local)) {
		if (!g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
			g_propagate_prefixed_error(
			    error, g_steal_pointer(&local), _("cannot read the state: "));
			return NULL;
		}
		/* Nothing assigned yet; the key does not matter for an empty state. */
		memset(key, 0, sizeof(key));
		return mg_state_new_empty(key, sizeof(key));
	}
	if (!mg_state_read_key(dir, key, FALSE, error))
		return NULL;
	state = mg_state_new_from_data(key, sizeof(key), text, len, &local);
	sodium_memzero(key, sizeof(key));
	if (state == NULL)
		g_set_error(error,
			    MG_ERROR,
			    MG_ERROR_STATE,
			    _("the state %s is unusable (%s); macguised sets it aside when it "
			      "starts"),
			    path,
			    local->message);
	return state;
}

gboolean
mg_state_save(MgState *state, const char *dir, GError **error)
{
	gsize len = 0;
	g_autofree char *data = mg_state_to_data(state, &len);
	if (!mg_write_durably(dir, MG_STATE_FILE_NAME, data, len, error)) {
		g_prefix_error(error, _("cannot save the state in %s: "), dir);
		return FALSE;
	}
	return TRUE;
}
