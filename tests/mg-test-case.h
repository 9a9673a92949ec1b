/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <string.h>

#include "mg-policy.h"
#include "mg-schedule.h"

/* Reading the decision case files (tests/schedule/, tests/reconcile/):
 * small key files whose every line reads as the spec. */

static inline char *
mg_case_get(GKeyFile *kf, const char *group, const char *key, const char *fallback)
{
	char *v = g_key_file_get_value(kf, group, key, NULL);
	return v != NULL ? v : g_strdup(fallback);
}

static inline gint64
mg_case_get_int(GKeyFile *kf, const char *group, const char *key, const char *fallback)
{
	g_autofree char *v = mg_case_get(kf, group, key, fallback);
	gint64 n;
	g_assert_true(g_ascii_string_to_signed(v, 10, -1, G_MAXINT64, &n, NULL));
	return n;
}

static inline gboolean
mg_case_get_bool(GKeyFile *kf, const char *group, const char *key)
{
	g_autofree char *v = mg_case_get(kf, group, key, "false");
	g_assert_true(g_str_equal(v, "true") || g_str_equal(v, "false"));
	return g_str_equal(v, "true");
}

/* [policy]: macguise.* keys over the defaults. */
static inline void
mg_case_policy(GKeyFile *kf, MgPolicy *policy)
{
	g_auto(GStrv) keys = g_key_file_get_keys(kf, "policy", NULL, NULL);
	mg_policy_init_default(policy);
	for (guint i = 0; keys != NULL && keys[i] != NULL; i++) {
		g_autofree char *v = mg_case_get(kf, "policy", keys[i], NULL);
		g_autoptr(GError) error = NULL;
		g_assert_true(mg_policy_set(policy, keys[i], v, &error));
	}
}

/* [state] and the quiet-hours inputs; @boot_id keeps the string alive. */
static inline void
mg_case_schedule_state(GKeyFile *kf, MgScheduleState *st, char **boot_id)
{
	g_autofree char *minute = mg_case_get(kf, "input", "local-minute", "-1");
	gint64 m;

	memset(st, 0, sizeof(*st));
	if (g_key_file_has_group(kf, "state")) {
		st->has_address = TRUE;
		st->assigned_at = mg_case_get_int(kf, "state", "assigned-at", "0");
		st->due_at = mg_case_get_int(kf, "state", "due-at", "0");
		st->used = mg_case_get_bool(kf, "state", "used");
		st->pending = mg_case_get_bool(kf, "state", "pending");
		*boot_id = mg_case_get(kf, "state", "boot-id", "b1");
		st->boot_id = *boot_id;
	}
	g_assert_true(g_ascii_string_to_signed(minute, 10, -1, 24 * 60 - 1, &m, NULL));
	st->local_minute = (int)m;
	st->idle = mg_case_get_bool(kf, "input", "idle");
}

/* Every *.case file under @folder (in the source tree) as a test. */
static inline void
mg_case_add_all(const char *folder, GTestDataFunc func)
{
	g_autofree char *cases = g_test_build_filename(G_TEST_DIST, folder, NULL);
	g_autoptr(GDir) dir = g_dir_open(cases, 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	g_assert_nonnull(dir);
	while ((name = g_dir_read_name(dir)) != NULL) {
		if (g_str_has_suffix(name, ".case"))
			g_ptr_array_add(names, g_strdup(name));
	}
	g_assert_cmpuint(names->len, >, 0);
	for (guint i = 0; i < names->len; i++) {
		const char *n = g_ptr_array_index(names, i);
		g_autofree char *test =
		    g_strdup_printf("/%s/case/%.*s", folder, (int)(strlen(n) - 5), n);
		g_test_add_data_func_full(test, g_build_filename(cases, n, NULL), func, g_free);
	}
}
