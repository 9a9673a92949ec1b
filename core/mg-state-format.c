/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The state file's format: a key file with an integrity line, written as
 * text directly and read with GKeyFile. Pure: no disk. */
#define G_LOG_DOMAIN "mg-state"

#include "config.h"

#include "mg-state.h"

#include <glib/gi18n-lib.h>
#include <sodium.h>
#include <string.h>

#include "mg-error.h"
#include "mg-paths.h"
#include "mg-state-private.h"

#define MG_INTEGRITY_MARK "\n[integrity]\nblake2b="
#define MG_PROFILE_GROUP "profile "

static char *
mg_state_integrity(const char *body, gsize len)
{
	guint8 out[crypto_generichash_BYTES];
	char hex[2 * crypto_generichash_BYTES + 1];
	crypto_generichash(out, sizeof(out), (const guint8 *)body, len, NULL, 0);
	sodium_bin2hex(hex, sizeof(hex), out, sizeof(out));
	return g_strdup(hex);
}

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
	/* A profile set by hand has no macguise address: the one it had is
	 * an earlier address, kept in the history as a digest only (files
	 * written before this kept it in plain text; the next save drops it). */
	if (p->user_owned && p->has_address) {
		p->has_address = FALSE;
		state->older_form = TRUE;
	}
	return mg_state_parse_checks(kf, group, p, error);
}

static gboolean
mg_state_parse_history(MgState *state, GKeyFile *kf, GError **error)
{
	g_auto(GStrv) keys = g_key_file_get_keys(kf, "history", NULL, NULL);

	for (guint i = 0; keys[i] != NULL; i++) {
		gsize len = strlen(keys[i]);
		gint64 t;
		/* (a whole digest: written before entries were cut to 20 bits) */
		if ((len != MG_HISTORY_ENTRY_HEX && len != 2 * MG_HISTORY_DIGEST_BYTES) ||
		    strspn(keys[i], "0123456789abcdef") != len)
			return mg_state_corrupt(error, _("[history] %s is not a digest"), keys[i]);
		if (!mg_state_get_int(kf, "history", keys[i], 0, &t, error))
			return FALSE;
		mg_state_remember_digest(state, g_strndup(keys[i], MG_HISTORY_ENTRY_HEX), t);
		state->older_form |= len != MG_HISTORY_ENTRY_HEX;
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
	mg_state_remember_current(state);
	return g_steal_pointer(&state);
}
