/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-config-edit.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-config.h"
#include "mg-error.h"

/* Whether macguised would load @text. */
static gboolean
mg_config_check(const char *text, gsize len, GError **error)
{
	g_auto(MgConfig) config = { 0 };

	mg_config_init_default(&config);
	return mg_config_load_from_data(&config, text, len, error);
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
	/* An unknown key or a bad value, this edit's or one already there
	 * (the edit may be its fix): the loader's own error, naming it. */
	if (!mg_config_check(out, len, error))
		return NULL;
	return g_steal_pointer(&out);
}
