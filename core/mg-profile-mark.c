/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-profile-mark.h"

#include <sodium.h>
#include <string.h>

#define MG_MARK_BYTES 16
static const char mg_mark_context[] = "macguise profile mark v1";

char *
mg_profile_mark(const char *uuid, const MgMac *mac)
{
	crypto_generichash_state h;
	guint8 out[MG_MARK_BYTES];
	char hex[2 * MG_MARK_BYTES + 1];
	/* the UUID in one case, as NetworkManager may report either */
	g_autofree char *lower = g_ascii_strdown(uuid, -1);

	crypto_generichash_init(&h, NULL, 0, sizeof(out));
	crypto_generichash_update(&h, (const guint8 *)mg_mark_context, sizeof(mg_mark_context));
	crypto_generichash_update(&h, (const guint8 *)lower, strlen(lower) + 1);
	crypto_generichash_update(&h, mac->octet, sizeof(mac->octet));
	crypto_generichash_final(&h, out, sizeof(out));
	sodium_bin2hex(hex, sizeof(hex), out, sizeof(out));
	return g_strdup(hex);
}

gboolean
mg_profile_mark_matches(const char *mark, const char *uuid, const MgMac *mac)
{
	g_autofree char *expected = NULL;

	if (mark == NULL || uuid == NULL || strlen(mark) != 2 * MG_MARK_BYTES)
		return FALSE;
	expected = mg_profile_mark(uuid, mac);
	return g_ascii_strcasecmp(mark, expected) == 0;
}
