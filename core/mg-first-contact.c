/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-first-contact"

#include "config.h"

#include "mg-first-contact.h"

#include "mg-generator.h"

#define MG_FIRST_CONTACT_GROUP "connection-macguise-first-contact"
#define MG_FIRST_CONTACT_MASK "FF:FF:FF:00:00:00"
#define MG_FIRST_CONTACT_DEVICES "type:ethernet,type:veth,type:wifi"

/* NetworkManager masks with one 24-bit mask: a row must be a whole OUI
 * whose every serial is plausible. */
static gboolean
mg_whole_oui_entry(const MgCatalogueEntry *e)
{
	return e != NULL && e->prefix.bits == MG_BLOCK_MA_L && e->serial_min <= 1 &&
	       e->serial_max >= 0xfffffe;
}

static gboolean
mg_whole_oui(const MgMac *candidate, gpointer user_data)
{
	return mg_whole_oui_entry(mg_catalogue_lookup(user_data, candidate));
}

static gboolean
mg_first_contact_mask(GString *out,
		      const char *key,
		      MgCatalogue *catalogue,
		      MgRandom *rng,
		      MgDeviceClass device_class,
		      const MgDriverMix *mix,
		      guint draws,
		      gint64 now,
		      GError **error)
{
	g_autoptr(MgGenerator) gen =
	    mix != NULL ? mg_generator_new_for_mix(catalogue, mix, now, error)
			: mg_generator_new(catalogue, device_class, NULL, now, error);

	if (gen == NULL)
		return FALSE;
	g_string_append_printf(out, "%s.cloned-mac-address=random\n", key);
	g_string_append_printf(out, "%s.generate-mac-address-mask=" MG_FIRST_CONTACT_MASK, key);
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

/* "driver:a,driver:b": NetworkManager's device list for the mix's drivers. */
static char *
mg_first_contact_devices(const MgDriverMix *mix)
{
	g_autoptr(GString) out = g_string_new(NULL);

	for (guint i = 0; mix->match[i] != NULL; i++) {
		if (mix->match[i][0] != '\0')
			g_string_append_printf(
			    out, "%sdriver:%s", out->len > 0 ? "," : "", mix->match[i]);
	}
	return g_string_free(g_steal_pointer(&out), FALSE);
}

static const char *
mg_first_contact_key(MgDeviceClass device_class)
{
	return device_class == MG_DEVICE_CLASS_ETHERNET ? "ethernet" : "wifi";
}

/* One section per chip family, before the general one: NetworkManager
 * takes a property from the first section that matches the device and
 * sets it, so a card whose driver a mix takes draws from its makers. */
static gboolean
mg_first_contact_driver_sections(
    GString *out, MgCatalogue *catalogue, MgRandom *rng, guint draws, gint64 now, GError **error)
{
	GPtrArray *mixes = mg_catalogue_get_driver_mixes(catalogue);

	for (guint i = 0; i < mixes->len; i++) {
		const MgDriverMix *mix = g_ptr_array_index(mixes, i);
		g_autofree char *devices = mg_first_contact_devices(mix);

		if (mix->device_class != MG_DEVICE_CLASS_WIFI &&
		    mix->device_class != MG_DEVICE_CLASS_ETHERNET)
			continue;
		g_string_append_printf(out,
				       "\n[" MG_FIRST_CONTACT_GROUP
				       "-driver-%s]\nmatch-device=%s\n",
				       mix->id,
				       devices);
		if (!mg_first_contact_mask(out,
					   mg_first_contact_key(mix->device_class),
					   catalogue,
					   rng,
					   mix->device_class,
					   mix,
					   draws,
					   now,
					   error))
			return FALSE;
	}
	g_string_append_c(out, '\n');
	return TRUE;
}

char *
mg_first_contact_conf(
    MgCatalogue *catalogue, MgRandom *rng, guint draws, gint64 now, GError **error)
{
	g_autoptr(GString) out = g_string_new(
	    "# Written by macguise at boot, or by macguised where it is missing or lists a\n"
	    "# block macguise no longer draws; drawn anew each boot (see macguised(8)).\n"
	    "# A profile that names no MAC address comes up with a random address in a\n"
	    "# common maker's registry block, globally administered, instead of the card's\n"
	    "# own; macguised then keeps it as the profile's first macguise address.\n"
	    "# A profile with cloned-mac-address set (permanent included) is not affected.\n"
	    "# A card whose driver one of the first sections names draws from the makers\n"
	    "# that ship its chip (an Intel radio Intel's blocks, a Realtek one its module\n"
	    "# makers'); any other from the last section's, its class's mix.\n");

	if (!mg_first_contact_driver_sections(out, catalogue, rng, draws, now, error))
		return NULL;
	g_string_append(out,
			"[" MG_FIRST_CONTACT_GROUP "]\n"
			/* Only the devices macguise manages profiles of (veth: a
			 * container's card). Bridges, bonds, teams, VLANs, macvlans,
			 * tunnels… take the global ethernet.cloned-mac-address too, but
			 * macguised never keeps an address drawn there: they would get
			 * a new one each activation. */
			"match-device=" MG_FIRST_CONTACT_DEVICES "\n");
	if (!mg_first_contact_mask(out,
				   "ethernet",
				   catalogue,
				   rng,
				   MG_DEVICE_CLASS_ETHERNET,
				   NULL,
				   draws,
				   now,
				   error) ||
	    !mg_first_contact_mask(
		out, "wifi", catalogue, rng, MG_DEVICE_CLASS_WIFI, NULL, draws, now, error))
		return NULL;
	return g_string_free(g_steal_pointer(&out), FALSE);
}

/* Whether @key's mask lists only blocks a draw for @device_class at @now
 * could give (at least one). */
static gboolean
mg_first_contact_mask_current(GKeyFile *kf,
			      const char *group,
			      const char *key,
			      MgCatalogue *catalogue,
			      MgDeviceClass device_class,
			      const MgDriverMix *mix,
			      gint64 now)
{
	g_autofree char *random_key = g_strconcat(key, ".cloned-mac-address", NULL);
	g_autofree char *mask_key = g_strconcat(key, ".generate-mac-address-mask", NULL);
	g_autofree char *cloned = g_key_file_get_string(kf, group, random_key, NULL);
	g_autofree char *mask = g_key_file_get_string(kf, group, mask_key, NULL);
	g_auto(GStrv) words = NULL;

	if (g_strcmp0(cloned, "random") != 0 || mask == NULL)
		return FALSE;
	words = g_strsplit_set(g_strstrip(mask), " ", -1);
	if (g_strcmp0(words[0], MG_FIRST_CONTACT_MASK) != 0 || words[1] == NULL)
		return FALSE;
	for (guint i = 1; words[i] != NULL; i++) {
		const MgCatalogueEntry *e;
		MgMac oui;
		if (!mg_mac_parse(words[i], &oui, NULL))
			return FALSE;
		oui.octet[5] = 1; /* a serial in the block: the lookup wants an address */
		e = mg_catalogue_lookup(catalogue, &oui);
		if (!mg_whole_oui_entry(e) || mg_vendor_weight(e->vendor, device_class) == 0 ||
		    mg_block_draw_weight(e, device_class, now) == 0 ||
		    (mix != NULL && mg_driver_mix_weight(mix, e->vendor) == 0))
			return FALSE;
	}
	return TRUE;
}

/* Every mix has its section, for its drivers, listing only its makers'
 * blocks (a file from before the per-driver mixes is not current). */
static gboolean
mg_first_contact_drivers_current(GKeyFile *kf, MgCatalogue *catalogue, gint64 now)
{
	GPtrArray *mixes = mg_catalogue_get_driver_mixes(catalogue);

	for (guint i = 0; i < mixes->len; i++) {
		const MgDriverMix *mix = g_ptr_array_index(mixes, i);
		g_autofree char *group =
		    g_strconcat(MG_FIRST_CONTACT_GROUP, "-driver-", mix->id, NULL);
		g_autofree char *devices = mg_first_contact_devices(mix);
		g_autofree char *listed = g_key_file_get_string(kf, group, "match-device", NULL);

		if (mix->device_class != MG_DEVICE_CLASS_WIFI &&
		    mix->device_class != MG_DEVICE_CLASS_ETHERNET)
			continue;
		if (g_strcmp0(listed, devices) != 0 ||
		    !mg_first_contact_mask_current(kf,
						   group,
						   mg_first_contact_key(mix->device_class),
						   catalogue,
						   mix->device_class,
						   mix,
						   now))
			return FALSE;
	}
	return TRUE;
}

gboolean
mg_first_contact_conf_is_current(MgCatalogue *catalogue, const char *text, gint64 now)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *devices = NULL;

	if (!g_key_file_load_from_data(kf, text, (gsize)-1, G_KEY_FILE_NONE, NULL))
		return FALSE;
	/* an earlier package's file may apply to other devices */
	devices = g_key_file_get_string(kf, MG_FIRST_CONTACT_GROUP, "match-device", NULL);
	return g_strcmp0(devices, MG_FIRST_CONTACT_DEVICES) == 0 &&
	       mg_first_contact_mask_current(kf,
					     MG_FIRST_CONTACT_GROUP,
					     "ethernet",
					     catalogue,
					     MG_DEVICE_CLASS_ETHERNET,
					     NULL,
					     now) &&
	       mg_first_contact_mask_current(kf,
					     MG_FIRST_CONTACT_GROUP,
					     "wifi",
					     catalogue,
					     MG_DEVICE_CLASS_WIFI,
					     NULL,
					     now) &&
	       mg_first_contact_drivers_current(kf, catalogue, now);
}
