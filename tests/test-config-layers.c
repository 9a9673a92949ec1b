/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise.conf's layers and kinds: the packaged defaults (a package's
 * *.conf files) under the administrator's file, key by key; and
 * [ethernet-shared], [ethernet] with its own keys on top, for Ethernet
 * profiles that share their connection; a bad line costs that line alone
 * (the cases in tests/config-layers/). */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mg-config.h"
#include "mg-error.h"
#include "mg-test-case.h"

static char *
write_file(const char *dir, const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);
	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

static void
test_shared_inherits_ethernet(void)
{
	static const char text[] = "[ethernet]\nrotate=never\nharden=no\n"
				   "[ethernet-shared]\nmode=off\n";
	static const char daily[] = "[ethernet]\nrotate=daily\n";
	g_auto(MgConfig) c = { 0 };

	mg_config_init_default(&c);
	g_assert_true(mg_config_load_from_data(&c, text, strlen(text), NULL));
	g_assert_cmpint(c.ethernet.mode, ==, MG_MODE_PLAUSIBLE);
	g_assert_cmpint(c.ethernet_shared.mode, ==, MG_MODE_OFF);
	g_assert_cmpint(c.ethernet_shared.rotate, ==, MG_ROTATE_NEVER);
	g_assert_false(c.ethernet_shared.harden);
	/* no [ethernet-shared]: exactly [ethernet] */
	g_assert_true(mg_config_load_from_data(&c, daily, strlen(daily), NULL));
	g_assert_cmpint(c.ethernet_shared.interval, ==, 86400);
	g_assert_cmpint(c.ethernet_shared.mode, ==, MG_MODE_PLAUSIBLE);
}

static void
test_sections(void)
{
	MgConfigSection s;
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(mg_config_section_for(MG_DEVICE_CLASS_ETHERNET, TRUE),
			==,
			MG_CONFIG_SECTION_ETHERNET_SHARED);
	g_assert_cmpint(
	    mg_config_section_for(MG_DEVICE_CLASS_ETHERNET, FALSE), ==, MG_CONFIG_SECTION_ETHERNET);
	/* a hotspot shares its connection too, and is its own kind */
	g_assert_cmpint(mg_config_section_for(MG_DEVICE_CLASS_AP, TRUE), ==, MG_CONFIG_SECTION_AP);
	g_assert_cmpint(
	    mg_config_section_for(MG_DEVICE_CLASS_WIFI, TRUE), ==, MG_CONFIG_SECTION_WIFI);
	for (guint i = 0; i < MG_CONFIG_SECTION_COUNT; i++) {
		g_assert_true(mg_config_section_parse(mg_config_section_name(i), &s, NULL));
		g_assert_cmpint(s, ==, i);
	}
	g_assert_false(mg_config_section_parse("shared", &s, &error));
	g_assert_error(error, MG_ERROR, MG_ERROR_CONFIG);
}

static void
test_packaged_files_in_name_order(void)
{
	g_autofree char *dir = g_dir_make_tmp("mg-layers-XXXXXX", NULL);
	g_autofree char *p50 = write_file(dir, "50-box.conf", "");
	g_autofree char *p60 = write_file(dir, "60-later.conf", "");
	g_autofree char *ignored = write_file(dir, "README", "not a configuration file\n");
	g_autoptr(GPtrArray) files = NULL;

	g_setenv(MG_PACKAGED_CONF_ENV, dir, TRUE);
	files = mg_config_packaged_files();
	g_assert_cmpuint(files->len, ==, 2);
	g_assert_cmpstr(g_ptr_array_index(files, 0), ==, p50);
	g_assert_cmpstr(g_ptr_array_index(files, 1), ==, p60);
	g_unlink(p50);
	g_unlink(p60);
	g_unlink(ignored);
	g_rmdir(dir);
	g_unsetenv(MG_PACKAGED_CONF_ENV);
}

/* A case file (tests/config-layers/): "=== NAME" starts a file of the case
 * (a NAME ending in "/" is a directory in its place), "=== expect" the
 * expectations: SECTION.KEY=VALUE for what a profile of that kind
 * inherits, global.KEY=VALUE, and problem=FILE:LINE: MESSAGE-START for each
 * line left out, in order. */
typedef struct {
	char *dir;
	GPtrArray *made; /* paths, to remove deepest first */
	GString *expect;
} MgLayersCase;

static void
mg_layers_case_file(MgLayersCase *c, const char *name, GString *text)
{
	gboolean is_dir = g_str_has_suffix(name, "/");
	g_autofree char *bare = g_strndup(name, strlen(name) - (is_dir ? 1 : 0));
	g_autofree char *path = g_build_filename(c->dir, bare, NULL);
	g_autofree char *parent = g_path_get_dirname(path);

	if (!g_str_equal(parent, c->dir) && !g_file_test(parent, G_FILE_TEST_IS_DIR)) {
		g_assert_cmpint(g_mkdir(parent, 0755), ==, 0);
		g_ptr_array_add(c->made, g_strdup(parent));
	}
	if (is_dir)
		g_assert_cmpint(g_mkdir(path, 0755), ==, 0);
	else
		g_assert_true(g_file_set_contents(path, text->str, -1, NULL));
	g_ptr_array_insert(c->made, 0, g_steal_pointer(&path));
}

