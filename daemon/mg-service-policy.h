/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Each profile's resolved policy (mg-service-policy.c): valid until the
 * profile changes or macguise.conf is reloaded. */
#pragma once

#include <NetworkManager.h>

#include "mg-policy.h"
#include "mg-service-type.h"

G_BEGIN_DECLS

const MgPolicy *
mg_service_policy(MgService *self, NMConnection *connection, MgDeviceClass device_class);
/* @uuid's profile changed (NULL: macguise.conf did): resolve again when next
 * asked. */
void mg_service_policy_changed(MgService *self, const char *uuid);

G_END_DECLS
