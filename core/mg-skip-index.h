/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The reading side of the link-check index (see mg-skip-list.h), in plain
 * C without GLib: the pre-up hook's front reads it before anything else is
 * loaded, so that a profile with nothing to check costs NetworkManager's
 * dispatcher no more than a shell script would. */

#include <stddef.h>

/* The first line of every index. */
#define MG_SKIP_INDEX_MAGIC "# macguise link-check index 1"

typedef enum {
	MG_SKIP_INDEX_CHECK = 0,     /* not listed: ask macguised */
	MG_SKIP_INDEX_SKIP = 1,      /* listed, or the check is off for all */
	MG_SKIP_INDEX_MALFORMED = -1 /* not an index: ask macguised */
} MgSkipIndexAnswer;

/* One line per profile UUID, or the single line "all". */
MgSkipIndexAnswer mg_skip_index_lookup(const char *data, size_t len, const char *uuid);
