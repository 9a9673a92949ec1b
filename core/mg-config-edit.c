/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-config-edit.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-config-private.h"
#include "mg-config.h"
#include "mg-error.h"

/* The lines of @text macguised would skip. */
static GPtrArray *
mg_config_text_problems(const char *text)
{
	g_autoptr(GKeyFile) merged = g_key_file_new();
	GPtrArray *problems = mg_config_problems_new();

	mg_config_read_text_into(text != NULL ? text : "", MG_CONFIG_FILE_NAME, merged, problems);
	return problems;
}

static gboolean
mg_config_problem_among(const MgConfigProblem *p, GPtrArray *problems)
{
	for (guint i = 0; i < problems->len; i++) {
		const MgConfigProblem *q = g_ptr_array_index(problems, i);
		if (g_strcmp0(p->section, q->section) == 0 && g_strcmp0(p->key, q->key) == 0 &&
		    g_strcmp0(p->message, q->message) == 0)
			return TRUE;
	}
	return FALSE;
}

/* Whether @after has no bad line @before did not have: an edit may leave a
 * line it does not touch as it was (that line costs only itself), never
 * make one. */
static gboolean
mg_config_check(const char *before, const char *after, GError **error)
{
	g_autoptr(GPtrArray) old_problems = mg_config_text_problems(before);
	g_autoptr(GPtrArray) new_problems = mg_config_text_problems(after);

	for (guint i = 0; i < new_problems->len; i++) {
		const MgConfigProblem *p = g_ptr_array_index(new_problems, i);
		if (!mg_config_problem_among(p, old_problems)) {
			g_set_error_literal(error, MG_ERROR, MG_ERROR_CONFIG, p->message);
			return FALSE;
		}
	}
	return TRUE;
}

char *
mg_config_edit_default(
    const char *text, MgConfigSection section, const char *key, const char *value, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	const char *group = mg_config_section_name(section);
	g_autofree char *out = NULL;
	g_autoptr(GError) local = NULL;
	gsize len = 0;

	/* A file that is not a key file is not ours to rewrite: its lines
	 * would be lost. */
	if (text != NULL && text[0] != '\0' &&
	    !g_key_file_load_from_data(kf, text, (gsize)-1, G_KEY_FILE_KEEP_COMMENTS, &local)) {
		g_set_error(error,
			    MG_ERROR,
			    MG_ERROR_CONFIG,
			    _("not a valid key file: %s"),
			    local->message);
		return NULL;
	}
	if (value != NULL)
		g_key_file_set_value(kf, group, key, value);
	else if (g_key_file_has_group(kf, group))
		g_key_file_remove_key(kf, group, key, NULL);
	out = g_key_file_to_data(kf, &len, NULL);
	/* An unknown key or a bad value of this edit's: the reader's own
	 * message, naming it. */
	if (!mg_config_check(text, out, error))
		return NULL;
	return g_steal_pointer(&out);
}
