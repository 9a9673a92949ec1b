/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-reconcile"

#include "config.h"

#include "mg-reconcile.h"

#include "mg-words.h"

#include <string.h>

static const char *const mg_action_flag_names[] = {
	"hand-back",  "mark-user-owned", "adopt-unrecorded", "adopt-link",
	"mark-used",  "mark-pending",    "assign",           "rewrite",
	"reactivate", "watch-link",      "record-verdict",   "burn",
	"give-up",    "forget",          "release",          "harden",
	"unmark",
};

static const char *const mg_profile_address_names[] = {
	[MG_PROFILE_ADDRESS_UNSET] = "unset",           [MG_PROFILE_ADDRESS_CURRENT] = "current",
	[MG_PROFILE_ADDRESS_UNRECORDED] = "unrecorded", [MG_PROFILE_ADDRESS_OLDER] = "older",
	[MG_PROFILE_ADDRESS_BY_HAND] = "by-hand",       [MG_PROFILE_ADDRESS_MARKED] = "marked",
	[MG_PROFILE_ADDRESS_RELEASED] = "released",     [MG_PROFILE_ADDRESS_COPIED] = "copied",
};

static const char *const mg_link_address_names[] = {
	[MG_LINK_UNKNOWN] = "unknown",
	[MG_LINK_CURRENT] = "current",
	[MG_LINK_ADOPTABLE] = "adoptable",
	[MG_LINK_FOREIGN] = "foreign",
};

gboolean
mg_profile_address_parse(const char *text, MgProfileAddress *address)
{
	guint i;
	if (!mg_word_index(
		mg_profile_address_names, G_N_ELEMENTS(mg_profile_address_names), text, &i))
		return FALSE;
	*address = (MgProfileAddress)i;
	return TRUE;
}

gboolean
mg_link_address_parse(const char *text, MgLinkAddress *link)
{
	guint i;
	if (!mg_word_index(mg_link_address_names, G_N_ELEMENTS(mg_link_address_names), text, &i))
		return FALSE;
	*link = (MgLinkAddress)i;
	return TRUE;
}

char *
mg_reconcile_actions_to_string(guint actions)
{
	g_autoptr(GPtrArray) words = g_ptr_array_new();
	for (guint i = 0; i < G_N_ELEMENTS(mg_action_flag_names); i++) {
		if ((actions & (1u << i)) != 0)
			g_ptr_array_add(words, (gpointer)mg_action_flag_names[i]);
	}
	g_ptr_array_add(words, NULL);
	return g_strjoinv(",", (char **)words->pdata);
}

gboolean
mg_reconcile_actions_parse(const char *text, guint *actions)
{
	g_auto(GStrv) words = g_strsplit(text, ",", -1);
	*actions = 0;
	for (guint i = 0; words[i] != NULL; i++) {
		guint bit;
		g_strstrip(words[i]);
		if (words[i][0] == '\0')
			continue;
		if (!mg_word_index(
			mg_action_flag_names, G_N_ELEMENTS(mg_action_flag_names), words[i], &bit))
			return FALSE;
		*actions |= 1u << bit;
	}
	return TRUE;
}

gint64
mg_reconcile_retry_at(guint failures, gint64 now)
{
	gint64 delay = (gint64)MG_RECONCILE_RETRY_FIRST << MIN(MAX(failures, 1) - 1, 7);
	return now + MIN(delay, MG_RECONCILE_RETRY_MAX);
}

static MgReconcile
mg_result(guint actions, const char *reason, gint64 wake_at)
{
	MgReconcile r = { actions, reason, wake_at };
	return r;
}

/* The schedule's decision as actions. */
static MgReconcile
mg_from_schedule(const MgScheduleState *st, MgDecision d)
{
	switch (d.action) {
	case MG_ACTION_ASSIGN_NOW:
		return mg_result(MG_DO_ASSIGN, d.reason, d.wake_at);
	case MG_ACTION_ASSIGN_AT_DEACTIVATION:
		return mg_result(st->pending ? 0 : MG_DO_MARK_PENDING, d.reason, d.wake_at);
	case MG_ACTION_ASSIGN_AND_REACTIVATE:
		return mg_result(MG_DO_ASSIGN | MG_DO_REACTIVATE, d.reason, d.wake_at);
	case MG_ACTION_KEEP:
		return mg_result(0, d.reason, d.wake_at);
	default:
		g_assert_not_reached();
	}
}

