/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-catalogue"

#include "config.h"

#include "mg-catalogue.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-catalogue-private.h"
#include "mg-error.h"

#define MG_CATALOGUE_RESOURCE "/org/macguise/vendors.table"

static void
mg_vendor_free(MgVendor *vendor)
{
	g_free(vendor->id);
	g_free(vendor->name);
	g_ptr_array_unref(vendor->organizations);
	for (guint i = 0; i < MG_DEVICE_CLASS_COUNT; i++)
		g_free(vendor->weight_source[i]);
	g_free(vendor->products);
	g_ptr_array_unref(vendor->entries);
	g_free(vendor);
}

static void
mg_catalogue_entry_free(MgCatalogueEntry *entry)
{
	g_free(entry->why);
	g_free(entry);
}

void
mg_catalogue_free(MgCatalogue *catalogue)
{
	if (catalogue == NULL)
		return;
	g_hash_table_unref(catalogue->by_oui);
	g_ptr_array_unref(catalogue->drivers);
	g_ptr_array_unref(catalogue->entries);
	g_ptr_array_unref(catalogue->vendors);
	g_free(catalogue);
}

static const struct {
	const char *name;
	MgDeviceClass device_class;
} mg_device_class_names[] = {
	{ "wifi", MG_DEVICE_CLASS_WIFI },
	{ "ethernet", MG_DEVICE_CLASS_ETHERNET },
	{ "ap", MG_DEVICE_CLASS_AP },
};

gboolean
mg_device_class_parse(const char *text, MgDeviceClass *device_class, GError **error)
{
	for (guint i = 0; i < G_N_ELEMENTS(mg_device_class_names); i++) {
		if (g_strcmp0(text, mg_device_class_names[i].name) == 0) {
			*device_class = mg_device_class_names[i].device_class;
			return TRUE;
		}
	}
	g_set_error(error,
		    MG_ERROR,
		    MG_ERROR_CATALOGUE,
		    _("unknown device class '%s' (expected wifi, ethernet or ap)"),
		    text);
	return FALSE;
}

const char *
mg_device_class_to_string(MgDeviceClass device_class)
{
	/* Indexed by the flags: every combination has its static text. */
	static const char *const names[] = {
		"none", "wifi",    "ethernet",    "wifi,ethernet",
		"ap",   "wifi,ap", "ethernet,ap", "wifi,ethernet,ap",
	};
	return (guint)device_class < G_N_ELEMENTS(names) ? names[device_class] : "none";
}

const MgDeviceClass mg_device_classes[MG_DEVICE_CLASS_COUNT] = {
	MG_DEVICE_CLASS_WIFI,
	MG_DEVICE_CLASS_ETHERNET,
	MG_DEVICE_CLASS_AP,
};

guint
mg_device_class_index(MgDeviceClass device_class)
{
	g_return_val_if_fail(device_class == MG_DEVICE_CLASS_WIFI ||
				 device_class == MG_DEVICE_CLASS_ETHERNET ||
				 device_class == MG_DEVICE_CLASS_AP,
			     0);
	return device_class == MG_DEVICE_CLASS_WIFI       ? 0
	       : device_class == MG_DEVICE_CLASS_ETHERNET ? 1
							  : 2;
}

guint
mg_vendor_weight(const MgVendor *vendor, MgDeviceClass device_class)
{
	return vendor->weight[mg_device_class_index(device_class)];
}

const char *
mg_vendor_weight_source(const MgVendor *vendor, MgDeviceClass device_class)
{
	return vendor->weight_source[mg_device_class_index(device_class)];
}

const char *
mg_era_to_string(MgEra era)
{
	return era == MG_ERA_LEGACY ? "legacy" : "current";
}

/* Each 24-bit OUI maps to the rows inside it; a block listed twice, or a
 * block inside another listed block, would make lookups and weights lie. */
