/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which device a profile runs on, and why none where none can be told. */
#include "config.h"

#include <glib.h>

#include "mg-device-pick.h"

static const MgDeviceCandidate laptop[] = {
	{ "lo", MG_DEVICE_CLASS_NONE, NULL },
	{ "enp0s31f6", MG_DEVICE_CLASS_ETHERNET, "e1000e" },
	{ "wlp0s20f3", MG_DEVICE_CLASS_WIFI, "iwlwifi" },
	{ "enx00e04c680001", MG_DEVICE_CLASS_ETHERNET, "r8152" },
};

typedef struct {
	const char *interface_name; /* the profile's connection.interface-name */
	MgDeviceClass device_class;
	gint expected;       /* index into laptop[], or -1 */
	const char *because; /* the reason given with -1 */
} MgPickCase;

static const MgPickCase cases[] = {
	/* the one Wi-Fi device, for a client and a hotspot */
	{ NULL, MG_DEVICE_CLASS_WIFI, 2, NULL },
	{ "", MG_DEVICE_CLASS_WIFI, 2, NULL },
	{ NULL, MG_DEVICE_CLASS_AP, 2, NULL },
	/* two Ethernet devices: only a named one is known */
	{ NULL, MG_DEVICE_CLASS_ETHERNET, -1, "several devices of its kind and no interface-name" },
	{ "enx00e04c680001", MG_DEVICE_CLASS_ETHERNET, 3, NULL },
	{ "enp0s31f6", MG_DEVICE_CLASS_ETHERNET, 1, NULL },
	{ "wlan9", MG_DEVICE_CLASS_WIFI, -1, "the profile's interface is not present" },
	{ "enp0s31f6", MG_DEVICE_CLASS_WIFI, -1, "the profile's interface is of another kind" },
	{ "lo", MG_DEVICE_CLASS_ETHERNET, -1, "the profile's interface is of another kind" },
};

static void
test_device_pick_laptop(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *reason = "unset";
		gint got = mg_device_pick(laptop,
					  G_N_ELEMENTS(laptop),
					  cases[i].interface_name,
					  cases[i].device_class,
					  &reason);
		if (got != cases[i].expected || g_strcmp0(reason, cases[i].because) != 0)
			g_error("case %u: got %d (%s), wanted %d (%s)",
				i,
				got,
				reason,
				cases[i].expected,
				cases[i].because);
	}
}

/* No device of the kind at all (a desktop without Wi-Fi, or nothing). */
static void
test_device_pick_none(void)
{
	const char *reason = NULL;

	g_assert_cmpint(mg_device_pick(laptop, 2, NULL, MG_DEVICE_CLASS_WIFI, &reason), ==, -1);
	g_assert_cmpstr(reason, ==, "no device of its kind");
	g_assert_cmpint(mg_device_pick(NULL, 0, NULL, MG_DEVICE_CLASS_ETHERNET, &reason), ==, -1);
	g_assert_cmpstr(reason, ==, "no device of its kind");
	g_assert_cmpint(mg_device_pick(laptop, 2, NULL, MG_DEVICE_CLASS_ETHERNET, &reason), ==, 1);
	g_assert_null(reason);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/device-pick/laptop", test_device_pick_laptop);
	g_test_add_func("/device-pick/none", test_device_pick_none);
	return g_test_run();
}
