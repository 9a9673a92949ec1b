/* SPDX-License-Identifier: GPL-3.0-or-later */
/* NetworkManager's own address choices (cloned-mac-address random, stable,
 * stable-ssid, shaped by generate-mac-address-mask): a user's deliberate
 * choice, which macguised leaves alone. The audit says what each shows a
 * network, as advice: `harden` does not take it over. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-audit-private.h"
#include "mg-mac.h"

#define MG_MAC_BIT_LOCAL 0x02
#define MG_OUI_BYTES 3

static gboolean
mg_mask_covers_maker(const MgMac *mask)
{
	for (guint i = 0; i < MG_OUI_BYTES; i++) {
		/* the group bit is NetworkManager's to clear; the rest counts */
		guint8 need = i == 0 ? 0xfe : 0xff;
		if ((mask->octet[i] & need) != need)
			return FALSE;
	}
	return TRUE;
}

/* As NetworkManager applies it (nm-core-utils.c, _hw_addr_eth_complete):
 * the bits set in the mask come from one of the listed addresses, or from
 * the card's own when none is listed; the others are random, and the
 * locally-administered bit is set unless the mask takes it too. An
 * unparsable mask is ignored, as NetworkManager ignores it. */
MgNmMacLook
mg_nm_mac_look(const char *mask)
{
	g_auto(GStrv) words = NULL;
	g_autoptr(GPtrArray) parts = g_ptr_array_new();
	MgMac m;
	gboolean all_global = TRUE;

	if (mask == NULL)
		return MG_NM_MAC_LOCAL;
	words = g_strsplit_set(mask, " \t\n,;", -1);
	for (guint i = 0; words[i] != NULL; i++) {
		if (words[i][0] != '\0')
			g_ptr_array_add(parts, words[i]);
	}
	if (parts->len == 0 || !mg_mac_parse(g_ptr_array_index(parts, 0), &m, NULL) ||
	    (m.octet[0] & MG_MAC_BIT_LOCAL) == 0)
		return MG_NM_MAC_LOCAL;
	for (guint i = 1; i < parts->len; i++) {
		MgMac oui;
		if (!mg_mac_parse(g_ptr_array_index(parts, i), &oui, NULL))
			return MG_NM_MAC_LOCAL;
		all_global &= !mg_mac_is_locally_administered(&oui);
	}
	/* The card's own address is globally administered. */
	if (!all_global)
		return MG_NM_MAC_LOCAL;
	if (!mg_mask_covers_maker(&m))
		return MG_NM_MAC_UNREGISTERED;
	return parts->len > 1 ? MG_NM_MAC_LISTED_MAKER : MG_NM_MAC_OWN_MAKER;
}

static const char *
mg_nm_mac_look_words(MgNmMacLook look)
{
	switch (look) {
	case MG_NM_MAC_OWN_MAKER:
		return _("its mask keeps the maker part of the card's own address, so every "
			 "network learns who made the card");
	case MG_NM_MAC_LISTED_MAKER:
		return _("its mask takes the maker part from the addresses it lists: as "
			 "plausible as those makers are common");
	case MG_NM_MAC_UNREGISTERED:
		return _("its mask clears the locally-administered bit but leaves part of the "
			 "maker part random, which gives a maker no registry lists");
	case MG_NM_MAC_LOCAL:
	default:
		return _("it carries the locally-administered bit, which tells every network "
			 "the address is made up");
	}
}

gboolean
mg_nm_mac_is_choice(const char *cloned)
{
	return g_strcmp0(cloned, "random") == 0 || g_strcmp0(cloned, "stable") == 0 ||
	       g_strcmp0(cloned, "stable-ssid") == 0;
}

gboolean
mg_audit_nm_mac_choice(GPtrArray *out, const MgAuditInput *in, const char *setting)
{
	const char *look = mg_nm_mac_look_words(mg_nm_mac_look(in->mac_mask));
	const char *id;
	g_autofree char *message = NULL;

	if (g_strcmp0(in->cloned, "random") == 0) {
		id = "mac-nm-random";
		/* TRANSLATORS: %s says what the address shows, e.g. "it carries the
		 * locally-administered bit, …" */
		message = g_strdup_printf(
		    _("NetworkManager makes a new address at every connection (random, your "
		      "choice, which macguise leaves alone); %s"),
		    look);
	} else if (g_strcmp0(in->cloned, "stable") == 0) {
		id = "mac-nm-stable";
		message = g_strdup_printf(
		    _("NetworkManager keeps one made-up address for this profile for good "
		      "(stable, your choice, which macguise leaves alone): every network it "
		      "joins can tell each visit is the same machine; %s"),
		    look);
	} else if (g_strcmp0(in->cloned, "stable-ssid") == 0) {
		id = "mac-nm-stable-ssid";
		message = g_strdup_printf(
		    _("NetworkManager keeps one made-up address per network name for good "
		      "(stable-ssid, your choice, which macguise leaves alone): each network "
		      "knows the machine again on every visit; %s"),
		    look);
	} else {
		return FALSE;
	}
	mg_audit_add(out, in, id, MG_SEVERITY_LOW, setting, "", message)->advice = TRUE;
	return TRUE;
}
