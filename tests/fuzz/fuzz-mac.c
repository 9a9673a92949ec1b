/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer: the MAC and registry-block parsers. */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-mac.h"

int LLVMFuzzerTestOneInput(const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput(const guint8 *data, size_t size)
{
	g_autofree char *text = g_strndup((const char *)data, size);
	MgMac mac;
	MgPrefix prefix;

	if (mg_mac_parse(text, &mac, NULL)) {
		char buf[MG_MAC_STRLEN];
		MgMac again;
		/* What is parsed formats to text that parses to the same address. */
		mg_mac_format(&mac, buf);
		g_assert_true(mg_mac_parse(buf, &again, NULL));
		g_assert_true(mg_mac_equal(&mac, &again));
	}
	if (mg_prefix_parse(text, &prefix, NULL)) {
		g_autofree char *back = mg_prefix_to_string(&prefix);
		g_autofree char *display = mg_prefix_to_display(&prefix);
		g_assert_cmpint(g_ascii_strcasecmp(back, text), ==, 0);
		g_assert_nonnull(display);
	}
	return 0;
}
