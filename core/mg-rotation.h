/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-reconcile.h"

G_BEGIN_DECLS

/* What a request to rotate a profile (`macguise rotate`) comes to. */
typedef enum {
	MG_ROTATION_ROTATED,     /* a new address now, being written */
	MG_ROTATION_PENDING,     /* later: at its next deactivation, or once the
				    write under way or a failed write's back-off
				    is over */
	MG_ROTATION_NOT_MANAGED, /* macguise leaves it alone: mode off, or its
				    address set by hand */
	MG_ROTATION_FAILED,      /* no address could be given (the daemon knows
				    this only once it tried) */
} MgRotationOutcome;

typedef struct {
	MgRotationOutcome outcome;
	guint actions;      /* MgReconcileAction flags for the daemon */
	const char *reason; /* a stable word: "mode-off", "active", … */
} MgRotation;

/* Pure: the request for the profile in @snap at @now (seconds); @now_flag:
 * an active profile is re-activated with its new address at once. */
MgRotation mg_rotation_decide(const MgSnapshot *snap, gboolean now_flag, gint64 now);

/* "rotated", "pending", "not-managed", "failed", and back. */
const char *mg_rotation_outcome_to_string(MgRotationOutcome outcome);
gboolean mg_rotation_outcome_parse(const char *text, MgRotationOutcome *outcome);

G_END_DECLS
