/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-link-index.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "mg-link-check-index-write.h"

struct _MgLinkIndex {
	char *path; /* NULL: not written */
	MgProfileRecords *records;
	MgLinkIndexListFunc list;
	gpointer owner;
	guint update_id;
	gboolean failed; /* the last write failed (warned once) */
};

MgLinkIndex *
mg_link_index_new(const char *runtime_dir,
		  MgProfileRecords *records,
		  MgLinkIndexListFunc list,
		  gpointer owner)
{
	MgLinkIndex *index = g_new0(MgLinkIndex, 1);

	if (runtime_dir != NULL)
		index->path = g_build_filename(runtime_dir, MG_LINK_CHECK_INDEX_FILE, NULL);
	index->records = records;
	index->list = list;
	index->owner = owner;
	return index;
}

void
mg_link_index_free(MgLinkIndex *index)
{
	if (index == NULL)
		return;
	g_clear_handle_id(&index->update_id, g_source_remove);
	if (index->path != NULL)
		(void)g_unlink(index->path);
	g_free(index->path);
	g_free(index);
}

/* Which profiles the index lists: @listed's UUIDs. A record left behind by
 * a profile that left is not made to list it again. */
static void
mg_link_index_mark_listed(MgLinkIndex *index, GPtrArray *listed)
{
	GHashTableIter iter;
	MgProfileRecord *r;

	mg_profile_records_iter_init(index->records, &iter);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&r))
		r->published = FALSE;
	for (guint i = 0; i < listed->len; i++) {
		const char *uuid = g_ptr_array_index(listed, i);
		/* (not ensure() alone: it would take a record left behind by a
		 * profile that left for the profile back) */
		MgProfileRecord *entry = mg_profile_records_get(index->records, uuid);
		if (entry == NULL)
			entry = mg_profile_records_ensure(index->records, uuid);
		if (!entry->leaving)
			entry->published = TRUE;
	}
}

static gboolean
mg_link_index_write(gpointer user_data)
{
	MgLinkIndex *index = user_data;
	g_autoptr(GPtrArray) listed = g_ptr_array_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = g_path_get_dirname(index->path);
	g_autofree char *data = NULL;
	gboolean all;
	gsize len = 0;

	index->update_id = 0;
	all = !index->list(index->owner, listed);
	if (all)
		g_ptr_array_set_size(listed, 0);
	mg_link_index_mark_listed(index, listed);
	data = mg_link_check_index_to_data(listed, all, &len);
	if (g_mkdir_with_parents(dir, 0700) != 0 ||
	    !g_file_set_contents_full(
		index->path, data, (gssize)len, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error)) {
		/* The hook then asks over D-Bus: slower, still right. */
		if (!index->failed)
			g_warning("cannot write the link-check index %s: %s",
				  index->path,
				  error != NULL ? error->message : g_strerror(errno));
		index->failed = TRUE;
		return G_SOURCE_REMOVE;
	}
	index->failed = FALSE;
	return G_SOURCE_REMOVE;
}

void
mg_link_index_update_soon(MgLinkIndex *index)
{
	if (index->update_id == 0 && index->path != NULL)
		index->update_id =
		    g_idle_add_full(G_PRIORITY_LOW, mg_link_index_write, index, NULL);
}

void
mg_link_index_check(MgLinkIndex *index, const char *uuid, gboolean left_alone)
{
	const MgProfileRecord *r = mg_profile_records_get(index->records, uuid);

	if (uuid != NULL && left_alone != (r != NULL && r->published))
		mg_link_index_update_soon(index);
}
