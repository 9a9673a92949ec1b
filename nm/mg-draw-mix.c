/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-draw-mix.h"

#include "mg-generator.h"

/* mg_device_pick()'s reasons, as words for the status. */
static const char *
mg_draw_pick_word(const char *pick_reason)
{
	static const struct {
		const char *reason, *word;
	} words[] = {
		{ "no device of its kind", "no-device" },
		{ "several devices of its kind and no interface-name", "several-devices" },
		{ "the profile's interface is not present", "interface-absent" },
		{ "the profile's interface is of another kind", "interface-other-kind" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(words); i++)
		if (g_strcmp0(pick_reason, words[i].reason) == 0)
			return words[i].word;
	return "no-device";
}

const MgDriverMix *
mg_draw_mix(MgCatalogue *catalogue,
	    const MgPolicy *policy,
	    MgDeviceClass device_class,
	    const MgDeviceFacts *facts,
	    const char *pick_reason,
	    const char **why)
{
	MgDeviceClass want =
	    policy->device_class != MG_DEVICE_CLASS_NONE ? policy->device_class : device_class;
	g_autoptr(MgGenerator) gen = NULL;
	const MgDriverMix *mix = NULL;

	*why = NULL;
	if (policy->mode == MG_MODE_KEEP_VENDOR)
		*why = "keep-vendor";
	else if (policy->vendors != NULL)
		*why = "vendors";
	else if (want == MG_DEVICE_CLASS_AP)
		*why = "hotspot";
	else if (facts == NULL)
		*why = mg_draw_pick_word(pick_reason);
	else if (facts->driver == NULL)
		*why = "driver-unknown";
	if (*why != NULL)
		return NULL;
	if (mg_catalogue_find_driver_mix(catalogue, want, facts->driver) == NULL) {
		*why = "no-mix-for-driver";
		return NULL;
	}
	/* as the draw finds it: a mix none of whose blocks may be drawn today
	 * gives way to the class's */
	gen = mg_generator_new_for_driver(
	    catalogue, want, facts->driver, g_get_real_time() / G_USEC_PER_SEC, &mix, NULL);
	if (gen == NULL || mix == NULL)
		*why = "mix-not-drawable";
	return gen != NULL ? mix : NULL;
}

void
mg_draw_mix_log(MgCatalogue *catalogue,
		const MgPolicy *policy,
		MgDeviceClass device_class,
		const MgDeviceFacts *facts,
		const char *pick_reason,
		const MgDriverMix *used,
		const char *profile)
{
	const char *why = NULL;

	if (used != NULL) {
		g_debug("profile '%s': drawn from the %s mix (%s, driver %s)",
			profile,
			used->id,
			facts->interface,
			facts->driver);
		return;
	}
	(void)mg_draw_mix(catalogue, policy, device_class, facts, pick_reason, &why);
	g_debug("profile '%s': drawn from the class's mix (%s)",
		profile,
		why != NULL ? why : "mix-not-drawable");
}
