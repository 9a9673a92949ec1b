/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile write and its end (mg-service-writes.c): what it did to the
 * profile's record and state, and the profile's re-activation. */
#pragma once

#include <NetworkManager.h>

#include "mg-catalogue.h"
#include "mg-mac.h"
#include "mg-service-type.h"

G_BEGIN_DECLS

/* One profile write under way. */
typedef struct {
	MgService *self;
	NMRemoteConnection *rc; /* the profile, for its lifetime's D-Bus calls */
	char *uuid;
	char *id;
	MgMac mac;
	gboolean assign;       /* a new address (else the current one written again) */
	gboolean release;      /* no address: macguise's and its mark leave (mode=off) */
	gboolean harden_only;  /* no address: only the fixes a hardened profile lost */
	gboolean unmark;       /* with harden_only: a mark its address no longer
				  matches leaves (mg-profile-mark.h) */
	char *hardened;        /* the settings whose fixes it writes back, or NULL */
	gint64 due_at;         /* for a new address */
	gboolean for_conflict; /* a recovery, not a rotation */
	MgDeviceClass device_class;
	gboolean new_stable_id;
	char *basis;        /* mg_profile_basis() of the copy the write was decided on */
	guint64 version_id; /* the VersionId the copy written was read at (0: none) */
	guint departures;   /* its profile record's, at the decision */
} MgWrite;

MgWrite *mg_write_new(MgService *self, NMConnection *connection, const MgMac *mac);
void mg_write_free(MgWrite *w);

/* Update2's callback (@user_data: the MgWrite). */
void mg_service_write_done(GObject *source, GAsyncResult *result, gpointer user_data);
/* A write to NetworkManager is over, however it ended: no longer under
 * way, its slot free. */
void mg_service_write_ended(MgService *self, MgWrite *w);
/* A write that did not happen: a new address it carried, recorded already,
 * is the one the next write gives. */
void mg_service_write_superseded(MgService *self, MgWrite *w);
/* A write failed: the profile backs off (mg_write_pipeline_note_failure). */
void mg_service_write_failed(MgService *self, MgWrite *w, const GError *error);
/* A write of a new address that did not happen: its rotation stays due
 * (pending), unless the profile left. */
void mg_service_write_still_due(MgService *self, MgWrite *w);
/* NetworkManager is away (its bus name has no owner): @w is over, nothing
 * written and nothing failed (a call without the name goes to the bus
 * itself, which knows no such method; a reply lost as it left is no
 * failure of the profile's either). Its new address stays due; the profile
 * is decided again when NetworkManager is back (mg-service-follow.c). FALSE,
 * @w untouched, while NetworkManager is there. */
gboolean mg_service_write_put_off(MgWrite *w);
/* The pipeline's ops->unrecorded (mg-write-pipeline.h). */
void mg_service_write_unrecorded(gpointer owner, gpointer job);
/* @w's profile as libnm still lists it; NULL: it left. */
NMRemoteConnection *mg_write_known_copy(const MgWrite *w);
/* Whether NetworkManager changed @w's profile since libnm last fetched it. */
gboolean mg_service_write_unsettled(const MgWrite *w);

/* Rotated while up (on request, for a conflict, a spent address, a revert):
 * up again on the device its record names, so the new MAC takes effect now. */
void mg_service_reactivate_now(MgService *self, NMRemoteConnection *rc, const char *uuid);

G_END_DECLS
