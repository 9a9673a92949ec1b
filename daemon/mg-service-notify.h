/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "profiles-changed" (mg-service-notify.c). */
#pragma once

#include <glib.h>

#include "mg-service-type.h"

G_BEGIN_DECLS

/* The status of @uuid changed: "profiles-changed" says so once the main
 * loop is idle, for every profile that changed meanwhile. */
void mg_service_note_changed(MgService *self, const char *uuid);

G_END_DECLS
