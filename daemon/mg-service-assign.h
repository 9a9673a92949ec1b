/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A new address for a profile (mg-service-assign.c). */
#pragma once

#include <NetworkManager.h>

#include "mg-policy.h"
#include "mg-service-type.h"

G_BEGIN_DECLS

/* Draws an address (or takes the one a failed write left) and starts
 * writing it into the profile; FALSE if there is none to give. With
 * @reactivate_iface ("": any device), the profile comes up again with it. */
gboolean mg_service_assign(MgService *self,
			   NMRemoteConnection *rc,
			   MgDeviceClass device_class,
			   const MgPolicy *policy,
			   gboolean for_conflict,
			   const char *reactivate_iface);

G_END_DECLS
