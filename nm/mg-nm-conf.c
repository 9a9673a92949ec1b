/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include "mg-nm-conf.h"

#include <string.h>

/* NetworkManager's configuration, in the order it reads it; the files in a
 * directory in name order, later ones winning. MACGUISE_NM_CONF (a
 * ':'-separated list of files and directories) replaces it, for an image
 * being built or a NetworkManager started with other paths. */
static const char *const mg_nm_conf_default[] = {
	"/usr/lib/NetworkManager/conf.d",
	"/run/NetworkManager/conf.d",
	"/etc/NetworkManager/NetworkManager.conf",
	"/etc/NetworkManager/conf.d",
	NULL,
};

static gboolean
mg_group_matches(const char *name, const char *group)
{
	gsize len = strlen(group);
	return strncmp(name, group, len) == 0 && (name[len] == '\0' || name[len] == '-');
}

static void
mg_nm_conf_value_in(
    GKeyFile *kf, const char *group, const char *key, gboolean unconditional, char **value)
{
	g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);

	for (guint i = 0; groups[i] != NULL; i++) {
		char *v;
		if (!mg_group_matches(groups[i], group) ||
		    (unconditional && g_key_file_has_key(kf, groups[i], "match-device", NULL)))
			continue;
		v = g_key_file_get_value(kf, groups[i], key, NULL);
		if (v != NULL) {
			g_free(*value);
			*value = v;
		}
	}
}

static int
mg_strcmp_ptr(gconstpointer a, gconstpointer b)
{
	return g_strcmp0(*(const char *const *)a, *(const char *const *)b);
}

static void
mg_nm_conf_load(GPtrArray *files, const char *path)
{
	GKeyFile *kf = g_key_file_new();

	if (g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL))
		g_ptr_array_add(files, kf);
	else
		g_key_file_unref(kf);
}

/* The configuration files, parsed in the order NetworkManager reads them;
 * once a process, as audit asks for several keys of every profile. */
static GPtrArray *
mg_nm_conf_files(void)
{
	static GPtrArray *files;
	const char *env = g_getenv("MACGUISE_NM_CONF");
	g_auto(GStrv) from_env = NULL;
	const char *const *places;

	if (files != NULL)
		return files;
	files = g_ptr_array_new_with_free_func((GDestroyNotify)g_key_file_unref);
	from_env = env != NULL ? g_strsplit(env, ":", -1) : NULL;
	places = from_env != NULL ? (const char *const *)from_env : mg_nm_conf_default;
	for (guint i = 0; places[i] != NULL; i++) {
		g_autoptr(GDir) dir = g_dir_open(places[i], 0, NULL);
		g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
		const char *name;
		if (dir == NULL) {
			mg_nm_conf_load(files, places[i]);
			continue;
		}
		while ((name = g_dir_read_name(dir)) != NULL) {
			if (g_str_has_suffix(name, ".conf"))
				g_ptr_array_add(names, g_build_filename(places[i], name, NULL));
		}
		g_ptr_array_sort(names, mg_strcmp_ptr);
		for (guint j = 0; j < names->len; j++)
			mg_nm_conf_load(files, g_ptr_array_index(names, j));
	}
	return files;
}

char *
mg_nm_conf_value(const char *group, const char *key, gboolean unconditional)
{
	GPtrArray *files = mg_nm_conf_files();
	char *value = NULL;

	for (guint i = 0; i < files->len; i++)
		mg_nm_conf_value_in(g_ptr_array_index(files, i), group, key, unconditional, &value);
	return value;
}

/* NetworkManager's words for connection.mdns and connection.llmnr. */
int
mg_nm_conf_int(const char *key, int fallback)
{
	static const char *const words[] = { "no", "resolve", "yes" };
	g_autofree char *v = mg_nm_conf_value("connection", key, TRUE);
	gint64 n;

	if (v == NULL)
		return fallback;
	g_strstrip(v);
	for (guint i = 0; i < G_N_ELEMENTS(words); i++) {
		if (g_ascii_strcasecmp(v, words[i]) == 0)
			return (int)i;
	}
	if (g_ascii_string_to_signed(v, 10, -1, 2, &n, NULL))
		return (int)n;
	return fallback;
}

/* MACGUISE_RESOLVED_SOCKET and MACGUISE_AVAHI_SOCKET name other sockets,
 * for a test in its own namespaces. */
static gboolean
mg_socket_exists(const char *env, const char *path)
{
	const char *override = g_getenv(env);
	return g_file_test(override != NULL ? override : path, G_FILE_TEST_EXISTS);
}

gboolean
mg_resolved_running(void)
{
	return mg_socket_exists("MACGUISE_RESOLVED_SOCKET",
				"/run/systemd/resolve/io.systemd.Resolve");
}

gboolean
mg_avahi_running(void)
{
	return mg_socket_exists("MACGUISE_AVAHI_SOCKET", "/run/avahi-daemon/socket");
}
