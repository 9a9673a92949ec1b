/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Following NetworkManager: libnm's events as decisions (mg-service-follow.c).
 * The follower keeps what following needs of its own: whether the
 * activations found at start are known, the signals it listens to, the removals
 * to settle and the checks for profiles gone while macguised was away. */
#pragma once

#include <gio/gio.h>

#include "mg-service-type.h"

G_BEGIN_DECLS

MgFollower *mg_follower_new(void);
/* Ends what it listens to and the checks under way. */
void mg_follower_free(MgFollower *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgFollower, mg_follower_free)

/* nm_client_new_async()'s callback; @user_data: the MgService (a reference,
 * taken). */
void mg_service_client_ready(GObject *source, GAsyncResult *result, gpointer user_data);

G_END_DECLS
