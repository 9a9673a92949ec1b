/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-user-name.h"

#include <errno.h>
#include <pwd.h>

/* A directory service's entry can be larger than any fixed buffer: the
 * buffer grows while the lookup says so, up to a bound. */
static char *
mg_user_name_of(guint32 uid)
{
	struct passwd pw, *found = NULL;
	g_autofree char *buf = NULL;
	gsize size = 1024;

	for (int err = ERANGE; err == ERANGE && size <= 1024 * 1024; size *= 4) {
		g_free(buf);
		buf = g_malloc(size);
		err = getpwuid_r((uid_t)uid, &pw, buf, size, &found);
	}
	return found != NULL ? g_strdup(found->pw_name) : NULL;
}

static void
mg_user_name_thread(GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
	g_task_return_pointer(task, mg_user_name_of(GPOINTER_TO_UINT(task_data)), g_free);
}

void
mg_user_name_lookup_async(guint32 uid, GAsyncReadyCallback callback, gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(NULL, NULL, callback, user_data);

	g_task_set_task_data(task, GUINT_TO_POINTER(uid), NULL);
	g_task_run_in_thread(task, mg_user_name_thread);
}

char *
mg_user_name_lookup_finish(GAsyncResult *result)
{
	return g_task_propagate_pointer(G_TASK(result), NULL);
}
