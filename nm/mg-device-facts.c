/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The device a profile runs on, and a draw for its chip. */
#define G_LOG_DOMAIN "mg-device-facts"

#include "config.h"

#include "mg-device-facts.h"

#include "mg-device-pick.h"
#include "mg-generator.h"
#include "mg-profile.h"

void
mg_device_facts_free(MgDeviceFacts *facts)
{
	if (facts == NULL)
		return;
	g_free(facts->interface);
	g_free(facts->driver);
	g_free(facts);
}

static MgDeviceClass
mg_device_kind(NMDevice *device)
{
	if (NM_IS_DEVICE_WIFI(device))
		return MG_DEVICE_CLASS_WIFI;
	/* veth is an Ethernet device to libnm, as to macguise's profiles */
	if (NM_IS_DEVICE_ETHERNET(device))
		return MG_DEVICE_CLASS_ETHERNET;
	return MG_DEVICE_CLASS_NONE;
}

static const char *
mg_device_permanent_text(NMDevice *device)
{
	if (NM_IS_DEVICE_WIFI(device))
		return nm_device_wifi_get_permanent_hw_address(NM_DEVICE_WIFI(device));
	if (NM_IS_DEVICE_ETHERNET(device))
		return nm_device_ethernet_get_permanent_hw_address(NM_DEVICE_ETHERNET(device));
	return NULL;
}

MgDeviceFacts *
mg_device_facts_from_client(NMClient *client,
			    NMConnection *connection,
			    MgDeviceClass device_class,
			    const char **reason)
{
	const GPtrArray *devices = nm_client_get_devices(client);
	g_autofree MgDeviceCandidate *c = g_new0(MgDeviceCandidate, MAX(devices->len, 1));
	MgDeviceFacts *facts;
	const char *permanent;
	NMDevice *device;
	gint i;

	for (guint j = 0; j < devices->len; j++) {
		NMDevice *d = g_ptr_array_index(devices, j);
		c[j].interface = nm_device_get_iface(d);
		c[j].device_class = mg_device_kind(d);
		c[j].driver = nm_device_get_driver(d);
	}
	i = mg_device_pick(
	    c, devices->len, nm_connection_get_interface_name(connection), device_class, reason);
	if (i < 0)
		return NULL;
	device = g_ptr_array_index(devices, i);
	facts = g_new0(MgDeviceFacts, 1);
	facts->interface = g_strdup(nm_device_get_iface(device));
	facts->driver = g_strdup(nm_device_get_driver(device));
	permanent = mg_device_permanent_text(device);
	facts->has_permanent = permanent != NULL &&
			       mg_mac_parse(permanent, &facts->permanent, NULL) &&
			       !mg_mac_is_zero(&facts->permanent);
	return facts;
}

/* What sysfs says of one interface: its kind and its driver's name. */
static void
mg_sysfs_candidate(const char *dir, const char *name, MgDeviceCandidate *c, char **driver)
{
	g_autofree char *wireless = g_build_filename(dir, name, "wireless", NULL);
	g_autofree char *device = g_build_filename(dir, name, "device", NULL);
	g_autofree char *type_path = g_build_filename(dir, name, "type", NULL);
	g_autofree char *link_path = g_build_filename(dir, name, "device", "driver", NULL);
	g_autofree char *type = NULL;
	g_autofree char *link = g_file_read_link(link_path, NULL);

	c->interface = name;
	c->device_class = MG_DEVICE_CLASS_NONE;
	if (g_file_test(wireless, G_FILE_TEST_IS_DIR))
		c->device_class = MG_DEVICE_CLASS_WIFI;
	else if (g_file_test(device, G_FILE_TEST_EXISTS) &&
		 g_file_get_contents(type_path, &type, NULL, NULL) &&
		 g_strcmp0(g_strstrip(type), "1") == 0)
		c->device_class = MG_DEVICE_CLASS_ETHERNET;
	*driver = link != NULL ? g_path_get_basename(link) : NULL;
	c->driver = *driver;
}

MgDeviceFacts *
mg_device_facts_from_sysfs(const char *sys_class_net,
			   NMConnection *connection,
			   MgDeviceClass device_class,
			   const char **reason)
{
	g_autoptr(GDir) dir = g_dir_open(sys_class_net, 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) drivers = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GArray) c = g_array_new(FALSE, TRUE, sizeof(MgDeviceCandidate));
	const char *name;
	MgDeviceFacts *facts;
	gint i;

	while (dir != NULL && (name = g_dir_read_name(dir)) != NULL)
		g_ptr_array_add(names, g_strdup(name));
	for (guint j = 0; j < names->len; j++) {
		MgDeviceCandidate one;
		char *driver = NULL;
		mg_sysfs_candidate(sys_class_net, g_ptr_array_index(names, j), &one, &driver);
		g_ptr_array_add(drivers, driver);
		g_array_append_val(c, one);
	}
	i = mg_device_pick((const MgDeviceCandidate *)(void *)c->data,
			   c->len,
			   nm_connection_get_interface_name(connection),
			   device_class,
			   reason);
	if (i < 0)
		return NULL;
	facts = g_new0(MgDeviceFacts, 1);
	facts->interface = g_strdup(g_ptr_array_index(names, i));
	facts->driver = g_strdup(g_ptr_array_index(drivers, i));
	return facts;
}

gboolean
mg_profile_draw_for_device(MgCatalogue *catalogue,
			   MgState *state,
			   MgRandom *rng,
			   MgDeviceClass device_class,
			   const MgPolicy *policy,
			   const MgDeviceFacts *facts,
			   const MgMac *hardware,
			   GArray *taken,
			   MgMac *mac,
			   const MgDriverMix **mix,
			   GError **error)
{
	MgDeviceClass want =
	    policy->device_class != MG_DEVICE_CLASS_NONE ? policy->device_class : device_class;
	g_autoptr(MgGenerator) gen = NULL;

	if (mix != NULL)
		*mix = NULL;
	if (hardware == NULL && facts != NULL && facts->has_permanent)
		hardware = &facts->permanent;
	/* keep-vendor and a vendor restriction are the user's choice of maker;
	 * an access point's address is the hotspot's, not the chip's. */
	if (policy->mode == MG_MODE_KEEP_VENDOR || policy->vendors != NULL || facts == NULL ||
	    want == MG_DEVICE_CLASS_AP)
		return mg_profile_draw(
		    catalogue, state, rng, device_class, policy, hardware, taken, mac, error);
	gen = mg_generator_new_for_driver(
	    catalogue, want, facts->driver, g_get_real_time() / G_USEC_PER_SEC, mix, error);
	if (gen == NULL)
		return FALSE;
	return mg_profile_draw_from(gen, state, rng, taken, mac, error);
}
