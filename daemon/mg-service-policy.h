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

/* Whether macguise leaves @c alone for good, until its settings or policy
 * change: not Ethernet or Wi-Fi, mode off, or its address set by hand. A
 * profile only waiting for an address is not, so the link-check index need
 * not change with every write. */
gboolean mg_service_leaves_alone(MgService *self, NMConnection *c);
/* The link-check index's list (MgLinkIndexListFunc, mg-link-index.h). */
gboolean mg_service_list_left_alone(gpointer self, GPtrArray *uuids);

G_END_DECLS
