/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Following NetworkManager: libnm's events as decisions (mg-service-follow.c). */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* nm_client_new_async()'s callback; @user_data: the MgService (a reference,
 * taken). */
void mg_service_client_ready(GObject *source, GAsyncResult *result, gpointer user_data);

G_END_DECLS
