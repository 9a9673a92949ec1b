/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One write into NetworkManager: the current copy, then Update2
 * (mg-service-update.c), each through the write pipeline. */
#pragma once

#include "mg-service-writes.h"

G_BEGIN_DECLS

/* @w is decided on @connection: what the decision rested on is taken
 * (mg_profile_basis), and the profile counts as having a write under way. */
void mg_service_write_prepare(MgService *self,
			      NMConnection *connection,
			      MgDeviceClass device_class,
			      gboolean new_stable_id,
			      MgWrite *w);
/* Writes @w (and a new stable-id epoch with @new_stable_id). */
void mg_service_write(MgService *self,
		      NMRemoteConnection *rc,
		      MgDeviceClass device_class,
		      gboolean new_stable_id,
		      MgWrite *w);
/* Writes @w once the state as it is now is saved. */
void mg_service_write_recorded(MgService *self,
			       NMRemoteConnection *rc,
			       MgDeviceClass device_class,
			       gboolean new_stable_id,
			       MgWrite *w);
/* @w has a slot and the lock (the pipeline's write). */
void mg_service_update(MgWrite *w);

G_END_DECLS
