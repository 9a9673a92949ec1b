/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-mac"

#include "config.h"

#include "mg-mac.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-error.h"

/* Collects exactly 12 hex digits from @text in one of the notations people
 * paste: colon or dash separated octets, Cisco dotted quads, or bare. The
 * separator must be used consistently and only where the notation puts it. */
static gboolean
mg_mac_collect_digits(const char *text, char digits[13], GError **error)
{
	gsize len = strlen(text);
	char sep = '\0';
	guint group = 0; /* digits per group in this notation */
	guint n = 0;

	if (len == 17 && (text[2] == ':' || text[2] == '-')) {
		sep = text[2];
		group = 2;
	} else if (len == 14 && text[4] == '.') {
		sep = '.';
		group = 4;
	} else if (len == 12) {
		group = 12;
	} else {
		g_set_error(
		    error,
		    MG_ERROR,
		    MG_ERROR_INVALID_MAC,
		    _("'%s' is not a MAC address: expected six octets such as "
		      "aa:bb:cc:dd:ee:ff, aa-bb-cc-dd-ee-ff, aabb.ccdd.eeff or aabbccddeeff"),
		    text);
		return FALSE;
	}
	for (gsize i = 0; i < len; i++) {
		gboolean at_separator = sep != '\0' && (i + 1) % (group + 1) == 0;
		if (at_separator) {
			if (text[i] != sep) {
				g_set_error(
				    error,
				    MG_ERROR,
				    MG_ERROR_INVALID_MAC,
				    _("'%s' is not a MAC address: expected '%c' at position %u"),
				    text,
				    sep,
				    (guint)i + 1);
				return FALSE;
			}
			continue;
		}
		if (!g_ascii_isxdigit(text[i])) {
			g_set_error(
			    error,
			    MG_ERROR,
			    MG_ERROR_INVALID_MAC,
			    _("'%s' is not a MAC address: '%c' at position %u is not a hex digit"),
			    text,
			    g_ascii_isprint(text[i]) ? text[i] : '?',
			    (guint)i + 1);
			return FALSE;
		}
		digits[n++] = text[i];
	}
	digits[n] = '\0';
	return TRUE;
}

gboolean
mg_mac_parse(const char *text, MgMac *mac, GError **error)
{
	char digits[13];

	g_return_val_if_fail(text != NULL, FALSE);
	g_return_val_if_fail(mac != NULL, FALSE);

	if (!mg_mac_collect_digits(text, digits, error))
		return FALSE;
	for (guint i = 0; i < MG_MAC_LEN; i++)
		mac->octet[i] = (guint8)(g_ascii_xdigit_value(digits[2 * i]) << 4 |
					 g_ascii_xdigit_value(digits[2 * i + 1]));
	return TRUE;
}

void
mg_mac_format(const MgMac *mac, char buf[MG_MAC_STRLEN])
{
	g_snprintf(buf,
		   MG_MAC_STRLEN,
		   "%02x:%02x:%02x:%02x:%02x:%02x",
		   mac->octet[0],
		   mac->octet[1],
		   mac->octet[2],
		   mac->octet[3],
		   mac->octet[4],
		   mac->octet[5]);
}

char *
mg_mac_to_string(const MgMac *mac)
{
	char buf[MG_MAC_STRLEN];
	mg_mac_format(mac, buf);
	return g_strdup(buf);
}

guint64
mg_mac_to_u64(const MgMac *mac)
{
	guint64 v = 0;
	for (guint i = 0; i < MG_MAC_LEN; i++)
		v = v << 8 | mac->octet[i];
	return v;
}

void
mg_mac_from_u64(guint64 value, MgMac *mac)
{
	for (gint i = MG_MAC_LEN - 1; i >= 0; i--) {
		mac->octet[i] = (guint8)(value & 0xff);
		value >>= 8;
	}
}

/* Bit 0 of the first octet on the wire is the I/G (group) bit. */
gboolean
mg_mac_is_multicast(const MgMac *mac)
{
	return (mac->octet[0] & 0x01) != 0;
}

/* Bit 1 of the first octet is the U/L bit: set means locally administered,
 * which is what tells every observer an address was made up. */
