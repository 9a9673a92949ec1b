/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-first-contact"

#include "config.h"

#include "mg-first-contact.h"

#include "mg-generator.h"

#define MG_FIRST_CONTACT_DEVICES "type:ethernet,type:veth,type:wifi"

/* NetworkManager masks with one 24-bit mask: a row must be a whole OUI
 * whose every serial is plausible. */
static gboolean
mg_whole_oui(const MgMac *candidate, gpointer user_data)
{
	MgCatalogue *catalogue = user_data;
	const MgCatalogueEntry *e = mg_catalogue_lookup(catalogue, candidate);
	return e != NULL && e->prefix.bits == MG_BLOCK_MA_L && e->serial_min <= 1 &&
	       e->serial_max >= 0xfffffe;
}

static gboolean
mg_first_contact_mask(GString *out,
		      const char *key,
		      MgCatalogue *catalogue,
		      MgRandom *rng,
		      MgDeviceClass device_class,
		      guint draws,
		      gint64 now,
		      GError **error)
{
	g_autoptr(MgGenerator) gen = mg_generator_new(catalogue, device_class, NULL, now, error);

	if (gen == NULL)
		return FALSE;
	g_string_append_printf(out, "%s.cloned-mac-address=random\n", key);
	g_string_append_printf(out, "%s.generate-mac-address-mask=FF:FF:FF:00:00:00", key);
	for (guint i = 0; i < draws; i++) {
		MgMac mac;
		if (!mg_generator_next(gen, rng, mg_whole_oui, catalogue, 10000, &mac, NULL, error))
			return FALSE;
		g_string_append_printf(
		    out, " %02X:%02X:%02X:00:00:00", mac.octet[0], mac.octet[1], mac.octet[2]);
	}
	g_string_append_c(out, '\n');
	return TRUE;
}

char *
mg_first_contact_conf(
    MgCatalogue *catalogue, MgRandom *rng, guint draws, gint64 now, GError **error)
{
	g_autoptr(GString) out = g_string_new(
	    "# Written by macguised at boot; it is drawn anew each time (see macguised(8)).\n"
	    "# A profile that names no MAC address comes up with a random address in a\n"
	    "# common maker's registry block, globally administered, instead of the card's\n"
	    "# own; macguised then keeps it as the profile's first macguise address.\n"
	    "# A profile with cloned-mac-address set (permanent included) is not affected.\n"
	    "[connection-macguise-first-contact]\n"
	    /* Only the devices macguise manages profiles of (veth: a container's
	     * card). Bridges, bonds, teams, VLANs, macvlans, tunnels… take the
	     * global ethernet.cloned-mac-address too, but macguised never keeps an
	     * address drawn there: they would get a new one each activation. */
	    "match-device=" MG_FIRST_CONTACT_DEVICES "\n");

	if (!mg_first_contact_mask(
		out, "ethernet", catalogue, rng, MG_DEVICE_CLASS_ETHERNET, draws, now, error) ||
	    !mg_first_contact_mask(
		out, "wifi", catalogue, rng, MG_DEVICE_CLASS_WIFI, draws, now, error))
		return NULL;
	return g_string_free(g_steal_pointer(&out), FALSE);
}
