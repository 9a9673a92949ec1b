/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mg-config.h"
#include "mg-error.h"
#include "mg-policy.h"

typedef struct {
	const char *name;
	const char *value;
	const char *canonical; /* what mg_policy_get gives back; NULL: refused */
} MgPolicyCase;

static const MgPolicyCase policy_cases[] = {
	{ "mode", "off", "off" },
	{ "mode", "plausible", "plausible" },
	{ "mode", "keep-vendor", "keep-vendor" },
	{ "mode", "random", NULL },
	{ "mode", "Plausible", NULL },
	{ "mode", "", NULL },
	{ "rotate", "never", "never" },
	{ "rotate", "activation", "activation" },
	{ "rotate", "boot", "boot" },
	{ "rotate", "daily", "daily" },
	{ "rotate", "weekly", "weekly" },
	{ "rotate", "24h", "daily" },
	{ "rotate", "36h", "36h" },
	{ "rotate", "3d", "3d" },
	{ "rotate", "2w", "2w" },
	{ "rotate", "90m", "90m" },
	{ "rotate", "60m", "1h" },
	{ "rotate", "366d", "366d" },
	{ "rotate", "367d", NULL },
	{ "rotate", "59m", NULL },
	{ "rotate", "0h", NULL },
	{ "rotate", "-3d", NULL },
	{ "rotate", "+3d", NULL },
	{ "rotate", "3", NULL },
	{ "rotate", "3 d", NULL },
	{ "rotate", "3D", NULL },
	{ "rotate", "d", NULL },
	{ "rotate", "99999999999999999999h", NULL },
	{ "rotate", "hourly", NULL },
	{ "class", "auto", "auto" },
	{ "class", "wifi", "wifi" },
	{ "class", "ethernet", "ethernet" },
	{ "class", "ap", "ap" },
	{ "class", "bluetooth", NULL },
	{ "quiet-hours", "none", "none" },
	{ "quiet-hours", "03:00-05:00", "03:00-05:00" },
	{ "quiet-hours", "23:30-01:15", "23:30-01:15" },
	{ "quiet-hours", "00:00-23:59", "00:00-23:59" },
	{ "quiet-hours", "3:00-5:00", NULL },
	{ "quiet-hours", "03:00-03:00", NULL },
	{ "quiet-hours", "24:00-01:00", NULL },
	{ "quiet-hours", "03:60-05:00", NULL },
	{ "quiet-hours", "03:00", NULL },
	{ "quiet-hours", "03:00-05:00-07:00", NULL },
	{ "quiet-hours", "-03:00-05:00", NULL },
	{ "quiet-hours", "+3:00-05:00", NULL },
	{ "quiet-hours", "night", NULL },
	{ "vendors", "any", "any" },
	{ "vendors", "intel", "intel" },
	{ "vendors", "intel, Hon Hai (Foxconn) ,realtek", "intel,Hon Hai (Foxconn),realtek" },
	{ "vendors", "intel,,realtek", NULL },
	{ "vendors", ",", NULL },
	{ "vendors", "", NULL },
	{ "harden", "yes", "yes" },
	{ "harden", "no", "no" },
	{ "harden", "true", "yes" },
	{ "harden", "false", "no" },
	{ "harden", "maybe", NULL },
	{ "harden", "\xff", NULL },
};

static void
test_policy_values(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(policy_cases); i++) {
		const MgPolicyCase *c = &policy_cases[i];
		g_autoptr(GError) error = NULL;
		g_autofree char *before = NULL;
		g_autofree char *after = NULL;
		MgPolicy p;

		mg_policy_init_default(&p);
		before = mg_policy_get(&p, c->name);
		if (c->canonical == NULL) {
			if (mg_policy_set(&p, c->name, c->value, &error))
				g_error("case %u (%s=%s) was accepted", i, c->name, c->value);
			g_assert_error(error, MG_ERROR, MG_ERROR_POLICY);
			/* The error names the key and says what is allowed. */
			g_assert_nonnull(strstr(error->message, c->name));
			g_assert_nonnull(strstr(error->message, "expected"));
			after = mg_policy_get(&p, c->name);
			g_assert_cmpstr(before, ==, after); /* unchanged */
		} else {
			if (!mg_policy_set(&p, c->name, c->value, &error))
				g_error(
				    "case %u (%s=%s): %s", i, c->name, c->value, error->message);
			after = mg_policy_get(&p, c->name);
			g_assert_cmpstr(after, ==, c->canonical);
		}
		mg_policy_clear(&p);
	}
}

