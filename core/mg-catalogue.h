/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-mac.h"

G_BEGIN_DECLS

/* The kind of interface an address is for. Flags: a row may fit several. */
typedef enum {
	MG_DEVICE_CLASS_NONE = 0,
	MG_DEVICE_CLASS_WIFI = 1 << 0,
	MG_DEVICE_CLASS_ETHERNET = 1 << 1,
	MG_DEVICE_CLASS_AP = 1 << 2, /* a Wi-Fi access point: consumer APs and home routers */
} MgDeviceClass;

#define MG_DEVICE_CLASS_ALL (MG_DEVICE_CLASS_WIFI | MG_DEVICE_CLASS_ETHERNET | MG_DEVICE_CLASS_AP)
/* The classes whose address is a Wi-Fi profile's (802-11-wireless) setting. */
#define MG_DEVICE_CLASS_WIRELESS (MG_DEVICE_CLASS_WIFI | MG_DEVICE_CLASS_AP)

typedef enum {
	MG_ERA_CURRENT, /* plausible on a machine bought today */
	MG_ERA_LEGACY,  /* an old block: an address from it would stand out */
} MgEra;

typedef struct _MgVendor MgVendor;

/* The device classes as array indices, for per-class values. */
#define MG_DEVICE_CLASS_COUNT 3

typedef struct {
	MgPrefix prefix;
	const MgVendor *vendor;
	MgDeviceClass classes;
	MgEra era;
	guint64 serial_min; /* inclusive range the serial is drawn from */
	guint64 serial_max;
	gint64 registered; /* first seen registered: 00:00 UTC that day, Unix seconds */
	char *why;         /* reason for an exception, or NULL */
	guint line;        /* where it stands in the table */
} MgCatalogueEntry;

struct _MgVendor {
	char *id;
	char *name;
	GPtrArray *organizations; /* char*: the IEEE registry's spellings */
	MgDeviceClass classes;
	guint weight[MG_DEVICE_CLASS_COUNT];        /* per class: its share of the draws */
	char *weight_source[MG_DEVICE_CLASS_COUNT]; /* how the weight was derived */
	char *products;
	GPtrArray *entries; /* MgCatalogueEntry*, owned by the catalogue */
	guint line;
};

/* One maker's share of a chip family's draws. */
typedef struct {
	const MgVendor *vendor;
	guint weight;
	char *source; /* how the weight was derived */
} MgDriverWeight;

/* The makers whose blocks the cards of one chip family carry: a Wi-Fi card
 * with a Realtek chip carries its module maker's block, never Intel's. */
typedef struct {
	char *id;
	MgDeviceClass device_class; /* one class */
	GStrv match;                /* driver names as NetworkManager reports them; globs */
	char *products;
	GPtrArray *weights; /* MgDriverWeight* */
	GPtrArray *notes;   /* char*: evidence left out, and why */
	guint line;
} MgDriverMix;

typedef struct _MgCatalogue MgCatalogue;

/* The source of a weight that counts the vendor's registry blocks. */
#define MG_WEIGHT_SOURCE_IEEE_BLOCKS "ieee-blocks"

MgCatalogue *mg_catalogue_new_from_data(const char *text, gsize len, GError **error);
/* The checked table embedded in the binary. */
MgCatalogue *mg_catalogue_new_builtin(GError **error);
void mg_catalogue_free(MgCatalogue *catalogue);

GPtrArray *mg_catalogue_get_vendors(MgCatalogue *catalogue);
GPtrArray *mg_catalogue_get_entries(MgCatalogue *catalogue);
/* By id or by name, case-insensitive. */
const MgVendor *mg_catalogue_find_vendor(MgCatalogue *catalogue, const char *name);
/* The most specific row whose block holds @mac, or NULL. */
const MgCatalogueEntry *mg_catalogue_lookup(MgCatalogue *catalogue, const MgMac *mac);

GPtrArray *mg_catalogue_get_driver_mixes(MgCatalogue *catalogue);
/* The mix of @device_class whose match list takes @driver (as NetworkManager
 * reports it in GENERAL.DRIVER), or NULL: the class's mix then serves. */
const MgDriverMix *mg_catalogue_find_driver_mix(MgCatalogue *catalogue,
						MgDeviceClass device_class,
						const char *driver);
/* By the mix's id ("rtw89"), case-insensitive, or NULL. */
const MgDriverMix *mg_catalogue_find_driver_mix_id(MgCatalogue *catalogue, const char *id);
/* @vendor's weight in @mix, 0 when it has none. */
guint mg_driver_mix_weight(const MgDriverMix *mix, const MgVendor *vendor);

/* Each single class, in the order of per-class arrays. */
extern const MgDeviceClass mg_device_classes[MG_DEVICE_CLASS_COUNT];
/* The index of one class (WIFI, ETHERNET or AP) in per-class arrays. */
guint mg_device_class_index(MgDeviceClass device_class);
/* The vendor's weight for one class, 0 when it has none; its source or NULL. */
guint mg_vendor_weight(const MgVendor *vendor, MgDeviceClass device_class);
const char *mg_vendor_weight_source(const MgVendor *vendor, MgDeviceClass device_class);

gboolean mg_device_class_parse(const char *text, MgDeviceClass *device_class, GError **error);
/* "wifi", "ethernet", "ap" or a comma-separated set ("wifi,ethernet"); static. */
const char *mg_device_class_to_string(MgDeviceClass device_class);
const char *mg_era_to_string(MgEra era);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgCatalogue, mg_catalogue_free)

G_END_DECLS