/* Nothing new on the link: the schedule decides. The current address on
 * the link (found up at start, say) counts as used; for a profile up with
 * another (its new address written, the re-activation under way) the
 * current one is neither used nor up. */
static MgReconcile
mg_reconcile_steady(
    const MgSnapshot *snap, MgScheduleState *st, const char *boot_id, gint64 now, MgEvent event)
{
	gboolean on_air = snap->active && snap->link == MG_LINK_CURRENT;
	gboolean up = on_air || (snap->active && snap->link == MG_LINK_UNKNOWN);
	guint used = on_air && !st->used ? MG_DO_MARK_USED : 0;
	MgReconcile r;

	st->used = st->used || on_air;
	r = mg_from_schedule(st, mg_schedule_decide(snap->policy, st, up, boot_id, now, event));
	r.actions |= used;
	return r;
}

/* A new activation, once it has set the link's address. The wrong address
 * there (an activation that began before macguise's write reached the
 * profile) brings it up again with the right one, a bounded number of
 * times. The right one: if its rotation was already owed (due, pending,
 * spent by an earlier activation, another boot's), it must not stay on the
 * air; if not, it is now used. */
static MgReconcile
mg_reconcile_activation(const MgSnapshot *snap,
			MgScheduleState *st,
			const char *boot_id,
			gint64 now)
{
	MgDecision before;

	if (snap->link == MG_LINK_UNKNOWN)
		return mg_result(MG_DO_WATCH_LINK, "link-not-set", 0);
	if (snap->link != MG_LINK_CURRENT) {
		if (snap->gate_attempts >= MG_RECONCILE_MAX_GATE)
			return mg_result(0, "wrong-address-gave-up", 0);
		return mg_result(MG_DO_REACTIVATE, "wrong-address-on-link", 0);
	}
	before = mg_schedule_decide(snap->policy, st, TRUE, boot_id, now, MG_EVENT_ACTIVATED);
	if (before.action != MG_ACTION_KEEP && g_strcmp0(before.reason, "activation") != 0)
		return mg_result(MG_DO_ASSIGN | MG_DO_REACTIVATE, "spent-at-activation", 0);
	return mg_reconcile_steady(snap, st, boot_id, now, MG_EVENT_ACTIVATED);
}

/* No macguise address in the profile: a new one, or one whose address was
 * removed. Down, it gets one now. Up, the link decides: an address
 * NetworkManager drew from macguise's first-contact defaults is kept and
 * recorded (no second activation). Anything else (the card's own) is cut
 * off at once for an activation macguise sees happen (first contact: an
 * automatic profile, add-and-activate); a profile found up when macguised
 * starts gets its address when it goes down. */
static MgReconcile
mg_reconcile_unset(const MgSnapshot *snap)
{
	gboolean fresh = snap->new_activation;

	if (!snap->active)
		return mg_result(MG_DO_ASSIGN, "new", 0);
	if (snap->link == MG_LINK_ADOPTABLE)
		return mg_result(MG_DO_ADOPT_LINK | MG_DO_REWRITE, "first-contact", 0);
	if (fresh && snap->link == MG_LINK_FOREIGN)
		return mg_result(MG_DO_ASSIGN | MG_DO_REACTIVATE, "first-contact-foreign", 0);
	if (fresh && snap->link == MG_LINK_UNKNOWN)
		return mg_result(MG_DO_WATCH_LINK, "first-contact-wait", 0);
	return mg_result(snap->schedule.pending ? 0 : MG_DO_MARK_PENDING, "new", 0);
}

/* A clone carries its original's address: it gets one of its own as a new
 * profile does, for two networks must never see one address (with
 * rotate=never, they would for good). */
static MgReconcile
mg_reconcile_copied(const MgSnapshot *snap)
{
	MgReconcile r = mg_reconcile_unset(snap);

	r.reason = "copied";
	return r;
}

/* Back from mode=off: the `permanent` macguise wrote is no one's choice,
 * so the profile is taken up as one without an address is. */
static MgReconcile
mg_reconcile_taken_up(const MgSnapshot *snap)
{
	MgReconcile r = mg_reconcile_unset(snap);

	r.reason = "taken-up";
	return r;
}

