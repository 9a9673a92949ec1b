/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-link-check-index.h"

#include <string.h>

/* Only a UUID's characters can match: no wildcard, no empty name. */
static int
mg_link_check_index_uuid_ok(const char *uuid)
{
	size_t n = strlen(uuid);
	if (n != 36)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = uuid[i];
		int dash = i == 8 || i == 13 || i == 18 || i == 23;
		if (dash ? c != '-'
			 : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
			     (c >= 'A' && c <= 'F')))
			return 0;
	}
	return 1;
}

/* @all_counts: whether the line "all" answers for every UUID. */
static MgLinkCheckIndexAnswer
mg_link_check_index_find(const char *data, size_t len, const char *uuid, int all_counts)
{
	size_t magic = strlen(MG_LINK_CHECK_INDEX_MAGIC);
	size_t want = uuid != NULL ? strlen(uuid) : 0;
	const char *p, *end = data + len;

	/* A whole file ends in a newline: a cut one is no answer. */
	if (len < magic + 1 || memcmp(data, MG_LINK_CHECK_INDEX_MAGIC, magic) != 0 ||
	    data[magic] != '\n' || data[len - 1] != '\n' || memchr(data, '\0', len) != NULL)
		return MG_LINK_CHECK_INDEX_MALFORMED;
	for (p = data + magic + 1; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)(nl - p);
		if (all_counts && n == 3 && memcmp(p, "all", 3) == 0)
			return MG_LINK_CHECK_INDEX_SKIP;
		if (uuid != NULL && n == want && memcmp(p, uuid, n) == 0 &&
		    mg_link_check_index_uuid_ok(uuid))
			return MG_LINK_CHECK_INDEX_SKIP;
		p = nl + 1;
	}
	return MG_LINK_CHECK_INDEX_CHECK;
}

MgLinkCheckIndexAnswer
mg_link_check_index_lookup(const char *data, size_t len, const char *uuid)
{
	return mg_link_check_index_find(data, len, uuid, 1);
}

MgLinkCheckIndexAnswer
mg_link_check_index_lists(const char *data, size_t len, const char *uuid)
{
	return mg_link_check_index_find(data, len, uuid, 0);
}
