/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile given a new address forgets NetworkManager's leases for it,
 * and only those. */
#include <glib/gstdio.h>

#include "mg-nm-leases.h"

#define UUID "0b2e4ef4-8b1d-4a4c-9c43-3f4d2c1e0a99"

static void
touch(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_assert_true(g_file_set_contents(path, "ADDRESS=10.88.1.48\n", -1, NULL));
}

static gboolean
exists(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	return g_file_test(path, G_FILE_TEST_EXISTS);
}

static void
test_only_the_profiles_leases_go(void)
{
	g_autofree char *dir = g_dir_make_tmp("mg-leases-XXXXXX", NULL);
	const char *theirs[] = {
		"internal-" UUID "-eth0.lease",
		"internal-" UUID "-wlp2s0.lease",
		"dhclient-" UUID "-eth0.lease",
		"dhclient6-" UUID "-eth0.lease",
	};
	const char *kept[] = {
		"internal-5d7e2c1a-0f7b-4c55-9a0e-2b1c3d4e5f60-eth0.lease", /* another profile */
		"internal-" UUID "0-eth0.lease",                            /* a longer UUID */
		"internal-" UUID "-.lease",                                 /* no interface */
		"internal-" UUID "-eth0.lease~",                            /* not a lease */
		"seen-bssids",
		"timestamps",
	};

	for (gsize i = 0; i < G_N_ELEMENTS(theirs); i++)
		touch(dir, theirs[i]);
	for (gsize i = 0; i < G_N_ELEMENTS(kept); i++)
		touch(dir, kept[i]);
	g_assert_cmpuint(mg_nm_forget_leases(dir, UUID, "test"), ==, G_N_ELEMENTS(theirs));
	for (gsize i = 0; i < G_N_ELEMENTS(theirs); i++)
		g_assert_false(exists(dir, theirs[i]));
	for (gsize i = 0; i < G_N_ELEMENTS(kept); i++) {
		g_autofree char *path = g_build_filename(dir, kept[i], NULL);
		g_assert_true(exists(dir, kept[i]));
		g_unlink(path);
	}
	g_rmdir(dir);
}

static void
test_odd_input_removes_nothing(void)
{
	g_autofree char *dir = g_dir_make_tmp("mg-leases-XXXXXX", NULL);
	g_autofree char *missing = g_build_filename(dir, "missing", NULL);
	g_autofree char *path = NULL;

	touch(dir, "internal-..-eth0.lease");
	/* not a UUID: a path or a pattern never reaches the directory */
	g_assert_cmpuint(mg_nm_forget_leases(dir, "../x", "test"), ==, 0);
	g_assert_cmpuint(mg_nm_forget_leases(dir, "", "test"), ==, 0);
	g_assert_cmpuint(mg_nm_forget_leases(dir, NULL, "test"), ==, 0);
	g_assert_true(exists(dir, "internal-..-eth0.lease"));
	/* no state directory yet (NetworkManager never ran): nothing to forget */
	g_assert_cmpuint(mg_nm_forget_leases(missing, UUID, "test"), ==, 0);
	path = g_build_filename(dir, "internal-..-eth0.lease", NULL);
	g_unlink(path);
	g_rmdir(dir);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/nm-leases/only-the-profiles-leases-go", test_only_the_profiles_leases_go);
	g_test_add_func("/nm-leases/odd-input-removes-nothing", test_odd_input_removes_nothing);
	return g_test_run();
}
