/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer: the dispatcher's environment as the pre-up hook reads it. The
 * input is NUL-separated: IFACE, ACTION, then NAME=VALUE entries. */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-hook-env.h"
#include "mg-paths.h"
#include "mg-state.h"

int LLVMFuzzerTestOneInput(const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput(const guint8 *data, size_t size)
{
	g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) env = g_ptr_array_new();
	const char *argv[3] = { "hook", NULL, NULL };
	int argc = 1;
	MgHookRequest r;
	gsize start = 0;

	for (gsize i = 0; i <= size; i++) {
		if (i == size || data[i] == '\0') {
			g_ptr_array_add(items, g_strndup((const char *)data + start, i - start));
			start = i + 1;
		}
	}
	for (guint i = 0; i < items->len; i++) {
		if (i < 2)
			argv[argc++] = g_ptr_array_index(items, i);
		else
			g_ptr_array_add(env, g_ptr_array_index(items, i));
	}
	g_ptr_array_add(env, NULL);
	if (mg_hook_request_parse(&r, argc, argv, (const char *const *)env->pdata, NULL) &&
	    mg_hook_request_wants_check(&r)) {
		/* What it hands on is checked. */
		g_assert_true(mg_iface_name_is_valid(r.iface));
		g_assert_true(r.uuid == NULL || mg_uuid_is_valid(r.uuid));
		g_assert_cmpuint(r.n_ipv4, <=, MG_PROBE_MAX_IPV4);
	}
	mg_hook_request_clear(&r);
	return 0;
}