static gboolean
mg_catalogue_index(MgCatalogue *catalogue, GError **error)
{
	for (guint i = 0; i < catalogue->entries->len; i++) {
		MgCatalogueEntry *e = g_ptr_array_index(catalogue->entries, i);
		MgMac first;
		GPtrArray *bucket;
		gpointer key;

		mg_prefix_make_mac(&e->prefix, 0, &first);
		key = GUINT_TO_POINTER(mg_mac_oui(&first));
		bucket = g_hash_table_lookup(catalogue->by_oui, key);
		if (bucket == NULL) {
			bucket = g_ptr_array_new();
			g_hash_table_insert(catalogue->by_oui, key, bucket);
		}
		for (guint j = 0; j < bucket->len; j++) {
			const MgCatalogueEntry *o = g_ptr_array_index(bucket, j);
			const MgPrefix *shorter =
			    o->prefix.bits <= e->prefix.bits ? &o->prefix : &e->prefix;
			const MgPrefix *longer = shorter == &o->prefix ? &e->prefix : &o->prefix;
			MgMac longer_first;
			mg_prefix_make_mac(longer, 0, &longer_first);
			if (mg_prefix_contains(shorter, &longer_first)) {
				g_autofree char *a = mg_prefix_to_string(&e->prefix);
				g_autofree char *b = mg_prefix_to_string(&o->prefix);
				g_set_error(error,
					    MG_ERROR,
					    MG_ERROR_CATALOGUE,
					    _("line %u: block %s overlaps block %s on line %u"),
					    e->line,
					    a,
					    b,
					    o->line);
				return FALSE;
			}
		}
		g_ptr_array_add(bucket, e);
	}
	return TRUE;
}

MgCatalogue *
mg_catalogue_new_from_data(const char *text, gsize len, GError **error)
{
	g_autoptr(MgCatalogue) catalogue = g_new0(MgCatalogue, 1);
	g_autofree char *copy = NULL;
	g_auto(GStrv) lines = NULL;

	catalogue->vendors = g_ptr_array_new_with_free_func((GDestroyNotify)mg_vendor_free);
	catalogue->entries =
	    g_ptr_array_new_with_free_func((GDestroyNotify)mg_catalogue_entry_free);
	catalogue->by_oui =
	    g_hash_table_new_full(NULL, NULL, NULL, (GDestroyNotify)g_ptr_array_unref);
	catalogue->drivers = g_ptr_array_new_with_free_func((GDestroyNotify)mg_driver_mix_free);

	if (!g_utf8_validate_len(text, len, NULL) || memchr(text, '\0', len) != NULL) {
		g_set_error_literal(error,
				    MG_ERROR,
				    MG_ERROR_CATALOGUE,
				    _("the vendor table is not valid UTF-8 text"));
		return NULL;
	}
	copy = g_strndup(text, len);
	lines = g_strsplit(copy, "\n", -1);
	if (!mg_catalogue_parse_lines(catalogue, lines, error))
		return NULL;
	if (!mg_catalogue_index(catalogue, error))
		return NULL;
	return g_steal_pointer(&catalogue);
}

MgCatalogue *
mg_catalogue_new_builtin(GError **error)
{
	g_autoptr(GBytes) bytes = NULL;
	gsize len = 0;
	const char *data;
	MgCatalogue *catalogue;

	bytes = g_resources_lookup_data(MG_CATALOGUE_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
	if (bytes == NULL) {
		g_prefix_error(error, _("the built-in vendor table is missing: "));
		return NULL;
	}
	data = g_bytes_get_data(bytes, &len);
	catalogue = mg_catalogue_new_from_data(data, len, error);
	if (catalogue == NULL)
		g_prefix_error(error, _("the built-in vendor table is broken: "));
	return catalogue;
}

GPtrArray *
mg_catalogue_get_vendors(MgCatalogue *catalogue)
{
	return catalogue->vendors;
}

GPtrArray *
mg_catalogue_get_entries(MgCatalogue *catalogue)
{
	return catalogue->entries;
}

const MgVendor *
mg_catalogue_find_vendor(MgCatalogue *catalogue, const char *name)
{
	for (guint i = 0; i < catalogue->vendors->len; i++) {
		const MgVendor *v = g_ptr_array_index(catalogue->vendors, i);
		if (g_ascii_strcasecmp(v->id, name) == 0 ||
		    (v->name != NULL && g_ascii_strcasecmp(v->name, name) == 0))
			return v;
	}
	return NULL;
}

const MgCatalogueEntry *
mg_catalogue_lookup(MgCatalogue *catalogue, const MgMac *mac)
{
	GPtrArray *bucket =
	    g_hash_table_lookup(catalogue->by_oui, GUINT_TO_POINTER(mg_mac_oui(mac)));
	if (bucket == NULL)
		return NULL;
	/* The index refuses overlapping blocks, so at most one row matches. */
	for (guint i = 0; i < bucket->len; i++) {
		const MgCatalogueEntry *e = g_ptr_array_index(bucket, i);
		if (mg_prefix_contains(&e->prefix, mac))
			return e;
	}
	return NULL;
}
