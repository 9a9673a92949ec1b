/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The link-check index macguised writes and the pre-up hook's front reads. */
#include <string.h>

#include "mg-link-check-index-write.h"

#define UUID_A "0b2e4ef4-8b1d-4a4c-9c43-3f4d2c1e0a99"
#define UUID_B "5d7e2c1a-0f7b-4c55-9a0e-2b1c3d4e5f60"
#define MAGIC MG_LINK_CHECK_INDEX_MAGIC "\n"

static MgLinkCheckIndexAnswer
answer(const char *data, const char *uuid)
{
	return mg_link_check_index_lookup(data, strlen(data), uuid);
}

static void
test_round_trip(void)
{
	g_autoptr(GPtrArray) uuids = g_ptr_array_new();
	g_autofree char *data = NULL;
	g_autofree char *none = NULL;
	g_autofree char *all = NULL;
	gsize len;

	g_ptr_array_add(uuids, (gpointer)UUID_A);
	g_ptr_array_add(uuids, (gpointer) "not a uuid\nall"); /* never written */
	data = mg_link_check_index_to_data(uuids, FALSE, &len);
	g_assert_cmpuint(len, ==, strlen(data));
	g_assert_cmpint(answer(data, UUID_A), ==, MG_LINK_CHECK_INDEX_SKIP);
	g_assert_cmpint(answer(data, UUID_B), ==, MG_LINK_CHECK_INDEX_CHECK);
	g_assert_null(strstr(data, "all"));

	none = mg_link_check_index_to_data(NULL, FALSE, &len);
	g_assert_cmpint(answer(none, UUID_A), ==, MG_LINK_CHECK_INDEX_CHECK);
	all = mg_link_check_index_to_data(uuids, TRUE, &len);
	g_assert_cmpint(answer(all, UUID_B), ==, MG_LINK_CHECK_INDEX_SKIP);
	g_assert_cmpint(answer(all, NULL), ==, MG_LINK_CHECK_INDEX_SKIP);

	/* pre-down asks which profiles macguise leaves alone: "all" is no answer */
	g_assert_cmpint(
	    mg_link_check_index_lists(all, strlen(all), UUID_B), ==, MG_LINK_CHECK_INDEX_CHECK);
	g_assert_cmpint(
	    mg_link_check_index_lists(data, strlen(data), UUID_A), ==, MG_LINK_CHECK_INDEX_SKIP);
	g_assert_cmpint(
	    mg_link_check_index_lists(data, strlen(data), UUID_B), ==, MG_LINK_CHECK_INDEX_CHECK);
}

static void
test_only_whole_lines_and_uuids_match(void)
{
	/* A prefix, a longer line, an empty name, a name that is no UUID. */
	g_assert_cmpint(answer(MAGIC UUID_A "\n", "0b2e4ef4"), ==, MG_LINK_CHECK_INDEX_CHECK);
	g_assert_cmpint(answer(MAGIC UUID_A "x\n", UUID_A), ==, MG_LINK_CHECK_INDEX_CHECK);
	g_assert_cmpint(answer(MAGIC "\n", ""), ==, MG_LINK_CHECK_INDEX_CHECK);
	g_assert_cmpint(answer(MAGIC "x\n", "x"), ==, MG_LINK_CHECK_INDEX_CHECK);
	g_assert_cmpint(answer(MAGIC "alls\n", UUID_A), ==, MG_LINK_CHECK_INDEX_CHECK);
}

static void
test_damaged_index_is_no_answer(void)
{
	static const char *const bad[] = {
		"",
		"not an index\n",
		MG_LINK_CHECK_INDEX_MAGIC,              /* no newline: cut short */
		MAGIC UUID_A,                           /* the last line cut */
		"# macguise link-check index 2\nall\n", /* another format */
		"[link-check]\nall=true\n",
	};
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++)
		g_assert_cmpint(answer(bad[i], UUID_A), ==, MG_LINK_CHECK_INDEX_MALFORMED);
	/* An embedded NUL. */
	{
		static const char nul[] = MAGIC "all\0\n";
		g_assert_cmpint(mg_link_check_index_lookup(nul, sizeof(nul) - 1, UUID_A),
				==,
				MG_LINK_CHECK_INDEX_MALFORMED);
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/link-check-index/round-trip", test_round_trip);
	g_test_add_func("/link-check-index/whole-lines", test_only_whole_lines_and_uuids_match);
	g_test_add_func("/link-check-index/damaged", test_damaged_index_is_no_answer);
	return g_test_run();
}
