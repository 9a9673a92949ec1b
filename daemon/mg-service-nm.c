/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What libnm shows of a profile: the profile by UUID or id, the device its
 * activation runs on, and the address that activation put on the link. */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-service-nm.h"

#include <glib/gi18n.h>

#include "mg-error.h"
#include "mg-service-core.h"

static const char *
mg_device_permanent_mac(NMDevice *dev)
{
	if (NM_IS_DEVICE_ETHERNET(dev))
		return nm_device_ethernet_get_permanent_hw_address(NM_DEVICE_ETHERNET(dev));
	if (NM_IS_DEVICE_WIFI(dev))
		return nm_device_wifi_get_permanent_hw_address(NM_DEVICE_WIFI(dev));
	return NULL;
}

NMRemoteConnection *
mg_service_lookup_profile(MgService *self, const char *profile, GError **error)
{
	NMRemoteConnection *rc = NULL;

	if (self->client != NULL) {
		rc = nm_client_get_connection_by_uuid(self->client, profile);
		if (rc == NULL)
			rc = nm_client_get_connection_by_id(self->client, profile);
	}
	if (rc == NULL || mg_profile_class(NM_CONNECTION(rc)) == MG_DEVICE_CLASS_NONE) {
		g_set_error(error,
			    MG_ERROR,
			    MG_ERROR_NOT_FOUND,
			    "no Ethernet or Wi-Fi profile '%s'",
			    profile);
		return NULL;
	}
	return rc;
}

/* The interface the profile is active on, or NULL. */
const char *
mg_service_active_iface(MgService *self, const char *uuid)
{
	const GPtrArray *acs = nm_client_get_active_connections(self->client);
	for (guint i = 0; acs != NULL && i < acs->len; i++) {
		NMActiveConnection *ac = g_ptr_array_index(acs, i);
		const GPtrArray *devices = nm_active_connection_get_devices(ac);
		if (g_strcmp0(nm_active_connection_get_uuid(ac), uuid) == 0 && devices != NULL &&
		    devices->len > 0)
			return nm_device_get_iface(g_ptr_array_index(devices, 0));
	}
	return NULL;
}

/* The profile's active connection, if it is up. */
static NMActiveConnection *
mg_service_active_connection(MgService *self, const char *uuid)
{
	const MgProfileRecord *r = mg_profile_records_get(self->records, uuid);
	const char *path = r != NULL ? r->active_path : NULL;
	const GPtrArray *acs = nm_client_get_active_connections(self->client);

	for (guint i = 0; path != NULL && acs != NULL && i < acs->len; i++) {
		NMActiveConnection *ac = g_ptr_array_index(acs, i);
		if (g_strcmp0(nm_object_get_path(NM_OBJECT(ac)), path) == 0)
			return ac;
	}
	return NULL;
}

/* The device the profile's activation runs on, once that activation has
 * set the link's address (from stage 2, config, on: NetworkManager sets the
 * cloned address in stage 1, before any frame leaves). */
static NMDevice *
mg_service_link_device(MgService *self, const char *uuid)
{
	NMActiveConnection *ac = mg_service_active_connection(self, uuid);
	const GPtrArray *devices = ac != NULL ? nm_active_connection_get_devices(ac) : NULL;
	NMDevice *device =
	    devices != NULL && devices->len > 0 ? g_ptr_array_index(devices, 0) : NULL;
	NMDeviceState state =
	    device != NULL ? nm_device_get_state(device) : NM_DEVICE_STATE_UNKNOWN;

	if (device == NULL || nm_device_get_active_connection(device) != ac ||
	    state < NM_DEVICE_STATE_CONFIG || state > NM_DEVICE_STATE_ACTIVATED)
		return NULL;
	return device;
}

/* What the profile's activation put on its link. Adoptable is
 * what macguise's first-contact defaults give: a globally administered
 * address from a current catalogue block of the profile's class, not the
 * card's own, never used here before and no profile's. */
MgLinkAddress
mg_service_link_address(MgService *self, const char *uuid, MgDeviceClass device_class, MgMac *out)
{
	NMDevice *device = mg_service_link_device(self, uuid);
	const char *perm = device != NULL ? mg_device_permanent_mac(device) : NULL;
	const MgProfileState *p = mg_state_get_profile(self->rt.state, uuid);
	const MgCatalogueEntry *e;
	MgMac own;

	if (device == NULL || !mg_mac_parse(nm_device_get_hw_address(device), out, NULL))
		return MG_LINK_UNKNOWN;
	if (p != NULL && p->has_address && mg_mac_equal(&p->address, out))
		return MG_LINK_CURRENT;
	if (!mg_mac_is_global_unicast(out) || mg_mac_is_zero(out) ||
	    (perm != NULL && mg_mac_parse(perm, &own, NULL) && mg_mac_equal(&own, out)) ||
	    mg_state_was_used(self->rt.state, out) ||
	    mg_state_is_current_elsewhere(self->rt.state, out, NULL))
		return MG_LINK_FOREIGN;
	e = mg_catalogue_lookup(self->rt.catalogue, out);
	if (e == NULL || (e->classes & device_class) == 0 || e->era != MG_ERA_CURRENT)
		return MG_LINK_FOREIGN;
	return MG_LINK_ADOPTABLE;
}
