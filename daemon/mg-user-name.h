/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A user's name by uid, looked up off the main loop: with a directory
 * service (LDAP, SSSD) the lookup can take as long as the service does, and
 * macguised must not stop answering meanwhile. The lookup runs in a thread;
 * @callback gets the name (or NULL: no such user, or none could be read). */
void mg_user_name_lookup_async(guint32 uid, GAsyncReadyCallback callback, gpointer user_data);
char *mg_user_name_lookup_finish(GAsyncResult *result);

G_END_DECLS
