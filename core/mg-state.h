/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-mac.h"
#include "mg-verdict.h"

G_BEGIN_DECLS

/* The state file's format; a newer one is not read, but kept aside.
 * 2: history entries of 20 bits (1 kept whole digests, still read). */
#define MG_STATE_FORMAT 2

/* One profile's rotation state. Only the current address is stored in plain
 * text (it is in the NetworkManager profile anyway). */
typedef struct {
	char *uuid;
	gboolean has_address;
	MgMac address;
	gint64 assigned_at;
	gint64 due_at;
	guint64 generation; /* how many addresses the profile has had */
	guint conflicts;    /* how many of them another station already used */
	char *boot_id;
	gboolean used;
	gboolean pending;
	gboolean user_owned; /* someone set the profile's MAC by hand: hands off */
	/* The last link check, and the last conflict; evidence never names an
	 * address. */
	MgVerdict verdict;
	char *evidence;
	gint64 checked_at;
	gint64 conflict_at; /* 0: none */
	char *conflict_evidence;
	guint recovery_attempts;  /* new addresses for conflicts since the last clean check */
	gboolean recovery_failed; /* it stopped after the last allowed attempt */
	gint64 recognised_at;     /* the state was lost and the profile was known again by
				     macguise's mark in it, then (0: never) */
} MgProfileState;

typedef struct _MgState MgState;

/* Pure: parse and serialise. @key is the per-install history key. */
MgState *mg_state_new_empty(const guint8 *key, gsize key_len);
MgState *mg_state_new_from_data(
    const guint8 *key, gsize key_len, const char *text, gsize len, GError **error);
char *mg_state_to_data(MgState *state, gsize *len);
void mg_state_free(MgState *state);

MgProfileState *mg_state_get_profile(MgState *state, const char *uuid);
MgProfileState *mg_state_ensure_profile(MgState *state, const char *uuid);
gboolean mg_state_remove_profile(MgState *state, const char *uuid);
/* Profile UUIDs, sorted; free the container only. */
GPtrArray *mg_state_list_profiles(MgState *state);

/* Makes @mac the profile's address and records it in the reuse history.
 * @boot_id is the kernel's boot_id (a UUID) or "" when unknown. */
void mg_state_assign(MgState *state,
		     MgProfileState *profile,
		     const MgMac *mac,
		     gint64 now,
		     gint64 due_at,
		     const char *boot_id);
/* Records a link check of the profile's current address. A clean one ends
 * any recovery; a conflict is kept as the last conflict too. */
void mg_state_record_verdict(MgProfileState *profile,
			     MgVerdict verdict,
			     const char *evidence,
			     gint64 now);
/* Records @mac in the reuse history: it is never handed out again. */
void mg_state_remember(MgState *state, const MgMac *mac, gint64 now);
/* Whether @mac is the current address of a profile other than @uuid (NULL:
 * of any profile). */
gboolean mg_state_is_current_elsewhere(MgState *state, const MgMac *mac, const char *uuid);
/* In the history: handed out before, or some profile's current address
 * (which the history always holds; see mg_state_remember_current). */
gboolean mg_state_was_used(MgState *state, const MgMac *mac);
/* Puts every profile's current address into the history, where a file
 * written by an earlier macguise may lack it. */
void mg_state_remember_current(MgState *state);
/* When @mac was last recorded in the history; 0 if never. */
gint64 mg_state_remembered_at(MgState *state, const MgMac *mac);
guint mg_state_history_size(MgState *state);
/* Whether the file it was loaded from kept more than the current form
 * keeps (whole history digests, an earlier address of a profile set by
 * hand): it is to be written again at once, without it. */
gboolean mg_state_loaded_older_form(MgState *state);
/* Drops history entries older than @max_age, then the oldest beyond @max_entries. */
guint mg_state_prune_history(MgState *state, gint64 now, gint64 max_age, guint max_entries);
/* A short keyed digest of @mac for logs: names an address without showing it. */
char *mg_state_log_digest(MgState *state, const MgMac *mac);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgState, mg_state_free)

G_END_DECLS
