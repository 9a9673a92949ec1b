/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-catalogue.h"

G_BEGIN_DECLS

/* A network device of the machine, as NetworkManager or sysfs shows it. */
typedef struct {
	const char *interface;
	MgDeviceClass device_class; /* WIFI or ETHERNET; NONE: neither */
	const char *driver;         /* as NetworkManager reports it, or NULL */
} MgDeviceCandidate;

/* The device a profile of @device_class runs on: the one its
 * connection.interface-name names (@interface_name, NULL when it names
 * none), else the machine's only device of that kind (an access point's is
 * a Wi-Fi device).  Its index in @candidates, or -1 with @reason set (a
 * static English text: none of that kind, several and no interface-name,
 * the named interface missing or of another kind). */
gint mg_device_pick(const MgDeviceCandidate *candidates,
		    guint n_candidates,
		    const char *interface_name,
		    MgDeviceClass device_class,
		    const char **reason);

G_END_DECLS