static void
test_policy_user_data(void)
{
	g_autoptr(GError) error = NULL;
	gboolean handled = TRUE;
	MgPolicy p;

	mg_policy_init_default(&p);
	/* Other tools' keys are theirs. */
	g_assert_true(mg_policy_set_user_data(&p, "org.example.thing", "x", &handled, &error));
	g_assert_false(handled);
	g_assert_true(
	    mg_policy_set_user_data(&p, "macguise.rotate", "activation", &handled, &error));
	g_assert_true(handled);
	g_assert_cmpint(p.rotate, ==, MG_ROTATE_ACTIVATION);
	/* An unknown macguise key is an error that names it, never ignored. */
	g_assert_false(mg_policy_set_user_data(&p, "macguise.colour", "blue", &handled, &error));
	g_assert_true(handled);
	g_assert_error(error, MG_ERROR, MG_ERROR_POLICY);
	g_assert_nonnull(strstr(error->message, "macguise.colour"));
	mg_policy_clear(&p);
}

static void
test_policy_names_roundtrip(void)
{
	const char *const *names = mg_policy_names();
	MgPolicy p, q;

	mg_policy_init_default(&p);
	g_assert_true(mg_policy_set(&p, "vendors", "intel,realtek", NULL));
	g_assert_true(mg_policy_set(&p, "rotate", "36h", NULL));
	g_assert_true(mg_policy_set(&p, "class", "ethernet", NULL));
	mg_policy_init_default(&q);
	/* What get prints, set accepts, and gives the same policy. */
	for (guint i = 0; names[i] != NULL; i++) {
		g_autofree char *v = mg_policy_get(&p, names[i]);
		g_autofree char *w = NULL;
		g_assert_true(mg_policy_set(&q, names[i], v, NULL));
		w = mg_policy_get(&q, names[i]);
		g_assert_cmpstr(v, ==, w);
	}
	g_assert_cmpint(q.interval, ==, 36 * 3600);
	mg_policy_clear(&p);
	mg_policy_clear(&q);
}

static void
test_policy_check_vendors(void)
{
	static const char table[] =
	    "vendor acme\n  name Acme Wireless\n  organization A\n  classes wifi\n"
	    "  weight wifi 1 ieee-blocks\n  products p\n  prefix 8CF8C5 registered=2020-01-01\n";
	g_autoptr(MgCatalogue) cat = mg_catalogue_new_from_data(table, strlen(table), NULL);
	g_autoptr(GError) error = NULL;
	MgPolicy p;

	mg_policy_init_default(&p);
	g_assert_true(mg_policy_check_vendors(&p, cat, NULL)); /* any */
	g_assert_true(mg_policy_set(&p, "vendors", "acme,Acme Wireless", NULL));
	g_assert_true(mg_policy_check_vendors(&p, cat, NULL));
	g_assert_true(mg_policy_set(&p, "vendors", "acme,nobody", NULL));
	g_assert_false(mg_policy_check_vendors(&p, cat, &error));
	g_assert_nonnull(strstr(error->message, "'nobody'"));
	mg_policy_clear(&p);
}

