/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise.conf's layers and kinds: the packaged defaults (a package's
 * *.conf files) under the administrator's file, key by key; and
 * [ethernet-shared], [ethernet] with its own keys on top, for Ethernet
 * profiles that share their connection. */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mg-config.h"
#include "mg-error.h"

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
test_packaged_under_administrator(void)
{
	g_autofree char *dir = g_dir_make_tmp("mg-layers-XXXXXX", NULL);
	g_autofree char *packaged = g_build_filename(dir, "conf.d", NULL);
	g_autofree char *p50 = NULL, *p60 = NULL, *ignored = NULL, *admin = NULL;
	g_auto(MgConfig) c = { 0 };
	g_autoptr(GPtrArray) files = NULL;

	g_assert_cmpint(g_mkdir(packaged, 0755), ==, 0);
	p60 = write_file(packaged, "60-later.conf", "[wifi]\nrotate=weekly\n");
	p50 = write_file(packaged,
			 "50-box.conf",
			 "[ethernet]\nrotate=never\n[ethernet-shared]\nmode=off\n"
			 "[wifi]\nrotate=boot\n");
	ignored = write_file(packaged, "README", "not a configuration file\n");
	admin = write_file(dir, "macguise.conf", "[ethernet]\nharden=no\n[wifi]\nmode=off\n");
	g_setenv(MG_PACKAGED_CONF_ENV, packaged, TRUE);

	files = mg_config_packaged_files();
	g_assert_cmpuint(files->len, ==, 2);
	g_assert_cmpstr(g_ptr_array_index(files, 0), ==, p50);
	g_assert_cmpstr(g_ptr_array_index(files, 1), ==, p60);

	mg_config_init_default(&c);
	g_assert_true(mg_config_load_file(&c, admin, NULL));
	/* each key from the last file that sets it */
	g_assert_cmpint(c.ethernet.rotate, ==, MG_ROTATE_NEVER);
	g_assert_false(c.ethernet.harden);
	g_assert_cmpint(c.wifi.rotate, ==, MG_ROTATE_INTERVAL);
	g_assert_cmpint(c.wifi.interval, ==, 7 * 86400);
	g_assert_cmpint(c.wifi.mode, ==, MG_MODE_OFF);
	/* the shared kind: the packaged key over the merged [ethernet] */
	g_assert_cmpint(c.ethernet_shared.mode, ==, MG_MODE_OFF);
	g_assert_cmpint(c.ethernet_shared.rotate, ==, MG_ROTATE_NEVER);
	g_assert_false(c.ethernet_shared.harden);

	/* no administrator's file: the packaged defaults alone */
	g_assert_cmpint(g_unlink(admin), ==, 0);
	g_assert_true(mg_config_load_file(&c, admin, NULL));
	g_assert_true(c.ethernet.harden);
	g_assert_cmpint(c.ethernet.rotate, ==, MG_ROTATE_NEVER);

	g_unlink(p50);
	g_unlink(p60);
	g_unlink(ignored);
	g_rmdir(packaged);
	g_rmdir(dir);
	g_unsetenv(MG_PACKAGED_CONF_ENV);
}

static void
test_bad_packaged_file_is_named(void)
{
	g_autofree char *dir = g_dir_make_tmp("mg-layers-XXXXXX", NULL);
	g_autofree char *bad = write_file(dir, "50-bad.conf", "[ethernet]\nrotate=sometimes\n");
	g_autofree char *admin = g_build_filename(dir, "absent.conf", NULL);
	g_autoptr(GError) error = NULL;
	g_auto(MgConfig) c = { 0 };

	g_setenv(MG_PACKAGED_CONF_ENV, dir, TRUE);
	mg_config_init_default(&c);
	c.ethernet.rotate = MG_ROTATE_BOOT;
	g_assert_false(mg_config_load_file(&c, admin, &error));
	g_assert_error(error, MG_ERROR, MG_ERROR_CONFIG);
	g_assert_nonnull(strstr(error->message, bad));
	/* the caller's configuration stays whole */
	g_assert_cmpint(c.ethernet.rotate, ==, MG_ROTATE_BOOT);
	g_unlink(bad);
	g_rmdir(dir);
	g_unsetenv(MG_PACKAGED_CONF_ENV);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/config/shared-inherits-ethernet", test_shared_inherits_ethernet);
	g_test_add_func("/config/sections", test_sections);
	g_test_add_func("/config/packaged-under-administrator", test_packaged_under_administrator);
	g_test_add_func("/config/bad-packaged-file-is-named", test_bad_packaged_file_is_named);
	return g_test_run();
}
