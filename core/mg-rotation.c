/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-rotation.h"

#include "mg-words.h"

static const char *const mg_rotation_outcome_names[] = {
	[MG_ROTATION_ROTATED] = "rotated",
	[MG_ROTATION_PENDING] = "pending",
	[MG_ROTATION_NOT_MANAGED] = "not-managed",
	[MG_ROTATION_FAILED] = "failed",
};

static MgRotation
mg_rotation(MgRotationOutcome outcome, guint actions, const char *reason)
{
	MgRotation r = { outcome, actions, reason };
	return r;
}

MgRotation
mg_rotation_decide(const MgSnapshot *snap, gboolean now_flag, gint64 now)
{
	if (snap->policy->mode == MG_MODE_OFF)
		return mg_rotation(MG_ROTATION_NOT_MANAGED, 0, "mode-off");
	if (snap->user_owned || snap->address == MG_PROFILE_ADDRESS_BY_HAND)
		return mg_rotation(MG_ROTATION_NOT_MANAGED, 0, "set-by-hand");
	/* Later, but not forgotten: the next decision about it assigns. */
	if (snap->in_flight)
		return mg_rotation(MG_ROTATION_PENDING, MG_DO_MARK_PENDING, "write-under-way");
	if (snap->retry_at > now)
		return mg_rotation(MG_ROTATION_PENDING, MG_DO_MARK_PENDING, "write-backing-off");
	if (snap->active && !now_flag)
		return mg_rotation(MG_ROTATION_PENDING, MG_DO_MARK_PENDING, "active");
	if (snap->active)
		return mg_rotation(
		    MG_ROTATION_ROTATED, MG_DO_ASSIGN | MG_DO_REACTIVATE, "re-activated");
	/* Down: pending, which the decision that follows assigns at once
	 * (within the bound on writes under way). */
	return mg_rotation(MG_ROTATION_ROTATED, MG_DO_MARK_PENDING, "down");
}

const char *
mg_rotation_outcome_to_string(MgRotationOutcome outcome)
{
	g_return_val_if_fail(outcome < G_N_ELEMENTS(mg_rotation_outcome_names), NULL);
	return mg_rotation_outcome_names[outcome];
}

gboolean
mg_rotation_outcome_parse(const char *text, MgRotationOutcome *outcome)
{
	guint i;

	if (!mg_word_index(
		mg_rotation_outcome_names, G_N_ELEMENTS(mg_rotation_outcome_names), text, &i))
		return FALSE;
	*outcome = (MgRotationOutcome)i;
	return TRUE;
}
