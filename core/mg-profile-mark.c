/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-profile-mark.h"

#include <sodium.h>
#include <string.h>

#define MG_MARK_DIGEST_BYTES 16
static const char mg_mark_context[] = "macguise profile mark v1";

/* The whole digest, in hex: what macguise before the short mark wrote. */
static void
mg_profile_mark_full(const char *uuid, const MgMac *mac, char hex[2 * MG_MARK_DIGEST_BYTES + 1])
{
	crypto_generichash_state h;
	guint8 out[MG_MARK_DIGEST_BYTES];
	/* the UUID in one case, as NetworkManager may report either */
	g_autofree char *lower = g_ascii_strdown(uuid, -1);

	crypto_generichash_init(&h, NULL, 0, sizeof(out));
	crypto_generichash_update(&h, (const guint8 *)mg_mark_context, sizeof(mg_mark_context));
	crypto_generichash_update(&h, (const guint8 *)lower, strlen(lower) + 1);
	crypto_generichash_update(&h, mac->octet, sizeof(mac->octet));
	crypto_generichash_final(&h, out, sizeof(out));
	sodium_bin2hex(hex, 2 * MG_MARK_DIGEST_BYTES + 1, out, sizeof(out));
}

char *
mg_profile_mark(const char *uuid, const MgMac *mac)
{
	char hex[2 * MG_MARK_DIGEST_BYTES + 1];

	mg_profile_mark_full(uuid, mac, hex);
	return g_strndup(hex, MG_PROFILE_MARK_LEN);
}

gboolean
mg_profile_mark_matches(const char *mark, const char *uuid, const MgMac *mac)
{
	char expected[2 * MG_MARK_DIGEST_BYTES + 1];
	gsize len = mark != NULL ? strlen(mark) : 0;

	if (uuid == NULL || (len != MG_PROFILE_MARK_LEN && len != 2 * MG_MARK_DIGEST_BYTES))
		return FALSE;
	mg_profile_mark_full(uuid, mac, expected);
	return g_ascii_strncasecmp(mark, expected, len) == 0;
}
