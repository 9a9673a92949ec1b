/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The D-Bus API's operations (mg-service-api.c; see
 * data/org.macguise.Daemon1.xml). */
#pragma once

#include <gio/gio.h>

#include "mg-service-type.h"

G_BEGIN_DECLS

/* Every Ethernet and Wi-Fi profile that @user (a user name; NULL: none
 * known) may see, as GetStatus returns them. */
GVariant *mg_service_get_status(MgService *self, const char *user);
/* @profile: a UUID or id, or "" for every managed profile. */
/* Each profile's outcome, as a(sss): its UUID, the outcome
 * (mg_rotation_outcome_to_string) and the reason's word. */
GVariant *mg_service_rotate(MgService *self, const char *profile, gboolean now, GError **error);
/* The configuration files read again (a line that cannot be used is named
 * in the journal and skipped) and every profile decided again. */
void mg_service_reload(MgService *self);
/* Whether every local user may see the profile (no connection.permissions):
 * only such profiles are named in ProfilesChanged. */
gboolean mg_service_profile_is_public(MgService *self, const char *uuid);
G_END_DECLS
