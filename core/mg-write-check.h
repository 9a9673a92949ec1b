/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How a write of macguised's makes sure it writes onto the profile as it is
 * now, not onto the copy its decision was made on (another program, the
 * macguise command, NetworkManager itself may have changed it since): what
 * it reads first, and what it does with what it read. Pure decisions; the
 * reads themselves are the daemon's (mg-service-update.c). Cases:
 * tests/write-check/. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
	/* the profile's VersionId, then its copy, both from NetworkManager;
	 * Update2 is given the VersionId, and refuses the write if the
	 * profile changed after it (NetworkManager 1.44 and later) */
	MG_WRITE_READ_VERSION,
	/* a round trip to NetworkManager first: a change it made before
	 * answering is announced before the answer */
	MG_WRITE_READ_ROUND_TRIP,
	/* the copy, from NetworkManager */
	MG_WRITE_READ_COPY,
	/* libnm's copy: as of the round trip, it is current */
	MG_WRITE_READ_LIBNM_COPY,
} MgWriteRead;

const char *mg_write_read_to_string(MgWriteRead read);

/* Whether NetworkManager @nm_version's Update2 takes a VersionId (1.44 and
 * later). */
gboolean mg_write_nm_checks_version_ids(const char *nm_version);
/* What a write reads first, once it has its slot and the profile lock;
 * @libnm_has_profile: libnm still lists the profile. */
MgWriteRead mg_write_read_first(const char *nm_version, gboolean libnm_has_profile);
/* After the round trip: @changed_unfetched, NetworkManager announced a
 * change of the profile that libnm has not fetched yet. */
MgWriteRead mg_write_read_after_round_trip(gboolean libnm_has_profile, gboolean changed_unfetched);

typedef enum {
	MG_WRITE_GO,           /* the copy is what the decision rested on */
	MG_WRITE_DECIDE_NOW,   /* nothing written; decided again on libnm's copy */
	MG_WRITE_DECIDE_LATER, /* nothing written; decided again once libnm's
				  copy catches up (its "changed") */
} MgWriteVerdict;

const char *mg_write_verdict_to_string(MgWriteVerdict verdict);

/* The copy read is @current (mg_profile_basis() of each); the decision
 * rested on @decided; libnm's copy is @libnm (NULL: libnm has none). */
MgWriteVerdict mg_write_check_copy(const char *decided, const char *current, const char *libnm);
/* NetworkManager refused the write: the profile changed after the
 * VersionId was read. */
MgWriteVerdict mg_write_after_refusal(gboolean libnm_has_profile, gboolean changed_unfetched);

G_END_DECLS