/* An earlier macguise address is back in the profile (a writer with a stale
 * copy): the current one goes back in, or a new one if a rotation is owed
 * anyway; up, the profile comes up again with it. */
static MgReconcile
mg_reconcile_reverted(const MgSnapshot *snap,
		      const MgScheduleState *st,
		      const char *boot_id,
		      gint64 now,
		      MgEvent event)
{
	MgDecision d = mg_schedule_decide(snap->policy, st, snap->active, boot_id, now, event);
	guint reactivate = snap->active ? MG_DO_REACTIVATE : 0;

	if (d.action != MG_ACTION_KEEP)
		return mg_result(MG_DO_ASSIGN | reactivate, "reverted", 0);
	return mg_result(MG_DO_REWRITE | reactivate, "reverted", d.wake_at);
}

/* Writes wait out the back-off of an earlier failure. */
static MgReconcile
mg_reconcile_backoff(const MgSnapshot *snap, gint64 now, MgReconcile r)
{
	guint writes = MG_DO_ASSIGN | MG_DO_REWRITE | MG_DO_REACTIVATE | MG_DO_ADOPT_LINK |
		       MG_DO_HARDEN | MG_DO_RELEASE | MG_DO_UNMARK;

	if ((r.actions & writes) == 0 || now >= snap->retry_at)
		return r;
	r.actions &= ~writes;
	/* An activation to check stays open until the write can be made. */
	if (snap->active && snap->new_activation)
		r.actions |= MG_DO_WATCH_LINK;
	r.reason = "backing-off";
	r.wake_at = snap->retry_at;
	return r;
}

/* mode=off: "the card's own address". A profile without an address does
 * not get it: NetworkManager applies its global default there, which
 * macguise's first-contact defaults make a new random address each
 * activation. So `permanent` goes in, with macguise's mark of it, in
 * place of an address macguise gave (or one carrying its mark) and into a
 * profile with none; the mark keeps it macguise's, not set by hand, should
 * the mode change again. An address set by hand (a `permanent` typed
 * included) stays as it is. */
static MgReconcile
mg_reconcile_off(const MgSnapshot *snap)
{
	switch (snap->address) {
	case MG_PROFILE_ADDRESS_CURRENT:
	case MG_PROFILE_ADDRESS_OLDER:
	case MG_PROFILE_ADDRESS_UNRECORDED:
	case MG_PROFILE_ADDRESS_MARKED:
	case MG_PROFILE_ADDRESS_COPIED:
		return mg_result(MG_DO_RELEASE, "off-release", 0);
	case MG_PROFILE_ADDRESS_UNSET:
		return mg_result(MG_DO_RELEASE, "off-own-address", 0);
	case MG_PROFILE_ADDRESS_RELEASED:
	case MG_PROFILE_ADDRESS_BY_HAND:
	default:
		return mg_result(0, "off", 0);
	}
}

static MgReconcile
mg_reconcile_decide(const MgSnapshot *snap, const char *boot_id, gint64 now, MgEvent event)
{
	MgScheduleState st = snap->schedule;

	if (snap->user_owned) {
		/* Clearing the setting (nmcli … cloned-mac-address "") hands
		 * the profile back; the next decision treats it as new. */
		if (snap->address == MG_PROFILE_ADDRESS_UNSET)
			return mg_result(MG_DO_HAND_BACK, "handed-back", 0);
		return mg_result(0, "user-owned", 0);
	}
	if (snap->in_flight)
		return mg_result(snap->new_activation ? MG_DO_WATCH_LINK : 0, "in-flight", 0);
	if (snap->policy->mode == MG_MODE_OFF)
		return mg_reconcile_off(snap);
	switch (snap->address) {
	case MG_PROFILE_ADDRESS_BY_HAND:
		return mg_result(MG_DO_MARK_USER_OWNED, "set-by-hand", 0);
	case MG_PROFILE_ADDRESS_UNRECORDED:
		return mg_result(MG_DO_ADOPT_UNRECORDED, "unrecorded", 0);
	case MG_PROFILE_ADDRESS_MARKED:
		/* Its age is unknown: adopted as due, so it rotates at the
		 * first chance (the decision on the adopted state says when). */
		return mg_result(MG_DO_ADOPT_UNRECORDED, "marked", 0);
	case MG_PROFILE_ADDRESS_UNSET:
		return mg_reconcile_unset(snap);
	case MG_PROFILE_ADDRESS_RELEASED:
		return mg_reconcile_taken_up(snap);
	case MG_PROFILE_ADDRESS_COPIED:
		return mg_reconcile_copied(snap);
	case MG_PROFILE_ADDRESS_CURRENT:
	case MG_PROFILE_ADDRESS_OLDER:
		break;
	default:
		g_assert_not_reached();
	}
	if (snap->address == MG_PROFILE_ADDRESS_OLDER)
		return mg_reconcile_reverted(snap, &st, boot_id, now, event);
	if (snap->active && snap->new_activation)
		return mg_reconcile_activation(snap, &st, boot_id, now);
	return mg_reconcile_steady(snap, &st, boot_id, now, event);
}

