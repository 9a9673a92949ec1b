/* SPDX-License-Identifier: GPL-3.0-or-later */
/* When the pre-down step has waited long enough for the kernel's MLDv2
 * leave reports. One small key file per case under mld-drain/. */
#include "config.h"

#include <glib.h>

#include "mg-mld-drain.h"
#include "mg-test-case.h"

static const char *const mg_steps[] = { "wait", "done", "nothing-sent", "timeout" };

static void
test_mld_drain_case(gconstpointer data)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *want = NULL;
	MgMldDrainStep step;

	g_assert_true(g_key_file_load_from_file(kf, data, G_KEY_FILE_NONE, &error));
	g_assert_no_error(error);
	step = mg_mld_drain_step((long)mg_case_get_int(kf, "input", "elapsed-ms", "0"),
				 (unsigned)mg_case_get_int(kf, "input", "sent", "0"),
				 (long)mg_case_get_int(kf, "input", "quiet-ms", "0"),
				 (unsigned)mg_case_get_int(kf, "input", "qrv", "2"));
	want = mg_case_get(kf, "expect", "step", "");
	g_assert_cmpstr(mg_steps[step], ==, want);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mg_case_add_all("mld-drain", test_mld_drain_case);
	return g_test_run();
}
