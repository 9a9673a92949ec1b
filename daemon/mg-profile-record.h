/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What macguised knows about one profile, in one record, and the table of
 * them: a record is made when macguised first has something to know of a
 * profile libnm lists (mg_profile_records_ensure()) and freed, whole, when
 * the profile leaves NetworkManager; one whose write is still under way then
 * stays, emptied, until the write lands, so that a profile added again with
 * the same UUID meanwhile still has one write at a time. What outlives a
 * restart is the state file's (mg-state.h); a record holds only what this
 * run learned. */
#pragma once

#include <glib-object.h>

#include "mg-mac.h"
#include "mg-policy.h"

G_BEGIN_DECLS

typedef struct {
	char *uuid;

	/* Its activation. */
	char *active_path;      /* its active connection's D-Bus path; NULL: down */
	gboolean unchecked;     /* that activation's link address not checked yet */
	guint gate_attempts;    /* re-activations in a row for a wrong link address */
	gpointer watch;         /* the passive watch after a clean check, or NULL */
	char *reactivate_iface; /* up again on it ("": any device) once written */
	gboolean taking_up;     /* it was up when NetworkManager left: the
				   NetworkManager that comes back may be taking
				   it up again, so it is not decided until it is
				   up or that NetworkManager has finished
				   starting (never with active_path set) */

	/* Its policy, resolved once (mg-service-policy.c). */
	gboolean policy_stale; /* unresolved, or the profile or macguise.conf changed */
	MgDeviceClass policy_class;
	MgPolicy policy;
	char *policy_problems; /* what resolving it reported, or NULL */

	/* Its writes. */
	gboolean in_flight; /* a write decided and not returned: change it only
			       with mg_profile_records_set_in_flight() */
	gboolean leaving;   /* the profile left while its write was under way:
			       freed when the write lands */
	guint departures;   /* the times it left with a write under way:
			       that write's end is not the profile's if it
			       came back (the same UUID added again) */
	gboolean unsettled; /* NetworkManager changed it; libnm's copy lags */
	gboolean settling;  /* a write returned that libnm's copy does not show */
	MgMac settling_mac; /* what that write gave (all zero: released) */
	guint failures;     /* writes failed in a row */
	gint64 retry_at;    /* when the next may be tried (0: at once) */
	gboolean has_drawn; /* an address drawn and recorded, not yet written */
	MgMac drawn;
	GObject *deferred; /* its NMRemoteConnection while its write waits for
			      room (mg_profile_records_defer()) */

	/* Its decisions. */
	gint64 wake_at;     /* the next instant worth deciding it again (0: none) */
	gboolean published; /* the link-check index lists it */
} MgProfileRecord;

typedef struct _MgProfileRecords MgProfileRecords;

/* @watch_free frees a record's watch. */
MgProfileRecords *mg_profile_records_new(GDestroyNotify watch_free);
void mg_profile_records_free(MgProfileRecords *records);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgProfileRecords, mg_profile_records_free)

/* The record of @uuid, or NULL. */
MgProfileRecord *mg_profile_records_get(MgProfileRecords *records, const char *uuid);
/* @uuid's record, if the profile has not left since its record counted
 * @departures (a write decided then is over: its end is not a profile's
 * added again with the same UUID meanwhile); else NULL. */
MgProfileRecord *
mg_profile_records_get_since(MgProfileRecords *records, const char *uuid, guint departures);
/* The record of @uuid, made if there is none. */
MgProfileRecord *mg_profile_records_ensure(MgProfileRecords *records, const char *uuid);
/* The profile left NetworkManager: its record goes, whole. */
void mg_profile_records_remove(MgProfileRecords *records, const char *uuid);
/* For g_hash_table_iter_next(iter, NULL, (gpointer *)&record). */
void mg_profile_records_iter_init(MgProfileRecords *records, GHashTableIter *iter);

/* Profiles with a write under way. */
guint mg_profile_records_in_flight(MgProfileRecords *records);
/* Marks @r's write under way. */
void
mg_profile_records_set_in_flight(MgProfileRecords *records, MgProfileRecord *r, gboolean in_flight);
/* @uuid's write landed: no longer under way; a leaving record is freed
 * (do not use it after). */
void mg_profile_records_landed(MgProfileRecords *records, const char *uuid);

/* Its write waits for room: queued once, oldest first, @connection kept. */
void mg_profile_records_defer(MgProfileRecords *records, MgProfileRecord *r, GObject *connection);
/* The oldest waiting write's connection (a new reference), its record no
 * longer waiting; NULL when none waits. */
GObject *mg_profile_records_next_deferred(MgProfileRecords *records);

/* Once written, the profile comes up again on @iface ("": any device). */
void mg_profile_record_reactivate_on(MgProfileRecord *r, const char *iface);
/* A write succeeded: no failures, nothing drawn waits. */
void mg_profile_record_write_ok(MgProfileRecord *r);
/* Replaces the watch (NULL: none), freeing the one before. */
void mg_profile_records_set_watch(MgProfileRecords *records, MgProfileRecord *r, gpointer watch);
/* NetworkManager left: activations, watches and what libnm lagged behind
 * end (those that were up are marked taking_up); every policy is resolved
 * again. */
void mg_profile_records_nm_left(MgProfileRecords *records);

/* How many profiles are awaited as taken up again (taking_up); with
 * @release (NetworkManager has finished starting), none is any more. */
guint mg_profile_records_taking_up(MgProfileRecords *records, gboolean release);

/* Whether @r holds its invariants; if not, @why (if given) says which. */
gboolean mg_profile_record_is_valid(const MgProfileRecord *r, GString *why);
/* Whether the table holds its own (the in-flight count, the queue of
 * waiting writes) and every record its. */
gboolean mg_profile_records_are_valid(MgProfileRecords *records, GString *why);

/* In debug builds (MG_CHECK_INVARIANTS), a broken invariant ends the
 * daemon with its description: a test sees it where it happens. */
#ifdef MG_CHECK_INVARIANTS
#define mg_profile_record_check(r)                                                                 \
	G_STMT_START                                                                               \
	{                                                                                          \
		g_autoptr(GString) mg_why_ = g_string_new(NULL);                                   \
		if (!mg_profile_record_is_valid((r), mg_why_))                                     \
			g_error("profile record %s: %s", (r)->uuid, mg_why_->str);                 \
	}                                                                                          \
	G_STMT_END
#define mg_profile_records_check(t)                                                                \
	G_STMT_START                                                                               \
	{                                                                                          \
		g_autoptr(GString) mg_why_ = g_string_new(NULL);                                   \
		if (!mg_profile_records_are_valid((t), mg_why_))                                   \
			g_error("profile records: %s", mg_why_->str);                              \
	}                                                                                          \
	G_STMT_END
#else
#define mg_profile_record_check(r)                                                                 \
	G_STMT_START                                                                               \
	{                                                                                          \
		(void)(r);                                                                         \
	}                                                                                          \
	G_STMT_END
#define mg_profile_records_check(t)                                                                \
	G_STMT_START                                                                               \
	{                                                                                          \
		(void)(t);                                                                         \
	}                                                                                          \
	G_STMT_END
#endif

G_END_DECLS
