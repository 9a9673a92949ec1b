/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer: profile user data (one key=value a line) and macguise.conf. */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-config.h"
#include "mg-policy.h"

int LLVMFuzzerTestOneInput(const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput(const guint8 *data, size_t size)
{
	g_autofree char *text = g_strndup((const char *)data, size);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	MgPolicy policy;
	MgConfig config;

	mg_policy_init_default(&policy);
	for (guint i = 0; lines[i] != NULL; i++) {
		char *eq = strchr(lines[i], '=');
		gboolean handled;
		if (eq == NULL)
			continue;
		*eq = '\0';
		if (mg_policy_set_user_data(&policy, lines[i], eq + 1, &handled, NULL) && handled) {
			/* Whatever was accepted reads back as text that is accepted again. */
			const char *name = lines[i] + strlen(MG_POLICY_KEY_PREFIX);
			g_autofree char *canonical = mg_policy_get(&policy, name);
			g_assert_nonnull(canonical);
			g_assert_true(mg_policy_set(&policy, name, canonical, NULL));
		}
	}
	mg_policy_clear(&policy);

	mg_config_init_default(&config);
	mg_config_load_from_data(&config, (const char *)data, size, NULL);
	mg_config_clear(&config);
	return 0;
}
