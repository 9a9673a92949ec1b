/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguised's service: the core its parts share. The parts that keep state
 * of their own are objects of their own, each with its own header, and know
 * nothing of the service:
 *
 *   mg-profile-record.h    what is known of each profile, one record each
 *   mg-write-pipeline.h    the order of writes: record first, slots, lock
 *   mg-wake-schedule.h     one timer for the earliest wake-up asked for
 *   mg-link-index.h        the link-check index for the pre-up hook
 *   mg-change-notice.h     "profiles-changed", once per burst
 *   mg-first-contact-keeper.h  NetworkManager's first-contact defaults
 *
 * The follower (mg-service-follow.h) keeps its own state too and reaches the
 * rest through this core. The files that carry out the decisions share the
 * core and depend on one another one way:
 *
 *   mg-service.c           makes the parts and wires them
 *   mg-service-follow.c    NetworkManager's events, as decisions
 *   mg-service-api.c       the D-Bus API's operations
 *   mg-service-check.c     the pre-up hook's link check and watch
 *   mg-service-decide.c    each profile's decision, carried out
 *   mg-service-assign.c    a new address, drawn and recorded
 *   mg-service-update.c    one write into NetworkManager
 *   mg-service-writes.c    a write's end: records, state, re-activation
 *   mg-service-gone.c      forgetting profiles that left
 *   mg-service-policy.c    each profile's resolved policy
 *   mg-service-nm.c        what libnm shows of a profile and its link
 *
 * A write's end reaches the decision again only through write_over, set by
 * mg-service.c. Not for other users. */
#pragma once

#include <NetworkManager.h>

#include "mg-change-notice.h"
#include "mg-first-contact-keeper.h"
#include "mg-link-index.h"
#include "mg-profile-record.h"
#include "mg-profile.h"
#include "mg-service-type.h"
#include "mg-wake-schedule.h"
#include "mg-write-pipeline.h"

struct _MgService {
	GObject parent_instance;
	MgRuntime rt; /* configuration, catalogue, state, randomness */
	NMClient *client;
	MgProfileRecords *records;
	MgWritePipeline *pipeline;
	MgFollower *follower;
	gboolean following; /* NetworkManager runs, starting or started:
			       decisions are made (set by the follower) */
	MgWakeSchedule *wake;
	MgLinkIndex *index;
	MgChangeNotice *notice;
	/* NetworkManager's first-contact defaults; NULL: not kept */
	MgFirstContactKeeper *first_contact;
	char *config_path;
	char *nm_state_dir;  /* NetworkManager's leases */
	MgPolicy policy_off; /* for a profile without a UUID */
	/* A write is over: @rc (if given) is decided again (mg-service-decide.h) */
	void (*write_over)(MgService *self, NMRemoteConnection *rc);
};
