/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mg-profile.h"
#include "mg-state-store.h"

/* A runtime whose state lives in a new temporary directory (named after
 * @template), empty: the directory, to give mg_test_runtime_remove(). */
static inline char *
mg_test_runtime_new(MgRuntime *rt, const char *template)
{
	MgStateLoadReport report = { 0 };
	g_autoptr(GError) error = NULL;
	char *dir = g_dir_make_tmp(template, &error);

	g_assert_no_error(error);
	rt->state = mg_state_load(dir, &report, &error);
	g_assert_no_error(error);
	mg_state_load_report_clear(&report);
	rt->state_dir = g_strdup(dir);
	mg_config_init_default(&rt->config);
	return dir;
}

/* The runtime cleared, and @dir (taken) removed with what is in it. */
static inline void
mg_test_runtime_remove(MgRuntime *rt, char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		(void)g_unlink(path);
	}
	(void)g_rmdir(dir);
	g_free(dir);
	mg_runtime_clear(rt);
}

/* Whether the state file in @dir holds profile @uuid. */
static inline gboolean
mg_test_state_holds(const char *dir, const char *uuid)
{
	g_autofree char *path = g_build_filename(dir, MG_STATE_FILE_NAME, NULL);
	g_autofree char *text = NULL;
	g_autofree char *group = g_strdup_printf("[profile %s]", uuid);
	return g_file_get_contents(path, &text, NULL, NULL) && strstr(text, group) != NULL;
}
