/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mg-catalogue.h"
#include "mg-device-facts.h"
#include "mg-policy.h"

G_BEGIN_DECLS

/* The chip family's mix a profile's next address is drawn from (as
 * mg_profile_draw_for_device() draws it), or NULL where its class's mix
 * serves, with @why a word saying why: "keep-vendor" or "vendors" (the
 * user chose the maker), "hotspot", "no-device", "several-devices",
 * "interface-absent", "interface-other-kind" (mg_device_pick()'s
 * @pick_reason), "driver-unknown", "no-mix-for-driver", "mix-not-drawable"
 * (none of its blocks may be drawn today). @facts: the device
 * mg_device_facts_from_client() or _from_sysfs() found, or NULL. */
const MgDriverMix *mg_draw_mix(MgCatalogue *catalogue,
			       const MgPolicy *policy,
			       MgDeviceClass device_class,
			       const MgDeviceFacts *facts,
			       const char *pick_reason,
			       const char **why);

/* Says at debug level which mix a profile's new address came from: @used,
 * the mix mg_profile_draw_for_device() reported (NULL: the class's), and
 * why. */
void mg_draw_mix_log(MgCatalogue *catalogue,
		     const MgPolicy *policy,
		     MgDeviceClass device_class,
		     const MgDeviceFacts *facts,
		     const char *pick_reason,
		     const MgDriverMix *used,
		     const char *profile);

G_END_DECLS
