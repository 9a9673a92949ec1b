/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-config-edit.h"

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
	gsize len = 0;

	if (text != NULL && text[0] != '\0') {
		/* What macguised would refuse is not ours to rewrite. */
		g_autoptr(GError) local = NULL;
		if (!mg_config_check(text, strlen(text), &local)) {
			/* an unreadable file is a bad configuration too */
			g_set_error_literal(error, MG_ERROR, MG_ERROR_CONFIG, local->message);
			return NULL;
		}
		if (!g_key_file_load_from_data(
			kf, text, (gsize)-1, G_KEY_FILE_KEEP_COMMENTS, error))
			return NULL;
	}
	if (value != NULL)
		g_key_file_set_value(kf, group, key, value);
	else if (g_key_file_has_group(kf, group))
		g_key_file_remove_key(kf, group, key, NULL);
	out = g_key_file_to_data(kf, &len, NULL);
	/* An unknown key or a bad value: the loader's own error, naming it. */
	if (!mg_config_check(out, len, error))
		return NULL;
	return g_steal_pointer(&out);
}
