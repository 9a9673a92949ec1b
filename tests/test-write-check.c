/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How a write makes sure it writes onto the profile as it is now
 * (mg-write-check.h). One small key file per case under write-check/: the
 * write's inputs, and what it reads first, after its round trip, does with
 * the copy it read, or does when NetworkManager refuses it. */
#include "config.h"

#include <glib.h>

#include "mg-test-case.h"
#include "mg-write-check.h"

/* @key of [expect] against @got, if the case expects it. */
static void
mg_case_expect(GKeyFile *kf, const char *key, const char *got, guint *checked)
{
	g_autofree char *want = mg_case_get(kf, "expect", key, NULL);

	if (want == NULL)
		return;
	g_assert_cmpstr(got, ==, want);
	(*checked)++;
}

static void
test_write_check_case(gconstpointer data)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *version = NULL;
	g_autofree char *decided = NULL;
	g_autofree char *current = NULL;
	g_autofree char *libnm = NULL;
	g_auto(GStrv) expected = NULL;
	gboolean known, unfetched;
	guint checked = 0;

	g_assert_true(g_key_file_load_from_file(kf, data, G_KEY_FILE_NONE, &error));
	g_assert_no_error(error);
	version = mg_case_get(kf, "input", "nm-version", NULL);
	known = mg_case_get_bool(kf, "input", "libnm-has-profile");
	unfetched = mg_case_get_bool(kf, "input", "changed-unfetched");
	decided = mg_case_get(kf, "input", "decided", "");
	current = mg_case_get(kf, "input", "current", "");
	libnm = mg_case_get(kf, "input", "libnm", NULL);

	mg_case_expect(kf,
		       "read-first",
		       mg_write_read_to_string(mg_write_read_first(version, known)),
		       &checked);
	mg_case_expect(kf,
		       "read-after-round-trip",
		       mg_write_read_to_string(mg_write_read_after_round_trip(known, unfetched)),
		       &checked);
	mg_case_expect(kf,
		       "copy",
		       mg_write_verdict_to_string(mg_write_check_copy(decided, current, libnm)),
		       &checked);
	mg_case_expect(kf,
		       "refused",
		       mg_write_verdict_to_string(mg_write_after_refusal(known, unfetched)),
		       &checked);
	/* every expectation is one the test knows, and there is one */
	expected = g_key_file_get_keys(kf, "expect", NULL, NULL);
	g_assert_nonnull(expected);
	g_assert_cmpuint(checked, ==, g_strv_length(expected));
	g_assert_cmpuint(checked, >, 0);
}

/* The VersionId is counted on from 1.44 only, whatever the version's form. */
static void
test_version_ids_from_1_44(void)
{
	g_assert_false(mg_write_nm_checks_version_ids(NULL));
	g_assert_false(mg_write_nm_checks_version_ids(""));
	g_assert_false(mg_write_nm_checks_version_ids("1"));
	g_assert_false(mg_write_nm_checks_version_ids("1.43.90"));
	g_assert_false(mg_write_nm_checks_version_ids("0.99.0"));
	g_assert_true(mg_write_nm_checks_version_ids("1.44"));
	g_assert_true(mg_write_nm_checks_version_ids("1.44.0-rc1"));
	g_assert_true(mg_write_nm_checks_version_ids("1.100.0"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mg_case_add_all("write-check", test_write_check_case);
	g_test_add_func("/write-check/version-ids-from-1.44", test_version_ids_from_1_44);
	return g_test_run();
}
