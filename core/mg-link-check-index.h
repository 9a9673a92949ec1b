/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The reading side of the link-check index (see mg-link-check-index-write.h), in plain
 * C without GLib: the pre-up hook's front reads it before anything else is
 * loaded, so that a profile with nothing to check costs NetworkManager's
 * dispatcher no more than a shell script would. */

#include <stddef.h>

/* The first line of every index. */
#define MG_LINK_CHECK_INDEX_MAGIC "# macguise link-check index 1"

typedef enum {
	MG_LINK_CHECK_INDEX_CHECK = 0,     /* not listed: ask macguised */
	MG_LINK_CHECK_INDEX_SKIP = 1,      /* listed, or the check is off for all */
	MG_LINK_CHECK_INDEX_MALFORMED = -1 /* not an index: ask macguised */
} MgLinkCheckIndexAnswer;

/* One line per profile UUID, or the single line "all". */
MgLinkCheckIndexAnswer mg_link_check_index_lookup(const char *data, size_t len, const char *uuid);

/* Whether @uuid's own line is there (SKIP): a profile macguise leaves
 * alone. The line "all" says only that the link check is off, not which
 * profiles macguise manages, so it answers CHECK here. */
MgLinkCheckIndexAnswer mg_link_check_index_lists(const char *data, size_t len, const char *uuid);
