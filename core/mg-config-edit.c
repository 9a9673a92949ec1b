/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-config-edit.h"

#include <string.h>

#include "mg-config.h"
#include "mg-error.h"

const char *
mg_config_section(MgDeviceClass device_class)
{
	if (device_class == MG_DEVICE_CLASS_WIFI)
		return "wifi";
	if (device_class == MG_DEVICE_CLASS_AP)
		return "ap";
	return "ethernet";
}

/* Whether macguised would load @text. */
static gboolean
mg_config_check(const char *text, gsize len, GError **error)
{
	g_auto(MgConfig) config = { 0 };

	mg_config_init_default(&config);
	return mg_config_load_from_data(&config, text, len, error);
}

char *
mg_config_edit_default(const char *text,
		       MgDeviceClass device_class,
		       const char *key,
		       const char *value,
		       GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	const char *section = mg_config_section(device_class);
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
		g_key_file_set_value(kf, section, key, value);
	else if (g_key_file_has_group(kf, section))
		g_key_file_remove_key(kf, section, key, NULL);
	out = g_key_file_to_data(kf, &len, NULL);
	/* An unknown key or a bad value: the loader's own error, naming it. */
	if (!mg_config_check(out, len, error))
		return NULL;
	return g_steal_pointer(&out);
}
