/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <string.h>

#include "mg-state-store.h"

/* Warnings, kept for the test that expects one rather than made fatal
 * (G_DEBUG=fatal-warnings): mg_test_keep_warnings() installs the writer. */
static GString *mg_test_warnings;

static GLogWriterOutput
mg_test_warning_writer(GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer data)
{
	if ((level & G_LOG_LEVEL_WARNING) == 0)
		return g_log_writer_default(level, fields, n_fields, data);
	for (gsize i = 0; i < n_fields; i++)
		if (g_strcmp0(fields[i].key, "MESSAGE") == 0)
			g_string_append_printf(
			    mg_test_warnings, "%s\n", (const char *)fields[i].value);
	return G_LOG_WRITER_HANDLED;
}

static inline void
mg_test_keep_warnings(void)
{
	mg_test_warnings = g_string_new(NULL);
	g_log_set_writer_func(mg_test_warning_writer, NULL, NULL);
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
