/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A new address for a profile: drawn (or the one a failed write left),
 * recorded in the history before NetworkManager has it, then written once
 * the state that records it is saved. */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-service-assign.h"

#include "mg-device-facts.h"
#include "mg-draw-mix.h"
#include "mg-neighbours.h"
#include "mg-service-update.h"
#include "mg-service-writes.h"
#include "mg-service-core.h"

/* The addresses local interfaces use or were made with, and those of the
 * stations in the kernel's neighbour tables: never a candidate. */
static GArray *
mg_service_device_macs(MgService *self)
{
	GArray *taken = g_array_new(FALSE, FALSE, sizeof(MgMac));
	const GPtrArray *devices = nm_client_get_devices(self->client);
	g_autoptr(GArray) neighbours = NULL;
	g_autoptr(GError) error = NULL;

	for (guint i = 0; devices != NULL && i < devices->len; i++) {
		NMDevice *dev = g_ptr_array_index(devices, i);
		const char *addrs[2] = { nm_device_get_hw_address(dev), NULL };
		if (NM_IS_DEVICE_ETHERNET(dev))
			addrs[1] =
			    nm_device_ethernet_get_permanent_hw_address(NM_DEVICE_ETHERNET(dev));
		else if (NM_IS_DEVICE_WIFI(dev))
			addrs[1] = nm_device_wifi_get_permanent_hw_address(NM_DEVICE_WIFI(dev));
		for (guint j = 0; j < G_N_ELEMENTS(addrs); j++) {
			MgMac m;
			if (addrs[j] != NULL && mg_mac_parse(addrs[j], &m, NULL))
				g_array_append_val(taken, m);
		}
	}
	neighbours = mg_neighbours_read(&error);
	if (neighbours == NULL)
		g_warning("cannot read the neighbour tables: %s", error->message);
	else
		g_array_append_vals(taken, neighbours->data, neighbours->len);
	return taken;
}

/* Whether the card's own address can name its maker's block: else
 * keep-vendor keeps the block of the profile's current address. */
static gboolean
mg_service_own_address_usable(const MgDeviceFacts *facts)
{
	return facts != NULL && facts->has_permanent && mg_mac_is_global_unicast(&facts->permanent);
}

/* A new address, for the chip of the device the profile runs on (its
 * interface-name's, else the only one of its kind) where that is known,
 * else from its class's mix. keep-vendor keeps the block of the device's
 * own address, else of the profile's current one, whose block came from it. */
static gboolean
mg_service_draw(MgService *self,
		NMConnection *connection,
		MgDeviceClass device_class,
		const MgPolicy *policy,
		MgMac *mac,
		GError **error)
{
	const char *pick_reason = NULL;
	g_autoptr(MgDeviceFacts) facts =
	    mg_device_facts_from_client(self->client, connection, device_class, &pick_reason);
	const MgProfileState *p =
	    mg_state_get_profile(self->rt.state, nm_connection_get_uuid(connection));
	const MgMac *current = p != NULL && p->has_address ? &p->address : NULL;
	g_autoptr(GArray) taken = mg_service_device_macs(self);
	const MgDriverMix *mix = NULL;

	if (!mg_profile_draw_for_device(self->rt.catalogue,
					self->rt.state,
					self->rt.rng,
					device_class,
					policy,
					facts,
					mg_service_own_address_usable(facts) ? NULL : current,
					taken,
					mac,
					&mix,
					error))
		return FALSE;
	mg_draw_mix_log(self->rt.catalogue,
			policy,
			device_class,
			facts,
			pick_reason,
			mix,
			nm_connection_get_id(connection));
	return TRUE;
}

gboolean
mg_service_assign(MgService *self,
		  NMRemoteConnection *rc,
		  MgDeviceClass device_class,
		  const MgPolicy *policy,
		  gboolean for_conflict,
		  const char *reactivate_iface)
{
	NMConnection *connection = NM_CONNECTION(rc);
	MgProfileRecord *r =
	    mg_profile_records_ensure(self->records, nm_connection_get_uuid(connection));
	g_autoptr(GError) error = NULL;
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	MgWrite *w;
	guint32 jitter;
	MgMac mac;

	if (r->has_drawn && !for_conflict) {
		mac = r->drawn;
	} else {
		if (!mg_service_draw(self, connection, device_class, policy, &mac, &error)) {
			g_warning("profile '%s': no address to give it: %s",
				  nm_connection_get_id(connection),
				  error->message);
			return FALSE;
		}
		/* Into the history before NetworkManager has it: whatever
		 * happens next, it is never handed out again and is known as
		 * ours. */
		mg_state_remember(self->rt.state, &mac, now);
	}
	w = mg_write_new(self, connection, &mac);
	mg_random_fill(self->rt.rng, &jitter, sizeof(jitter));
	w->assign = TRUE;
	w->due_at = mg_schedule_due_at(policy, now, jitter);
	w->for_conflict = for_conflict;
	if (reactivate_iface != NULL)
		mg_profile_record_reactivate_on(r, reactivate_iface);
	mg_service_write_recorded(self, rc, device_class, policy->harden, w);
	return TRUE;
}
