/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <NetworkManager.h>

#include "mg-catalogue.h"
#include "mg-mac.h"
#include "mg-policy.h"
#include "mg-random.h"
#include "mg-state.h"

G_BEGIN_DECLS

/* What macguise knows of the device a profile runs on. */
typedef struct {
	char *interface;
	char *driver;           /* as NetworkManager reports it (GENERAL.DRIVER), or NULL */
	gboolean has_permanent; /* whether @permanent holds the card's own address */
	MgMac permanent;
} MgDeviceFacts;

void mg_device_facts_free(MgDeviceFacts *facts);

/* The device @connection of @device_class runs on, among @client's devices:
 * the one its interface-name names, else the machine's only device of its
 * kind (mg_device_pick()); its driver (nm_device_get_driver()) and its
 * permanent address.  NULL with @reason (a static English text) where there
 * is none or several. */
MgDeviceFacts *mg_device_facts_from_client(NMClient *client,
					   NMConnection *connection,
					   MgDeviceClass device_class,
					   const char **reason);
/* The same before NetworkManager runs (the boot step): the interfaces under
 * @sys_class_net (/sys/class/net), a Wi-Fi one by its wireless/ directory,
 * an Ethernet one by type 1 and a device/ link, the driver by the name of
 * device/driver.  No permanent address. */
MgDeviceFacts *mg_device_facts_from_sysfs(const char *sys_class_net,
					  NMConnection *connection,
					  MgDeviceClass device_class,
					  const char **reason);

/* As mg_profile_draw(), but for the device @facts describes (NULL: none
 * known): with no vendor restriction in @policy, from the mix of the chip
 * family its driver belongs to (mg_generator_new_for_driver()); @mix is set
 * to that mix, NULL where the class's mix served (no facts, no driver, a
 * driver no mix takes, keep-vendor or a vendor restriction).  keep-vendor
 * keeps the block of @hardware, else of the card's permanent address. */
gboolean mg_profile_draw_for_device(MgCatalogue *catalogue,
				    MgState *state,
				    MgRandom *rng,
				    MgDeviceClass device_class,
				    const MgPolicy *policy,
				    const MgDeviceFacts *facts,
				    const MgMac *hardware,
				    GArray *taken,
				    MgMac *mac,
				    const MgDriverMix **mix,
				    GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgDeviceFacts, mg_device_facts_free)

G_END_DECLS
