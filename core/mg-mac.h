/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MG_MAC_LEN 6
/* "aa:bb:cc:dd:ee:ff" and its NUL */
#define MG_MAC_STRLEN 18

/* A 48-bit IEEE 802 MAC address, network byte order. */
typedef struct {
	guint8 octet[MG_MAC_LEN];
} MgMac;

/* The size of an IEEE registry block: how many leading bits it fixes. */
typedef enum {
	MG_BLOCK_MA_L = 24, /* OUI, 6 hex digits */
	MG_BLOCK_MA_M = 28, /* 7 hex digits */
	MG_BLOCK_MA_S = 36, /* OUI-36, 9 hex digits */
} MgBlockSize;

/* A registry block: the first @bits bits of an address. */
typedef struct {
	guint64 value; /* the fixed bits, right-aligned */
	MgBlockSize bits;
} MgPrefix;

gboolean mg_mac_parse(const char *text, MgMac *mac, GError **error);
void mg_mac_format(const MgMac *mac, char buf[MG_MAC_STRLEN]);
char *mg_mac_to_string(const MgMac *mac);

guint64 mg_mac_to_u64(const MgMac *mac);
void mg_mac_from_u64(guint64 value, MgMac *mac);

gboolean mg_mac_is_multicast(const MgMac *mac);
gboolean mg_mac_is_locally_administered(const MgMac *mac);
/* Unicast and globally administered: the only kind macguise hands out. */
gboolean mg_mac_is_global_unicast(const MgMac *mac);
gboolean mg_mac_is_zero(const MgMac *mac);
gboolean mg_mac_equal(const MgMac *a, const MgMac *b);
guint32 mg_mac_oui(const MgMac *mac);

/* "MA-L", "MA-M" or "MA-S": the registry a block of this size is in. */
const char *mg_block_size_to_string(MgBlockSize bits);
gboolean mg_prefix_parse(const char *text, MgPrefix *prefix, GError **error);
/* Registry notation: upper-case hex digits, no separators ("8CF8C5"). */
char *mg_prefix_to_string(const MgPrefix *prefix);
/* The prefix as a colon address fragment for people ("8c:f8:c5", "64:62:66:d"). */
char *mg_prefix_to_display(const MgPrefix *prefix);
guint mg_prefix_serial_bits(const MgPrefix *prefix);
gboolean mg_prefix_contains(const MgPrefix *prefix, const MgMac *mac);
guint64 mg_mac_serial(const MgPrefix *prefix, const MgMac *mac);
void mg_prefix_make_mac(const MgPrefix *prefix, guint64 serial, MgMac *mac);

G_END_DECLS
