/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-write-check.h"

#include <stdio.h>

const char *
mg_write_read_to_string(MgWriteRead read)
{
	switch (read) {
	case MG_WRITE_READ_VERSION:
		return "version";
	case MG_WRITE_READ_ROUND_TRIP:
		return "round-trip";
	case MG_WRITE_READ_COPY:
		return "copy";
	case MG_WRITE_READ_LIBNM_COPY:
		return "libnm-copy";
	}
	g_return_val_if_reached(NULL);
}

const char *
mg_write_verdict_to_string(MgWriteVerdict verdict)
{
	switch (verdict) {
	case MG_WRITE_GO:
		return "write";
	case MG_WRITE_DECIDE_NOW:
		return "decide-again-now";
	case MG_WRITE_DECIDE_LATER:
		return "decide-again-later";
	}
	g_return_val_if_reached(NULL);
}

gboolean
mg_write_nm_checks_version_ids(const char *nm_version)
{
	guint major = 0, minor = 0;

	return nm_version != NULL && sscanf(nm_version, "%u.%u", &major, &minor) == 2 &&
	       (major > 1 || (major == 1 && minor >= 44));
}

/* Reading every profile before each write costs NetworkManager a fifth more
 * work per write; a round trip (or its VersionId) costs it next to nothing,
 * so libnm's copy serves where it is known current. */
MgWriteRead
mg_write_read_first(const char *nm_version, gboolean libnm_has_profile)
{
	if (!libnm_has_profile)
		return MG_WRITE_READ_COPY;
	if (mg_write_nm_checks_version_ids(nm_version))
		return MG_WRITE_READ_VERSION;
	return MG_WRITE_READ_ROUND_TRIP;
}

/* Whether libnm's copy of the profile is NetworkManager's, as of an answer
 * NetworkManager gave after any change it announced. */
static gboolean
mg_write_libnm_current(gboolean libnm_has_profile, gboolean changed_unfetched)
{
	return libnm_has_profile && !changed_unfetched;
}

MgWriteRead
mg_write_read_after_round_trip(gboolean libnm_has_profile, gboolean changed_unfetched)
{
	return mg_write_libnm_current(libnm_has_profile, changed_unfetched)
		   ? MG_WRITE_READ_LIBNM_COPY
		   : MG_WRITE_READ_COPY;
}

/* A new address it was to write stays due either way: the rotation is not
 * lost (the daemon marks it pending). */
MgWriteVerdict
mg_write_check_copy(const char *decided, const char *current, const char *libnm)
{
	if (g_strcmp0(decided, current) == 0)
		return MG_WRITE_GO;
	return g_strcmp0(libnm, current) == 0 ? MG_WRITE_DECIDE_NOW : MG_WRITE_DECIDE_LATER;
}

MgWriteVerdict
mg_write_after_refusal(gboolean libnm_has_profile, gboolean changed_unfetched)
{
	return mg_write_libnm_current(libnm_has_profile, changed_unfetched) ? MG_WRITE_DECIDE_NOW
									    : MG_WRITE_DECIDE_LATER;
}