static void
test_config_defaults(void)
{
	MgConfig c;

	mg_config_init_default(&c);
	g_assert_cmpint(c.wifi.mode, ==, MG_MODE_PLAUSIBLE);
	g_assert_cmpint(c.wifi.interval, ==, 86400);
	g_assert_cmpint(c.ethernet.interval, ==, 7 * 86400);
	g_assert_true(c.wifi.harden && c.ethernet.harden);
	g_assert_cmpuint(c.probe_window_ms, ==, 200);
	g_assert_cmpuint(c.conflict_max_attempts, ==, 3);
	g_assert_cmpint(c.probes, ==, MG_PROBE_ALL);
	g_assert_true(mg_config_policy_for(&c, MG_DEVICE_CLASS_WIFI) == &c.wifi);
	g_assert_true(mg_config_policy_for(&c, MG_DEVICE_CLASS_ETHERNET) == &c.ethernet);
	/* Hotspots: daily, and no quiet hours unless asked: a due rotation
	 * waits for the hotspot to go down. */
	g_assert_true(mg_config_policy_for(&c, MG_DEVICE_CLASS_AP) == &c.ap);
	g_assert_cmpint(c.ap.interval, ==, 86400);
	g_assert_cmpint(c.ap.quiet_start, ==, -1);
	mg_config_clear(&c);
}

static void
test_policy_quiet_hours(void)
{
	MgPolicy p;

	mg_policy_init_default(&p);
	g_assert_false(mg_policy_in_quiet_hours(&p, 200));
	g_assert_true(mg_policy_set(&p, "quiet-hours", "03:00-05:00", NULL));
	g_assert_false(mg_policy_in_quiet_hours(&p, 179));
	g_assert_true(mg_policy_in_quiet_hours(&p, 180));
	g_assert_true(mg_policy_in_quiet_hours(&p, 299));
	g_assert_false(mg_policy_in_quiet_hours(&p, 300));
	g_assert_false(mg_policy_in_quiet_hours(&p, -1));
	g_assert_true(mg_policy_set(&p, "quiet-hours", "23:00-01:00", NULL));
	g_assert_true(mg_policy_in_quiet_hours(&p, 23 * 60));
	g_assert_true(mg_policy_in_quiet_hours(&p, 0));
	g_assert_true(mg_policy_in_quiet_hours(&p, 59));
	g_assert_false(mg_policy_in_quiet_hours(&p, 60));
	g_assert_false(mg_policy_in_quiet_hours(&p, 22 * 60 + 59));
	mg_policy_clear(&p);
}

static void
test_config_shipped_file(void)
{
	g_autofree char *path =
	    g_test_build_filename(G_TEST_DIST, "..", "data", "macguise.conf", NULL);
	g_autoptr(GError) error = NULL;
	MgConfig shipped, defaults;

	/* The commented default file parses and says what the code defaults to. */
	mg_config_init_default(&shipped);
	mg_config_init_default(&defaults);
	g_assert_true(g_file_test(path, G_FILE_TEST_EXISTS));
	{
		g_autoptr(GPtrArray) problems = mg_config_problems_new();
		mg_config_load_files(&shipped, path, problems);
		g_assert_cmpuint(problems->len, ==, 0);
	}
	mg_config_clear(&shipped);

	/* With every "#key=value" line taken at its word, it still gives the
	 * built-in defaults: the file says what the code does. */
	{
		g_autofree char *text = NULL;
		g_auto(GStrv) lines = NULL;
		GString *live = g_string_new(NULL);
		g_autofree char *live_text = NULL;
		const MgDeviceClass classes[] = { MG_DEVICE_CLASS_WIFI,
						  MG_DEVICE_CLASS_ETHERNET,
						  MG_DEVICE_CLASS_AP };
		guint taken = 0;

		g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
		lines = g_strsplit(text, "\n", -1);
		for (guint i = 0; lines[i] != NULL; i++) {
			const char *l = lines[i];
			if (l[0] == '#' && g_ascii_islower(l[1]) && strchr(l, '=') != NULL &&
			    strchr(l, ' ') == NULL) {
				g_string_append_printf(live, "%s\n", l + 1);
				taken++;
			} else {
				g_string_append_printf(live, "%s\n", l);
			}
		}
		live_text = g_string_free(live, FALSE);
		g_assert_cmpuint(taken, >=, 20);
		mg_config_init_default(&shipped);
		g_assert_true(
		    mg_config_load_from_data(&shipped, live_text, strlen(live_text), &error));
		g_assert_no_error(error);
		g_assert_cmpuint(shipped.probe_window_ms, ==, defaults.probe_window_ms);
		g_assert_cmpint(shipped.probes, ==, defaults.probes);
		g_assert_cmpuint(shipped.conflict_max_attempts, ==, defaults.conflict_max_attempts);
		g_assert_cmpuint(shipped.history_max_entries, ==, defaults.history_max_entries);
		g_assert_cmpint(shipped.history_max_age, ==, defaults.history_max_age);
		for (guint c = 0; c < G_N_ELEMENTS(classes); c++) {
			const char *const *names = mg_policy_names();
			for (guint i = 0; names[i] != NULL; i++) {
				g_autofree char *a = mg_policy_get(
				    mg_config_policy_for(&shipped, classes[c]), names[i]);
				g_autofree char *b = mg_policy_get(
				    mg_config_policy_for(&defaults, classes[c]), names[i]);
				g_assert_cmpstr(a, ==, b);
			}
		}
		mg_config_clear(&shipped);
	}
	mg_config_clear(&defaults);
}