gboolean
mg_mac_is_locally_administered(const MgMac *mac)
{
	return (mac->octet[0] & 0x02) != 0;
}

gboolean
mg_mac_is_global_unicast(const MgMac *mac)
{
	return !mg_mac_is_multicast(mac) && !mg_mac_is_locally_administered(mac);
}

gboolean
mg_mac_is_zero(const MgMac *mac)
{
	return mg_mac_to_u64(mac) == 0;
}

gboolean
mg_mac_equal(const MgMac *a, const MgMac *b)
{
	return memcmp(a->octet, b->octet, MG_MAC_LEN) == 0;
}

guint32
mg_mac_oui(const MgMac *mac)
{
	return (guint32)mac->octet[0] << 16 | (guint32)mac->octet[1] << 8 | mac->octet[2];
}

const char *
mg_block_size_to_string(MgBlockSize bits)
{
	switch (bits) {
	case MG_BLOCK_MA_L:
		return "MA-L";
	case MG_BLOCK_MA_M:
		return "MA-M";
	case MG_BLOCK_MA_S:
		return "MA-S";
	default:
		g_return_val_if_reached("?");
	}
}

gboolean
mg_prefix_parse(const char *text, MgPrefix *prefix, GError **error)
{
	gsize len;
	guint64 v = 0;

	g_return_val_if_fail(text != NULL, FALSE);
	g_return_val_if_fail(prefix != NULL, FALSE);

	len = strlen(text);
	if (len != 6 && len != 7 && len != 9) {
		g_set_error(
		    error,
		    MG_ERROR,
		    MG_ERROR_INVALID_PREFIX,
		    _("'%s' is not a registry block: expected 6 (MA-L), 7 (MA-M) or 9 (MA-S) "
		      "hex digits"),
		    text);
		return FALSE;
	}
	for (gsize i = 0; i < len; i++) {
		if (!g_ascii_isxdigit(text[i])) {
			g_set_error(error,
				    MG_ERROR,
				    MG_ERROR_INVALID_PREFIX,
				    _("'%s' is not a registry block: '%c' is not a hex digit"),
				    text,
				    g_ascii_isprint(text[i]) ? text[i] : '?');
			return FALSE;
		}
		v = v << 4 | (guint64)g_ascii_xdigit_value(text[i]);
	}
	prefix->value = v;
	prefix->bits = len == 6 ? MG_BLOCK_MA_L : len == 7 ? MG_BLOCK_MA_M : MG_BLOCK_MA_S;
	return TRUE;
}

char *
mg_prefix_to_string(const MgPrefix *prefix)
{
	return g_strdup_printf("%0*" G_GINT64_MODIFIER "X", (int)prefix->bits / 4, prefix->value);
}

char *
mg_prefix_to_display(const MgPrefix *prefix)
{
	g_autofree char *upper = mg_prefix_to_string(prefix);
	g_autofree char *hex = g_ascii_strdown(upper, -1);
	GString *out = g_string_new(NULL);
	for (gsize i = 0; hex[i] != '\0'; i++) {
		if (i > 0 && i % 2 == 0)
			g_string_append_c(out, ':');
		g_string_append_c(out, hex[i]);
	}
	return g_string_free(out, FALSE);
}

guint
mg_prefix_serial_bits(const MgPrefix *prefix)
{
	return 48 - (guint)prefix->bits;
}

gboolean
mg_prefix_contains(const MgPrefix *prefix, const MgMac *mac)
{
	return mg_mac_to_u64(mac) >> mg_prefix_serial_bits(prefix) == prefix->value;
}

guint64
mg_mac_serial(const MgPrefix *prefix, const MgMac *mac)
{
	return mg_mac_to_u64(mac) & ((G_GUINT64_CONSTANT(1) << mg_prefix_serial_bits(prefix)) - 1);
}

void
mg_prefix_make_mac(const MgPrefix *prefix, guint64 serial, MgMac *mac)
{
	guint sbits = mg_prefix_serial_bits(prefix);
	g_return_if_fail(serial < G_GUINT64_CONSTANT(1) << sbits);
	mg_mac_from_u64(prefix->value << sbits | serial, mac);
}
