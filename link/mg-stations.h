/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How many stations are associated with the access point on @ifindex,
 * from the kernel's nl80211 station list. FALSE with @error where it
 * cannot be told (no nl80211, not a Wi-Fi interface, no permission):
 * callers must then assume clients are there. */
gboolean mg_stations_count(int ifindex, guint *count, GError **error);

G_END_DECLS
