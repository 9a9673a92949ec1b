/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

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

/* At a test's end: no warning was kept, unless the test's path ends with
 * @allowed (NULL: none may); the kept ones are then cleared. */
static inline void
mg_test_warnings_checked(const char *allowed)
{
	if (allowed == NULL || !g_str_has_suffix(g_test_get_path(), allowed))
		g_assert_cmpstr(mg_test_warnings->str, ==, "");
	g_string_truncate(mg_test_warnings, 0);
}
