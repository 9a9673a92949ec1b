/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-link-check-index-write.h"

#include "mg-paths.h"

char *
mg_link_check_index_to_data(GPtrArray *uuids, gboolean all, gsize *len)
{
	GString *s = g_string_new(MG_LINK_CHECK_INDEX_MAGIC "\n");

	if (all)
		g_string_append(s, "all\n");
	for (guint i = 0; !all && uuids != NULL && i < uuids->len; i++) {
		const char *uuid = g_ptr_array_index(uuids, i);
		/* One line each: nothing else may end up in the file. */
		if (mg_uuid_is_valid(uuid))
			g_string_append_printf(s, "%s\n", uuid);
	}
	*len = s->len;
	return g_string_free(s, FALSE);
}

char *
mg_runtime_default_dir(void)
{
	return mg_systemd_directory("RUNTIME_DIRECTORY", MG_RUNTIME_DEFAULT_DIR);
}
