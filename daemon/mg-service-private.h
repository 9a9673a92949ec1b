/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguised's service object: the struct its files share. Each file has a
 * header of its own for what it does; they depend on one another one way:
 *
 *   mg-service.c           the object: makes the parts and wires them
 *   mg-service-follow.c    NetworkManager's events, as decisions
 *   mg-service-api.c       the D-Bus API's operations
 *   mg-service-check.c     the pre-up hook's link check and watch
 *   mg-service-decide.c    each profile's decision, carried out
 *   mg-service-assign.c    a new address, drawn and recorded
 *   mg-service-update.c    one write into NetworkManager
 *   mg-service-writes.c    a write's end: records, state, re-activation
 *   mg-service-gone.c      forgetting profiles that left
 *   mg-service-index.c     the link-check index
 *   mg-service-policy.c    each profile's resolved policy
 *   mg-service-nm.c        what libnm shows of a profile and its link
 *   mg-service-notify.c    "profiles-changed"
 *
 * and, knowing nothing of it, mg-profile-record.h (what is known of each
 * profile) and mg-write-pipeline.h (the order of writes). A write's end
 * reaches the decision again only through write_over, set by mg-service.c.
 * Not for other users. */
#pragma once

#include <NetworkManager.h>

#include "mg-first-contact-keeper.h"
#include "mg-profile-record.h"
#include "mg-profile.h"
#include "mg-service-type.h"
#include "mg-wall-timer.h"
#include "mg-write-pipeline.h"

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
	/* A write is over: @rc (if given) is decided again (mg-service-decide.h) */
	void (*write_over)(MgService *self, NMRemoteConnection *rc);
};
