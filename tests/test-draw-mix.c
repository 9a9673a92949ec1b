/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which mix a profile's next address is drawn from, and why
 * (nm/mg-draw-mix.c), on the built-in catalogue. */
#include "config.h"

#include <glib.h>

#include "mg-draw-mix.h"

static MgCatalogue *catalogue;

static const MgDriverMix *
mix_for(const MgPolicy *policy, MgDeviceClass c, const char *driver, const char **why)
{
	MgDeviceFacts facts = { (char *)"wlan0", (char *)driver, FALSE, { { 0 } } };
	return mg_draw_mix(catalogue, policy, c, &facts, NULL, why);
}

static void
test_chip_family(void)
{
	g_auto(MgPolicy) policy = { 0 };
	const char *why = NULL;
	const MgDriverMix *mix;

	mg_policy_init_default(&policy);
	mix = mix_for(&policy, MG_DEVICE_CLASS_WIFI, "iwlwifi", &why);
	g_assert_nonnull(mix);
	g_assert_cmpstr(mix->id, ==, "iwlwifi");
	g_assert_null(why);
	mix = mix_for(&policy, MG_DEVICE_CLASS_ETHERNET, "r8169", &why);
	g_assert_nonnull(mix);
	g_assert_null(mix_for(&policy, MG_DEVICE_CLASS_ETHERNET, "veth", &why));
	g_assert_cmpstr(why, ==, "no-mix-for-driver");
	g_assert_null(mix_for(&policy, MG_DEVICE_CLASS_WIFI, NULL, &why));
	g_assert_cmpstr(why, ==, "driver-unknown");
}

/* The user's choice of maker, and a hotspot, come before the chip. */
static void
test_choices_first(void)
{
	g_auto(MgPolicy) policy = { 0 };
	const char *why = NULL;

	mg_policy_init_default(&policy);
	g_assert_null(mix_for(&policy, MG_DEVICE_CLASS_AP, "iwlwifi", &why));
	g_assert_cmpstr(why, ==, "hotspot");
	g_assert_true(mg_policy_set(&policy, "mode", "keep-vendor", NULL));
	g_assert_null(mix_for(&policy, MG_DEVICE_CLASS_WIFI, "iwlwifi", &why));
	g_assert_cmpstr(why, ==, "keep-vendor");
}

/* No device found: mg_device_pick()'s reason, as a word. */
static void
test_no_device(void)
{
	g_auto(MgPolicy) policy = { 0 };
	const char *why = NULL;

	mg_policy_init_default(&policy);
	g_assert_null(mg_draw_mix(catalogue,
				  &policy,
				  MG_DEVICE_CLASS_WIFI,
				  NULL,
				  "several devices of its kind and no interface-name",
				  &why));
	g_assert_cmpstr(why, ==, "several-devices");
	g_assert_null(mg_draw_mix(
	    catalogue, &policy, MG_DEVICE_CLASS_WIFI, NULL, "no device of its kind", &why));
	g_assert_cmpstr(why, ==, "no-device");
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;

	g_test_init(&argc, &argv, NULL);
	catalogue = mg_catalogue_new_builtin(&error);
	g_assert_no_error(error);
	g_test_add_func("/draw-mix/chip-family", test_chip_family);
	g_test_add_func("/draw-mix/choices-first", test_choices_first);
	g_test_add_func("/draw-mix/no-device", test_no_device);
	return g_test_run();
}
