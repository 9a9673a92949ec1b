/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `macguise defaults`' edit of macguise.conf: one key of one class, the
 * rest of the file kept, and nothing macguised would refuse. */
#include "config.h"

#include <string.h>

#include "mg-config-edit.h"
#include "mg-config.h"
#include "mg-error.h"

static void
test_edit_keeps_the_rest(void)
{
	static const char *const text = "# kept\n[global]\nprobe-window-ms=300\n\n"
					"[wifi]\n# also kept\nrotate=weekly\n";
	g_autoptr(GError) error = NULL;
	g_autofree char *out =
	    mg_config_edit_default(text, MG_CONFIG_SECTION_ETHERNET, "mode", "off", &error);
	g_auto(MgConfig) config = { 0 };

	g_assert_no_error(error);
	g_assert_nonnull(strstr(out, "# kept\n"));
	g_assert_nonnull(strstr(out, "# also kept\nrotate=weekly\n"));
	g_assert_nonnull(strstr(out, "[ethernet]\nmode=off\n"));
	mg_config_init_default(&config);
	g_assert_true(mg_config_load_from_data(&config, out, strlen(out), NULL));
	g_assert_cmpint(config.ethernet.mode, ==, MG_MODE_OFF);
	g_assert_cmpuint(config.probe_window_ms, ==, 300);
}

static void
test_edit_back_to_default(void)
{
	g_autofree char *out = mg_config_edit_default(
	    "[wifi]\nrotate=weekly\nmode=off\n", MG_CONFIG_SECTION_WIFI, "rotate", NULL, NULL);
	g_autofree char *none =
	    mg_config_edit_default(NULL, MG_CONFIG_SECTION_AP, "rotate", NULL, NULL);

	g_assert_cmpstr(out, ==, "[wifi]\nmode=off\n");
	g_assert_cmpstr(none, ==, "");
}

static void
test_edit_refuses(void)
{
	static const struct {
		const char *text;
		MgConfigSection section;
		const char *key, *value;
	} bad[] = {
		{ NULL, MG_CONFIG_SECTION_WIFI, "rotate", "fortnightly" },
		{ NULL, MG_CONFIG_SECTION_WIFI, "colour", "red" },
		{ NULL, MG_CONFIG_SECTION_WIFI, "quiet-hours", "03:00-05:00" },
		{ "[wifi]\nrotate=sometimes\n", MG_CONFIG_SECTION_WIFI, "mode", "of" },
		{ "not a key file\n", MG_CONFIG_SECTION_ETHERNET, "mode", "off" },
		{ NULL, MG_CONFIG_SECTION_ETHERNET_SHARED, "quiet-hours", "03:00-05:00" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		g_autofree char *out = mg_config_edit_default(
		    bad[i].text, bad[i].section, bad[i].key, bad[i].value, &error);
		g_assert_null(out);
		g_assert_error(error, MG_ERROR, MG_ERROR_CONFIG);
	}
}

/* A bad line the edit does not touch stays as it was (it costs only itself,
 * and is not the edit's to drop); the edit that mends it is taken. */
static void
test_edit_leaves_an_untouched_bad_line(void)
{
	static const char bad[] = "[wifi]\nrotate=sometimes\n";
	g_autoptr(GError) error = NULL;
	g_autofree char *other =
	    mg_config_edit_default(bad, MG_CONFIG_SECTION_ETHERNET, "mode", "off", &error);
	g_autofree char *mended = NULL;

	g_assert_no_error(error);
	g_assert_nonnull(strstr(other, "rotate=sometimes"));
	g_assert_nonnull(strstr(other, "[ethernet]\nmode=off"));
	mended = mg_config_edit_default(other, MG_CONFIG_SECTION_WIFI, "rotate", "weekly", &error);
	g_assert_no_error(error);
	g_assert_null(strstr(mended, "sometimes"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/config-edit/keeps-the-rest", test_edit_keeps_the_rest);
	g_test_add_func("/config-edit/back-to-default", test_edit_back_to_default);
	g_test_add_func("/config-edit/refuses", test_edit_refuses);
	g_test_add_func("/config-edit/leaves-an-untouched-bad-line",
			test_edit_leaves_an_untouched_bad_line);
	return g_test_run();
}
