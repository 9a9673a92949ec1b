/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mg-service.h"

G_BEGIN_DECLS

/* Owns MG_DBUS_NAME on the system bus ($DBUS_SYSTEM_BUS_ADDRESS in tests)
 * and exports @service there. @lost is called if the name cannot be had. */
guint mg_dbus_api_own(MgService *service, GCallback lost, gpointer lost_data);

G_END_DECLS