static void
test_config_merge(void)
{
	static const char text[] =
	    "# comment\n[global]\nprobe-window-ms=300\nhistory-max-entries=50\n"
	    "history-max-age=30d\nconflict-max-attempts=5\nprobes= arp , ipv6\n"
	    "[wifi]\nrotate=activation\nvendors=intel\n"
	    "[ethernet]\nmode=keep-vendor\nharden=no\n";
	g_autoptr(GError) error = NULL;
	MgConfig c;
	MgPolicy profile;

	mg_config_init_default(&c);
	g_assert_true(mg_config_load_from_data(&c, text, strlen(text), &error));
	g_assert_no_error(error);
	g_assert_cmpuint(c.probe_window_ms, ==, 300);
	g_assert_cmpuint(c.history_max_entries, ==, 50);
	g_assert_cmpint(c.history_max_age, ==, 30 * 86400);
	g_assert_cmpuint(c.conflict_max_attempts, ==, 5);
	g_assert_cmpint(c.probes, ==, MG_PROBE_ARP | MG_PROBE_IPV6);
	g_assert_cmpint(c.wifi.rotate, ==, MG_ROTATE_ACTIVATION);
	g_assert_cmpstr(c.wifi.vendors[0], ==, "intel");
	g_assert_cmpint(c.wifi.mode, ==, MG_MODE_PLAUSIBLE); /* not set: default */
	g_assert_cmpint(c.ethernet.mode, ==, MG_MODE_KEEP_VENDOR);
	g_assert_false(c.ethernet.harden);
	g_assert_cmpint(c.ethernet.interval, ==, 7 * 86400);

	/* A profile's own values override the defaults, key by key. */
	mg_policy_copy(&profile, mg_config_policy_for(&c, MG_DEVICE_CLASS_WIFI));
	g_assert_true(mg_policy_set(&profile, "rotate", "weekly", NULL));
	g_assert_cmpint(profile.rotate, ==, MG_ROTATE_INTERVAL);
	g_assert_cmpstr(profile.vendors[0], ==, "intel");
	g_assert_cmpint(c.wifi.rotate, ==, MG_ROTATE_ACTIVATION); /* a copy */
	mg_policy_clear(&profile);
	mg_config_clear(&c);
}

