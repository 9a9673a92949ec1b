/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What libnm shows of a profile (mg-service-nm.c). */
#pragma once

#include <NetworkManager.h>

#include "mg-reconcile.h"
#include "mg-service-type.h"

G_BEGIN_DECLS

/* A profile by UUID or id, or MG_ERROR_NOT_FOUND. */
NMRemoteConnection *mg_service_lookup_profile(MgService *self, const char *profile, GError **error);
/* The interface the profile is active on, or NULL. */
const char *mg_service_active_iface(MgService *self, const char *uuid);
/* What the profile's activation put on its link (@out: that address). */
MgLinkAddress
mg_service_link_address(MgService *self, const char *uuid, MgDeviceClass device_class, MgMac *out);

G_END_DECLS
