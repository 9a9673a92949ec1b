/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-catalogue.h"
#include "mg-state.h"

G_BEGIN_DECLS

/* One profile as macguised reports it in GetStatus (an a{sv}): which
 * profile, the mode and rotation macguised applies to it, whether it is
 * up, and its state. The one place the wire's keys are written: macguised
 * encodes with it, the command decodes with it. */
typedef struct {
	const char *uuid;
	const char *id;
	MgDeviceClass device_class;
	const char *mode;   /* "random", "stable", "off" */
	const char *rotate; /* "daily", "never", … */
	gboolean active;
} MgProfileStatus;

/* A floating a{sv}; @state may be NULL (macguise knows nothing of it yet). */
GVariant *mg_profile_status_to_variant(const MgProfileStatus *status, const MgProfileState *state);

/* Reads @entry: @status's strings point into @entry, which must outlive
 * them; the state part goes into @into's profile of that UUID (made if
 * need be). Keys it does not know are ignored, so that a newer macguised
 * can say more; a missing identity (uuid, id, class, mode, rotate) or a
 * known key of the wrong type is an error (MG_ERROR_STATE). */
gboolean mg_profile_status_from_variant(GVariant *entry,
					MgProfileStatus *status,
					MgState *into,
					GError **error);

G_END_DECLS