/* The current address written without its mark gets it, so the profile
 * stays managed should the state be lost; a write already decided carries
 * it anyway. */
static MgReconcile
mg_reconcile_mark(const MgSnapshot *snap, MgReconcile r)
{
	if (snap->unmarked && snap->address == MG_PROFILE_ADDRESS_CURRENT && !snap->user_owned &&
	    !snap->in_flight && snap->policy->mode != MG_MODE_OFF &&
	    (r.actions & (MG_DO_ASSIGN | MG_DO_REWRITE)) == 0) {
		r.actions |= MG_DO_REWRITE;
		if ((r.actions & ~MG_DO_REWRITE) == 0)
			r.reason = "unmarked";
	}
	return r;
}

/* A profile whose own macguise.harden is yes keeps `harden`'s fixes: one
 * that lost some (FreedomBox's Networks page replaces the IP settings
 * whole) has them written back. Whatever macguise thinks of its address,
 * set by hand or off included: they are not about the address. A write
 * already decided carries them anyway. */
static MgReconcile
mg_reconcile_harden(const MgSnapshot *snap, MgReconcile r)
{
	if (!snap->keeps_hardened || !snap->unhardened || snap->in_flight ||
	    (r.actions & (MG_DO_ASSIGN | MG_DO_REWRITE | MG_DO_RELEASE)) != 0)
		return r;
	r.actions |= MG_DO_HARDEN;
	if ((r.actions & ~MG_DO_HARDEN) == 0)
		r.reason = "unhardened";
	return r;
}

/* A mark that matches no address in the profile was left by an address
 * set by hand over macguise's: it would let a reader test the catalogue
 * against it for that earlier address (mg-profile-mark.h), so it goes.
 * Not while a decision made again after this one (hand-back, adoption)
 * or a write under way may still give the profile its own. */
static MgReconcile
mg_reconcile_unmark(const MgSnapshot *snap, MgReconcile r)
{
	guint writes_or_again =
	    MG_DO_ASSIGN | MG_DO_REWRITE | MG_DO_RELEASE | MG_DO_HAND_BACK | MG_DO_ADOPT_UNRECORDED;

	if (!snap->stale_mark || snap->in_flight || (r.actions & writes_or_again) != 0)
		return r;
	r.actions |= MG_DO_UNMARK;
	if ((r.actions & ~MG_DO_UNMARK) == 0)
		r.reason = "stale-mark";
	return r;
}

gboolean
mg_snapshot_manages(const MgSnapshot *snap)
{
	return snap->policy->mode != MG_MODE_OFF && snap->schedule.has_address &&
	       !snap->user_owned && !snap->in_flight && snap->address == MG_PROFILE_ADDRESS_CURRENT;
}

MgReconcile
mg_reconcile(const MgSnapshot *snap, const char *boot_id, gint64 now, MgEvent event)
{
	MgReconcile r;

	/* Whatever it was doing: a write for it is pointless, a wake-up too. */
	if (event == MG_EVENT_REMOVED) {
		MgReconcile gone = { MG_DO_FORGET, "removed", 0 };
		return gone;
	}
	r = mg_reconcile_decide(snap, boot_id, now, event);
	r = mg_reconcile_harden(snap, mg_reconcile_mark(snap, r));
	r = mg_reconcile_unmark(snap, r);
	return mg_reconcile_backoff(snap, now, r);
}
