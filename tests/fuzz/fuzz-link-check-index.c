/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer: the link-check index as the pre-up hook's front reads it,
 * looked up for a fixed UUID and for one taken from the input itself. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mg-link-check-index.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char uuid[37] = "0b2e4ef4-8b1d-4a4c-9c43-3f4d2c1e0a99";
	MgLinkCheckIndexAnswer a = mg_link_check_index_lookup((const char *)data, size, uuid);

	if (a != MG_LINK_CHECK_INDEX_CHECK && a != MG_LINK_CHECK_INDEX_SKIP &&
	    a != MG_LINK_CHECK_INDEX_MALFORMED)
		__builtin_trap();
	if (size >= 36) {
		memcpy(uuid, data + size - 36, 36);
		uuid[36] = '\0';
		(void)mg_link_check_index_lookup((const char *)data, size, uuid);
	}
	(void)mg_link_check_index_lookup((const char *)data, size, NULL);
	return 0;
}
