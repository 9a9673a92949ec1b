/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguised's service object, shared by the files that make it up:
 * mg-service.c (the object, the state file and the link-check index),
 * mg-service-writes.c (profile writes and re-activations),
 * mg-service-update.c (one write: the lock, the current copy, Update2),
 * mg-service-decide.c (each profile's decision, carried out),
 * mg-service-follow.c (following NetworkManager) and
 * mg-service-api.c (the D-Bus API's operations). Not for other users. */
#pragma once

#include <NetworkManager.h>
#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <net/if.h>
#include <sodium.h>
#include <string.h>
#include <unistd.h>

#include "mg-catalogue.h"
#include "mg-config.h"
#include "mg-error.h"
#include "mg-first-contact-keeper.h"
#include "mg-generator.h"
#include "mg-harden.h"
#include "mg-hook-env.h"
#include "mg-neighbours.h"
#include "mg-nm-leases.h"
#include "mg-profile.h"
#include "mg-profile-lock.h"
#include "mg-profile-record.h"
#include "mg-schedule.h"
#include "mg-stations.h"
#include "mg-link-check-index-write.h"
#include "mg-link-watch.h"
#include "mg-state.h"
#include "mg-write-pipeline.h"

#include "mg-service.h"
#include "mg-wall-timer.h"
#include "mg-reconcile.h"
#include "mg-rotation.h"

struct _MgService {
	GObject parent_instance;
	MgRuntime rt;
	NMClient *client;
	/* What macguised knows about each profile (mg-profile-record.h) */
	MgProfileRecords *records;
	gboolean synced;     /* the active connections found at start are known */
	gboolean following;  /* NetworkManager runs and has finished starting:
				decisions are made (mg-service-follow.c) */
	GHashTable *removed; /* UUID -> D-Bus path libnm said went, settled once idle */
	guint removed_id;
	GCancellable *gone_checks; /* asking NetworkManager whether a profile libnm lacks is gone */
	GDBusConnection *updated_bus;
	guint updated_watch;
	/* Every profile write's way: record first, slots, the profile lock */
	MgWritePipeline *pipeline;
	GHashTable *changed; /* UUIDs whose status changed since "profiles-changed" */
	guint changed_id;
	MgWallTimer *timer; /* for the earliest instant any profile asked for */
	guint rearm_id;     /* the timer is to be set again, once idle */
	GDBusConnection *resume_bus;
	guint resume_watch; /* logind's PrepareForSleep */
	guint publish_id;   /* the link-check index is to be rewritten */
	gboolean publish_failed;
	char *config_path;
	char *runtime_dir;
	char *nm_state_dir;  /* NetworkManager's leases */
	MgPolicy policy_off; /* for a profile without a UUID */
	/* NetworkManager's first-contact defaults; NULL: not kept */
	MgFirstContactKeeper *first_contact;
};

/* Profiles with a write decided and not yet made, at most: the addresses
 * of those beyond MG_WRITE_PIPELINE_SLOTS are drawn and recorded ahead, so
 * that one state save serves many writes. At least MG_SERVICE_MAX_AHEAD,
 * and an eighth of the profiles: a save writes the whole state, so with a
 * fixed number per save a large fleet's saves would cost in proportion to
 * the square of its size. */
#define MG_SERVICE_MAX_AHEAD 64
guint mg_service_max_ahead(MgService *self);

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
} MgWrite;

/* The object, the state file and the link-check index (mg-service.c) */
void mg_service_note_changed(MgService *self, const char *uuid);
void mg_service_schedule_publish(MgService *self);
void mg_service_index_check(MgService *self, NMConnection *c);
GArray *mg_service_device_macs(MgService *self);

/* Profile writes and re-activations (mg-service-writes.c) */
const char *mg_device_permanent_mac(NMDevice *dev);
void mg_service_reactivate_done(GObject *source, GAsyncResult *result, gpointer user_data);
void mg_service_reactivate_now(MgService *self, NMRemoteConnection *rc, const char *uuid);
MgWrite *mg_write_new(MgService *self, NMConnection *connection, const MgMac *mac);
void mg_write_free(MgWrite *w);
/* The pipeline's ops->unrecorded (mg-write-pipeline.h). */
void mg_service_write_unrecorded(gpointer owner, gpointer job);
void mg_service_write_done(GObject *source, GAsyncResult *result, gpointer user_data);
void mg_service_write_failed(MgService *self, MgWrite *w, const GError *error);
void mg_service_write_superseded(MgService *self, MgWrite *w);
void mg_service_write_mismatched(MgService *self, MgWrite *w);
void mg_service_write_over(MgService *self, NMRemoteConnection *rc);

/* Forgetting profiles that left NetworkManager (mg-service-follow.c,
 * mg-service-gone.c) */
void mg_service_forget(MgService *self, const char *uuid);
void mg_service_forget_missing(MgService *self);

/* One write: the lock, the current copy, Update2 (mg-service-update.c) */
/* @w is decided on @connection: what the decision rested on is taken
 * (mg_profile_basis), and the profile counts as having a write under way. */
void mg_service_write_prepare(MgService *self,
			      NMConnection *connection,
			      MgDeviceClass device_class,
			      gboolean new_stable_id,
			      MgWrite *w);
void mg_service_write(MgService *self,
		      NMRemoteConnection *rc,
		      MgDeviceClass device_class,
		      gboolean new_stable_id,
		      MgWrite *w);
/* @w has a slot and the lock (the pipeline's write). */
void mg_service_update(MgWrite *w);
/* Starts @w once the state as it is now is saved. */
void mg_service_write_recorded(MgService *self,
			       NMRemoteConnection *rc,
			       MgDeviceClass device_class,
			       gboolean new_stable_id,
			       MgWrite *w);
/* A write to NetworkManager is over, however it ended: no longer under
 * way, its slot free. */
void mg_service_write_ended(MgService *self, MgWrite *w);
gboolean mg_service_assign(MgService *self,
			   NMRemoteConnection *rc,
			   MgDeviceClass device_class,
			   const MgPolicy *policy,
			   gboolean for_conflict,
			   const char *reactivate_iface);

/* Each profile's resolved policy (mg-service-policy.c): valid until the
 * profile changes or macguise.conf is reloaded. */
const MgPolicy *
mg_service_policy(MgService *self, NMConnection *connection, MgDeviceClass device_class);
/* @uuid's profile changed (NULL: macguise.conf did): resolve again when next
 * asked. */
void mg_service_policy_changed(MgService *self, const char *uuid);

/* Deciding, and carrying the decision out (mg-service-decide.c) */
void mg_service_snapshot(MgService *self,
			 NMConnection *connection,
			 MgDeviceClass device_class,
			 const MgPolicy *policy,
			 MgSnapshot *snap);
void mg_service_evaluate(MgService *self, NMRemoteConnection *rc, MgEvent event);
/* Sets the timer again once the main loop is idle: many changes, one pass
 * over the profiles. */
void mg_service_rearm(MgService *self);
/* The wall-clock timer's callback (mg-wall-timer.h). */
void mg_service_timer_fired(gboolean clock_set, gpointer user_data);
void mg_service_evaluate_all(MgService *self, MgEvent event);

/* Following NetworkManager (mg-service-follow.c) */
MgLinkAddress
mg_service_link_address(MgService *self, const char *uuid, MgDeviceClass device_class, MgMac *out);
void mg_service_client_ready(GObject *source, GAsyncResult *result, gpointer user_data);

/* The D-Bus API's operations (mg-service-api.c) */
/* A profile by UUID or id, or MG_ERROR_NOT_FOUND. */
NMRemoteConnection *mg_service_lookup_profile(MgService *self, const char *profile, GError **error);

/* The link check's calls (mg-service-check.c) */
/* Whether macguised manages the profile with the address it holds now:
 * the one the hook checks. */
gboolean mg_service_manages(MgService *self, NMConnection *c);
/* Frees a record's passive watch (mg-profile-record.h). */
void mg_service_watch_free(gpointer watch);
/* The profile's activation is over: its passive watch, if any, ends without
 * a finding. */
void mg_service_watch_over(MgService *self, const char *uuid);
