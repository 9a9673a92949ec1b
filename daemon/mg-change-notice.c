/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-change-notice.h"

struct _MgChangeNotice {
	GHashTable *changed; /* UUIDs changed since the last notice */
	guint idle_id;
	MgChangeNoticeFunc tell;
	gpointer owner;
};

MgChangeNotice *
mg_change_notice_new(MgChangeNoticeFunc tell, gpointer owner)
{
	MgChangeNotice *n = g_new0(MgChangeNotice, 1);

	n->changed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	n->tell = tell;
	n->owner = owner;
	return n;
}

void
mg_change_notice_free(MgChangeNotice *n)
{
	if (n == NULL)
		return;
	g_clear_handle_id(&n->idle_id, g_source_remove);
	g_hash_table_unref(n->changed);
	g_free(n);
}

static gboolean
mg_change_notice_tell(gpointer user_data)
{
	MgChangeNotice *n = user_data;
	g_autofree const char **uuids =
	    (const char **)g_hash_table_get_keys_as_array(n->changed, NULL);

	n->idle_id = 0;
	n->tell(uuids, n->owner);
	g_hash_table_remove_all(n->changed);
	return G_SOURCE_REMOVE;
}

void
mg_change_notice_add(MgChangeNotice *n, const char *uuid)
{
	g_hash_table_add(n->changed, g_strdup(uuid));
	if (n->idle_id == 0)
		n->idle_id = g_idle_add(mg_change_notice_tell, n);
}
