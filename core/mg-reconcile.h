/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-policy.h"
#include "mg-schedule.h"

G_BEGIN_DECLS

/* What the profile's cloned-mac-address is, measured against the state. */
typedef enum {
	MG_PROFILE_ADDRESS_UNSET,      /* none: NetworkManager's default applies */
	MG_PROFILE_ADDRESS_CURRENT,    /* the state's current address */
	MG_PROFILE_ADDRESS_UNRECORDED, /* drawn by macguise after the current one: a
					  write the state did not record (a restart) */
	MG_PROFILE_ADDRESS_OLDER,      /* an earlier macguise address: a reverted write */
	MG_PROFILE_ADDRESS_BY_HAND,    /* an address macguise never gave, or a keyword */
	MG_PROFILE_ADDRESS_RELEASED,   /* `permanent` with macguise's mark of it: what
					  mode=off's release wrote, not by hand */
	MG_PROFILE_ADDRESS_MARKED,     /* unknown to the state, which has no address for
					  the profile, but carrying macguise's mark
					  (mg-profile-mark.h): the state was lost */
	MG_PROFILE_ADDRESS_COPIED,     /* another profile's current address: a clone's
					  copy (nmcli connection clone, GNOME's Duplicate) */
} MgProfileAddress;

/* For an active profile: the address its activation put on the link. */
typedef enum {
	MG_LINK_UNKNOWN,   /* not known yet (the activation has not set it) */
	MG_LINK_CURRENT,   /* the profile's current macguise address */
	MG_LINK_ADOPTABLE, /* a catalogue address NetworkManager drew from macguise's
			      first-contact defaults, used nowhere before */
	MG_LINK_FOREIGN,   /* anything else: the card's own, a locally administered one,
			      an earlier macguise address */
} MgLinkAddress;

/* Re-activations for a wrong address on the link, in a row, before macguise
 * stops trying (a driver that cannot change its address would loop). */
#define MG_RECONCILE_MAX_GATE 3

/* Everything the decision reads about one profile. */
typedef struct {
	const MgPolicy *policy;
	MgScheduleState schedule; /* from the state; has_address: the state has one */
	gboolean user_owned;
	MgProfileAddress address;
	gboolean active;
	gboolean in_flight;      /* a write of a new address is under way */
	gboolean new_activation; /* active, in an activation whose link address
				    macguise has not checked yet */
	MgLinkAddress link;
	guint gate_attempts;     /* re-activations for a wrong link address, in a row */
	gint64 retry_at;         /* after a failed write: no new write before then (0: none) */
	gboolean unmarked;       /* the current address lacks its mark (written by an earlier
				    macguise, or by another writer) */
	guint recovery_attempts; /* new addresses for conflicts since the last clean check */
	gboolean keeps_hardened; /* its own macguise.harden is yes (mg-harden.h) */
	gboolean unhardened;     /* it lacks a fix macguised keeps (mg_finding_kept) */
	gboolean stale_mark;     /* it carries a mark that matches no address in it:
				    left by an address set by hand over macguise's */
} MgSnapshot;

/* Whether macguise manages the profile with the address the state holds
 * for it now: the one the link check checks. */
gboolean mg_snapshot_manages(const MgSnapshot *snap);

/* What to do, as flags, in the order the daemon carries them out. */
typedef enum {
	MG_DO_HAND_BACK = 1 << 0,        /* forget user ownership and the address */
	MG_DO_MARK_USER_OWNED = 1 << 1,  /* set by hand: hands off from now on */
	MG_DO_ADOPT_UNRECORDED = 1 << 2, /* the profile's address becomes the current one */
	MG_DO_ADOPT_LINK = 1 << 3,       /* the link's address becomes the current one */
	MG_DO_MARK_USED = 1 << 4,        /* the current address went on the air */
	MG_DO_MARK_PENDING = 1 << 5,     /* rotate when it goes down */
	MG_DO_ASSIGN = 1 << 6,           /* draw a new address and write it */
	MG_DO_REWRITE = 1 << 7,          /* write the current address (adopted or reverted) */
	MG_DO_REACTIVATE = 1 << 8,       /* once written, bring it up again on its device */
	MG_DO_WATCH_LINK = 1 << 9,       /* the activation stays unchecked: decide again
					    once its link's address is set or the write is made */
	MG_DO_RECORD_VERDICT = 1 << 10,  /* a link check's verdict becomes the profile's last */
	MG_DO_BURN = 1 << 11,            /* another station uses the address: never again */
	MG_DO_GIVE_UP = 1 << 12,         /* recovery stops: the profile is left as it is */
	MG_DO_FORGET = 1 << 13,          /* the profile's entry goes; its addresses stay in
					    the history, never handed out again */
	MG_DO_RELEASE = 1 << 14,         /* mode off: `permanent` and its mark replace
					    macguise's address and mark, or no address at
					    all (the card's own from its next activation,
					    whatever NetworkManager's defaults say); the
					    address stays in the history */
	MG_DO_HARDEN = 1 << 15,          /* write back the fixes a hardened profile lost */
	MG_DO_UNMARK = 1 << 16,          /* remove a mark its address no longer matches */
} MgReconcileAction;

typedef struct {
	guint actions; /* MgReconcileAction flags */
	const char *reason;
	gint64 wake_at; /* the next instant worth waking for; 0 for none */
} MgReconcile;

/* The daemon's and the boot step's one decision about a profile: pure, from
 * the snapshot, the event and the wall clock @now (seconds). */
MgReconcile mg_reconcile(const MgSnapshot *snap, const char *boot_id, gint64 now, MgEvent event);

/* A failed profile write is tried again after 5 s, 10 s, … up to 10 min:
 * when, after @failures failures in a row, the last at @now. */
#define MG_RECONCILE_RETRY_FIRST 5
#define MG_RECONCILE_RETRY_MAX 600
gint64 mg_reconcile_retry_at(guint failures, gint64 now);

/* The flags as words ("assign,reactivate"; "" for none), and back. */
char *mg_reconcile_actions_to_string(guint actions);
gboolean mg_reconcile_actions_parse(const char *text, guint *actions);
gboolean mg_profile_address_parse(const char *text, MgProfileAddress *address);
gboolean mg_link_address_parse(const char *text, MgLinkAddress *link);

G_END_DECLS