static void
mg_layers_case_read(MgLayersCase *c, const char *case_path)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	g_autofree char *name = NULL;
	g_autoptr(GString) body = g_string_new(NULL);

	g_assert_true(g_file_get_contents(case_path, &text, NULL, NULL));
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		gboolean last = lines[i + 1] == NULL;
		if (g_str_has_prefix(lines[i], "=== ") || last) {
			if (name != NULL && g_str_equal(name, "expect"))
				g_string_assign(c->expect, body->str);
			else if (name != NULL)
				mg_layers_case_file(c, name, body);
			g_free(name);
			name = last ? NULL : g_strdup(lines[i] + 4);
			g_string_truncate(body, 0);
		} else if (name != NULL) {
			g_string_append_printf(body, "%s\n", lines[i]);
		}
	}
}

static char *
mg_layers_global(const MgConfig *config, const char *key)
{
	if (g_str_equal(key, "probe-window-ms"))
		return g_strdup_printf("%u", config->probe_window_ms);
	if (g_str_equal(key, "passive-watch-s"))
		return g_strdup_printf("%u", config->passive_watch_s);
	g_error("global.%s: not known to the case reader", key);
}

static void
mg_layers_check(MgLayersCase *c, const MgConfig *config, GPtrArray *problems)
{
	g_auto(GStrv) lines = g_strsplit(c->expect->str, "\n", -1);
	guint problem = 0;

	for (guint i = 0; lines[i] != NULL; i++) {
		const char *eq = strchr(lines[i], '=');
		g_autofree char *name = NULL;
		g_autofree char *got = NULL;
		if (lines[i][0] == '\0')
			continue;
		g_assert_nonnull(eq);
		name = g_strndup(lines[i], eq - lines[i]);
		if (g_str_equal(name, "problem")) {
			g_autofree char *text = NULL;
			g_assert_cmpuint(problem, <, problems->len);
			text = mg_config_problem_format(g_ptr_array_index(problems, problem++));
			/* the file as the case names it */
			g_assert_true(g_str_has_prefix(text, c->dir));
			if (!g_str_has_prefix(text + strlen(c->dir) + 1, eq + 1))
				g_error("problem '%s' does not start '%s'", text, eq + 1);
			continue;
		}
		if (g_str_has_prefix(name, "global.")) {
			got = mg_layers_global(config, name + strlen("global."));
		} else {
			const char *dot = strrchr(name, '.');
			g_autofree char *section_name = g_strndup(name, dot - name);
			MgConfigSection section;
			g_assert_true(mg_config_section_parse(section_name, &section, NULL));
			got = mg_policy_get(mg_config_policy_of(config, section), dot + 1);
		}
		if (!g_str_equal(got, eq + 1))
			g_error("%s is '%s', expected '%s'", name, got, eq + 1);
	}
	g_assert_cmpuint(problem, ==, problems->len);
}

static void
test_layers_case(gconstpointer data)
{
	MgLayersCase c = { .dir = g_dir_make_tmp("mg-layers-XXXXXX", NULL),
			   .made = g_ptr_array_new_with_free_func(g_free),
			   .expect = g_string_new(NULL) };
	g_autofree char *packaged = g_build_filename(c.dir, "packaged", NULL);
	g_autofree char *admin = g_build_filename(c.dir, "macguise.conf", NULL);
	g_autoptr(GPtrArray) problems = mg_config_problems_new();
	g_auto(MgConfig) config = { 0 };

	mg_layers_case_read(&c, data);
	g_setenv(MG_PACKAGED_CONF_ENV, packaged, TRUE);
	mg_config_init_default(&config);
	mg_config_load_files(&config, admin, problems);
	mg_layers_check(&c, &config, problems);
	g_unsetenv(MG_PACKAGED_CONF_ENV);
	for (guint i = 0; i < c.made->len; i++)
		g_assert_cmpint(g_remove(g_ptr_array_index(c.made, i)), ==, 0);
	g_assert_cmpint(g_rmdir(c.dir), ==, 0);
	g_ptr_array_unref(c.made);
	g_string_free(c.expect, TRUE);
	g_free(c.dir);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/config/shared-inherits-ethernet", test_shared_inherits_ethernet);
	g_test_add_func("/config/sections", test_sections);
	g_test_add_func("/config/packaged-files-in-name-order", test_packaged_files_in_name_order);
	mg_case_add_all("config-layers", test_layers_case);
	return g_test_run();
}
