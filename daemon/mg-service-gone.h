/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Forgetting profiles that left NetworkManager (mg-service-gone.c). */
#pragma once

#include <gio/gio.h>

#include "mg-service-type.h"

G_BEGIN_DECLS

/* A profile left NetworkManager: what macguise knew of it goes. */
void mg_service_forget(MgService *self, const char *uuid);
/* Profiles the state keeps that NetworkManager, done starting, does not
 * have: asked of NetworkManager, forgotten if it says so; @checks cancels
 * the questions (cancelled before @self goes). */
void mg_service_forget_missing(MgService *self, GCancellable *checks);

G_END_DECLS