static const struct {
	const char *text;
	const char *message;
} bad_configs[] = {
	{ "[global]\nprobe-window-ms=fast\n",
	  "[global] probe-window-ms: 'fast' is not a whole number" },
	{ "[global]\nprobe-window-ms=6000\n", "from 0 to 5000" },
	{ "[global]\nconflict-max-attempts=0\n", "conflict-max-attempts" },
	{ "[global]\nprobes=arp;ping\n", "[global] probes: 'ping' is not a probe" },
	{ "[global]\nprobes=;\n", "[global] probes: no probe named" },
	{ "[global]\nhistory-max-entries=-1\n", "history-max-entries" },
	{ "[global]\nhistory-max-age=1h\n", "[global] history-max-age" },
	{ "[global]\nprobe=1\n", "[global] probe is not a setting" },
	{ "[wifi]\nrotate=sometimes\n", "[wifi] macguise.rotate: 'sometimes'" },
	{ "[ethernet]\ncolour=blue\n", "[ethernet] macguise.colour is not a macguise setting" },
	{ "[bluetooth]\nmode=off\n", "[bluetooth] is not a section" },
	{ "[wifi]\nquiet-hours=03:00-05:00\n", "[wifi] quiet-hours: only access points" },
	{ "[ap]\nquiet-hours=3am\n", "[ap] macguise.quiet-hours: '3am'" },
	{ "mode=off\n", "not a valid key file" },
	{ "[wifi\n", "not a valid key file" },
};

static void
test_config_bad(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(bad_configs); i++) {
		g_autoptr(GError) error = NULL;
		MgConfig c;

		mg_config_init_default(&c);
		c.probe_window_ms = 123;
		g_assert_false(mg_config_load_from_data(
		    &c, bad_configs[i].text, strlen(bad_configs[i].text), &error));
		g_assert_nonnull(error);
		if (strstr(error->message, bad_configs[i].message) == NULL)
			g_error(
			    "case %u: '%s' lacks '%s'", i, error->message, bad_configs[i].message);
		/* A bad file changes nothing. */
		g_assert_cmpuint(c.probe_window_ms, ==, 123);
		mg_config_clear(&c);
	}
}

static void
test_config_paths(void)
{
	g_autofree char *dir = g_dir_make_tmp("mg-config-XXXXXX", NULL);
	g_autofree char *missing = g_build_filename(dir, "macguise.conf", NULL);
	g_autofree char *p1 = NULL;
	g_autofree char *p2 = NULL;
	g_autoptr(GPtrArray) problems = mg_config_problems_new();
	MgConfig c;

	/* No file: the defaults, no problem. A directory in its place: one. */
	mg_config_init_default(&c);
	mg_config_load_files(&c, missing, problems);
	g_assert_cmpuint(problems->len, ==, 0);
	g_assert_cmpint(g_mkdir(missing, 0700), ==, 0);
	mg_config_load_files(&c, missing, problems);
	g_assert_cmpuint(problems->len, ==, 1);
	g_rmdir(missing);
	g_rmdir(dir);
	mg_config_clear(&c);

	g_setenv("CONFIGURATION_DIRECTORY", "/run/x:/run/y", TRUE);
	p1 = mg_config_default_path();
	g_assert_cmpstr(p1, ==, "/run/x/macguise.conf");
	g_unsetenv("CONFIGURATION_DIRECTORY");
	p2 = mg_config_default_path();
	g_assert_cmpstr(p2, ==, "/etc/macguise/macguise.conf");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/policy/values", test_policy_values);
	g_test_add_func("/policy/user-data", test_policy_user_data);
	g_test_add_func("/policy/names-roundtrip", test_policy_names_roundtrip);
	g_test_add_func("/policy/check-vendors", test_policy_check_vendors);
	g_test_add_func("/config/defaults", test_config_defaults);
	g_test_add_func("/policy/quiet-hours", test_policy_quiet_hours);
	g_test_add_func("/config/shipped-file", test_config_shipped_file);
	g_test_add_func("/config/merge", test_config_merge);
	g_test_add_func("/config/bad", test_config_bad);
	g_test_add_func("/config/paths", test_config_paths);
	return g_test_run();
}
