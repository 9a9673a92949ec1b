/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-device-pick"

#include "config.h"

#include "mg-device-pick.h"

gint
mg_device_pick(const MgDeviceCandidate *candidates,
	       guint n_candidates,
	       const char *interface_name,
	       MgDeviceClass device_class,
	       const char **reason)
{
	MgDeviceClass kind =
	    device_class == MG_DEVICE_CLASS_AP ? MG_DEVICE_CLASS_WIFI : device_class;
	gint found = -1;
	guint of_kind = 0;

	*reason = NULL;
	if (interface_name != NULL && interface_name[0] != '\0') {
		for (guint i = 0; i < n_candidates; i++) {
			if (g_strcmp0(candidates[i].interface, interface_name) != 0)
				continue;
			if (candidates[i].device_class != kind) {
				*reason = "the profile's interface is of another kind";
				return -1;
			}
			return (gint)i;
		}
		*reason = "the profile's interface is not present";
		return -1;
	}
	for (guint i = 0; i < n_candidates; i++) {
		if (candidates[i].device_class == kind) {
			found = (gint)i;
			of_kind++;
		}
	}
	if (of_kind == 0)
		*reason = "no device of its kind";
	else if (of_kind > 1)
		*reason = "several devices of its kind and no interface-name";
	return of_kind == 1 ? found : -1;
}
