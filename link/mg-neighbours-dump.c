/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test helper: one neighbour-table address a line, as macguised sees them. */
#include "config.h"

#include <gio/gio.h>

#include "mg-mac.h"
#include "mg-neighbours.h"

int
main(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) macs = mg_neighbours_read(&error);

	if (macs == NULL) {
		g_printerr("mg-neighbours-dump: %s\n", error->message);
		return 1;
	}
	for (guint i = 0; i < macs->len; i++) {
		char text[MG_MAC_STRLEN];
		mg_mac_format(&g_array_index(macs, MgMac, i), text);
		g_print("%s\n", text);
	}
	return 0;
}
