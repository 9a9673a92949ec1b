/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-catalogue"

#include "config.h"

#include "mg-catalogue.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-error.h"

#define MG_CATALOGUE_RESOURCE "/org/macguise/vendors.table"

struct _MgCatalogue {
	GPtrArray *vendors; /* MgVendor* */
	GPtrArray *entries; /* MgCatalogueEntry* */
	GHashTable *by_oui; /* first 24 bits -> GPtrArray of MgCatalogueEntry* */
};

static void
mg_vendor_free(MgVendor *vendor)
{
	g_free(vendor->id);
	g_free(vendor->name);
	g_ptr_array_unref(vendor->organizations);
	g_free(vendor->weight_source);
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

const char *
mg_era_to_string(MgEra era)
{
	return era == MG_ERA_LEGACY ? "legacy" : "current";
}

/* Parsing -------------------------------------------------------------- */

typedef struct {
	MgCatalogue *catalogue;
	MgVendor *vendor; /* the block being read */
	guint line;
} MgCatalogueParser;

static gboolean G_GNUC_PRINTF(3, 4)
    mg_catalogue_fail(MgCatalogueParser *parser, GError **error, const char *format, ...)
{
	va_list args;
	g_autofree char *msg = NULL;

	va_start(args, format);
	msg = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error, MG_ERROR, MG_ERROR_CATALOGUE, _("line %u: %s"), parser->line, msg);
	return FALSE;
}

static gboolean
mg_catalogue_parse_classes(MgCatalogueParser *parser,
			   char **words,
			   MgDeviceClass *classes,
			   GError **error)
{
	*classes = MG_DEVICE_CLASS_NONE;
	for (guint i = 0; words[i] != NULL; i++) {
		MgDeviceClass one;
		g_autoptr(GError) local = NULL;
		if (words[i][0] == '\0')
			continue;
		if (!mg_device_class_parse(words[i], &one, &local))
			return mg_catalogue_fail(parser, error, "%s", local->message);
		*classes |= one;
	}
	if (*classes == MG_DEVICE_CLASS_NONE)
		return mg_catalogue_fail(parser, error, _("no device class given"));
	return TRUE;
}

static gboolean
mg_catalogue_parse_serial_range(MgCatalogueParser *parser,
				MgCatalogueEntry *entry,
				const char *value,
				GError **error)
{
	const char *dash = strchr(value, '-');
	g_autofree char *lo = NULL;
	guint64 limit = (G_GUINT64_CONSTANT(1) << mg_prefix_serial_bits(&entry->prefix)) - 1;
	guint64 min, max;

	if (dash == NULL)
		return mg_catalogue_fail(parser, error, _("serial range '%s' is not LO-HI"), value);
	lo = g_strndup(value, (gsize)(dash - value));
	if (!g_ascii_string_to_unsigned(lo, 16, 0, limit, &min, NULL) ||
	    !g_ascii_string_to_unsigned(dash + 1, 16, 0, limit, &max, NULL) || min > max) {
		/* the limit as text: a format macro cannot go into a message */
		g_autofree char *most = g_strdup_printf("%" G_GINT64_MODIFIER "X", limit);
		return mg_catalogue_fail(parser,
					 error,
					 _("serial range '%s' is not an ascending pair of hex "
					   "numbers within the block (at most %s)"),
					 value,
					 most);
	}
	entry->serial_min = min;
	entry->serial_max = max;
	return TRUE;
}

/* One option after a prefix: era=, classes= or serial=. */
static gboolean
mg_catalogue_parse_prefix_option(MgCatalogueParser *parser,
				 MgCatalogueEntry *entry,
				 const char *w,
				 gboolean *era_given,
				 GError **error)
{
	const MgVendor *vendor = parser->vendor;

	if (g_str_has_prefix(w, "era=")) {
		if (g_strcmp0(w + 4, "current") == 0)
			entry->era = MG_ERA_CURRENT;
		else if (g_strcmp0(w + 4, "legacy") == 0)
			entry->era = MG_ERA_LEGACY;
		else
			return mg_catalogue_fail(
			    parser, error, _("era '%s' is neither current nor legacy"), w + 4);
		*era_given = TRUE;
		return TRUE;
	}
	if (g_str_has_prefix(w, "classes=")) {
		g_auto(GStrv) names = g_strsplit(w + strlen("classes="), ",", -1);
		if (!mg_catalogue_parse_classes(parser, names, &entry->classes, error))
			return FALSE;
		if ((entry->classes & ~vendor->classes) != 0)
			return mg_catalogue_fail(
			    parser,
			    error,
			    _("classes=%s is not among the vendor's classes (%s)"),
			    w + strlen("classes="),
			    mg_device_class_to_string(vendor->classes));
		return TRUE;
	}
	if (g_str_has_prefix(w, "serial="))
		return mg_catalogue_parse_serial_range(parser, entry, w + strlen("serial="), error);
	return mg_catalogue_fail(parser, error, _("unknown prefix option '%s'"), w);
}

static gboolean
mg_catalogue_parse_prefix(MgCatalogueParser *parser, const char *rest, GError **error)
{
	MgVendor *vendor = parser->vendor;
	g_autoptr(GError) local = NULL;
	g_autofree char *head = NULL;
	g_autofree char *why = NULL;
	g_auto(GStrv) words = NULL;
	const char *why_at;
	MgCatalogueEntry *entry;
	MgMac first;
	gboolean era_given = FALSE;

	/* why= runs to the end of the line: split it off before the words. */
	why_at = strstr(rest, " why=");
	if (why_at != NULL) {
		head = g_strndup(rest, (gsize)(why_at - rest));
		why = g_strstrip(g_strdup(why_at + strlen(" why=")));
		if (why[0] == '\0')
			return mg_catalogue_fail(parser, error, _("why= is empty"));
	} else {
		head = g_strdup(rest);
	}
	words = g_strsplit_set(g_strstrip(head), " \t", -1);

	entry = g_new0(MgCatalogueEntry, 1);
	g_ptr_array_add(parser->catalogue->entries, entry);
	entry->vendor = vendor;
	entry->classes = vendor->classes;
	entry->era = MG_ERA_CURRENT;
	entry->line = parser->line;
	entry->why = g_steal_pointer(&why);
	if (!mg_prefix_parse(words[0], &entry->prefix, &local))
		return mg_catalogue_fail(parser, error, "%s", local->message);
	entry->serial_min = 0;
	entry->serial_max = (G_GUINT64_CONSTANT(1) << mg_prefix_serial_bits(&entry->prefix)) - 1;

	for (guint i = 1; words[i] != NULL; i++) {
		if (words[i][0] != '\0' &&
		    !mg_catalogue_parse_prefix_option(parser, entry, words[i], &era_given, error))
			return FALSE;
	}

	/* Registered blocks never carry the group or the local bit; a row that
	 * does is a typo, and would make every drawn address fake. */
	mg_prefix_make_mac(&entry->prefix, 0, &first);
	if (!mg_mac_is_global_unicast(&first))
		return mg_catalogue_fail(parser,
					 error,
					 _("%s has the multicast or locally-administered bit set"),
					 words[0]);
	/* 00-xx-xx holds the sequential assignments of the 1980s and 1990s. */
	if (first.octet[0] == 0x00 && !era_given)
		entry->era = MG_ERA_LEGACY;
	if (first.octet[0] == 0x00 && entry->era == MG_ERA_CURRENT && entry->why == NULL)
		return mg_catalogue_fail(
		    parser,
		    error,
		    _("%s is an old 00-xx-xx block marked current without why="),
		    words[0]);
	g_ptr_array_add(vendor->entries, entry);
	return TRUE;
}

static gboolean
mg_catalogue_finish_vendor(MgCatalogueParser *parser, GError **error)
{
	MgVendor *v = parser->vendor;
	const char *missing = NULL;

	if (v == NULL)
		return TRUE;
	if (v->name == NULL)
		missing = "name";
	else if (v->organizations->len == 0)
		missing = "organization";
	else if (v->classes == MG_DEVICE_CLASS_NONE)
		missing = "classes";
	else if (v->weight == 0)
		missing = "weight";
	else if (v->products == NULL)
		missing = "products";
	else if (v->entries->len == 0)
		missing = "prefix";
	if (missing != NULL) {
		g_set_error(error,
			    MG_ERROR,
			    MG_ERROR_CATALOGUE,
			    _("line %u: vendor '%s' has no %s line"),
			    v->line,
			    v->id,
			    missing);
		return FALSE;
	}
	parser->vendor = NULL;
	return TRUE;
}

static gboolean
mg_catalogue_parse_vendor_line(MgCatalogueParser *parser,
			       const char *key,
			       const char *rest,
			       GError **error)
{
	MgVendor *v = parser->vendor;

	if (v == NULL)
		return mg_catalogue_fail(
		    parser, error, _("'%s' before the first vendor line"), key);
	if (rest[0] == '\0')
		return mg_catalogue_fail(parser, error, _("'%s' has no value"), key);

	if (g_strcmp0(key, "prefix") == 0) {
		if (v->classes == MG_DEVICE_CLASS_NONE)
			return mg_catalogue_fail(
			    parser, error, _("prefix before the classes line"));
		return mg_catalogue_parse_prefix(parser, rest, error);
	}
	if (v->entries->len > 0)
		return mg_catalogue_fail(parser, error, _("'%s' after the first prefix line"), key);
	if (g_strcmp0(key, "name") == 0 && v->name == NULL) {
		v->name = g_strdup(rest);
	} else if (g_strcmp0(key, "organization") == 0) {
		g_ptr_array_add(v->organizations, g_strdup(rest));
	} else if (g_strcmp0(key, "products") == 0 && v->products == NULL) {
		v->products = g_strdup(rest);
	} else if (g_strcmp0(key, "classes") == 0 && v->classes == MG_DEVICE_CLASS_NONE) {
		g_auto(GStrv) words = g_strsplit_set(rest, " \t", -1);
		return mg_catalogue_parse_classes(parser, words, &v->classes, error);
	} else if (g_strcmp0(key, "weight") == 0 && v->weight == 0) {
		g_auto(GStrv) words = g_strsplit_set(rest, " \t", 2);
		guint64 w;
		if (!g_ascii_string_to_unsigned(words[0], 10, 1, G_MAXUINT32 / 1024, &w, NULL))
			return mg_catalogue_fail(
			    parser,
			    error,
			    _("weight '%s' is not a whole number from 1 to %u"),
			    words[0],
			    G_MAXUINT32 / 1024);
		if (words[1] == NULL || g_strstrip(words[1])[0] == '\0')
			return mg_catalogue_fail(parser, error, _("weight has no source"));
		v->weight = (guint)w;
		v->weight_source = g_strdup(words[1]);
	} else if (g_strcmp0(key, "name") == 0 || g_strcmp0(key, "products") == 0 ||
		   g_strcmp0(key, "classes") == 0 || g_strcmp0(key, "weight") == 0) {
		return mg_catalogue_fail(parser, error, _("a second '%s' line"), key);
	} else {
		return mg_catalogue_fail(parser, error, _("unknown keyword '%s'"), key);
	}
	return TRUE;
}

static gboolean
mg_catalogue_parse_line(MgCatalogueParser *parser, char *line, GError **error)
{
	gboolean indented = line[0] == ' ' || line[0] == '\t';
	char *key;
	char *rest;

	g_strstrip(line);
	if (line[0] == '\0' || line[0] == '#')
		return TRUE;
	key = line;
	rest = key + strcspn(key, " \t");
	if (*rest != '\0')
		*rest++ = '\0';
	rest = g_strstrip(rest);

	if (indented)
		return mg_catalogue_parse_vendor_line(parser, key, rest, error);
	if (g_strcmp0(key, "vendor") != 0)
		return mg_catalogue_fail(
		    parser, error, _("expected 'vendor ID' or an indented line, not '%s'"), key);
	if (!mg_catalogue_finish_vendor(parser, error))
		return FALSE;
	if (rest[0] == '\0' ||
	    strspn(rest, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(rest))
		return mg_catalogue_fail(
		    parser,
		    error,
		    _("vendor id '%s' is not lowercase letters, digits and dashes"),
		    rest);
	if (mg_catalogue_find_vendor(parser->catalogue, rest) != NULL)
		return mg_catalogue_fail(parser, error, _("vendor '%s' is listed twice"), rest);
	parser->vendor = g_new0(MgVendor, 1);
	parser->vendor->id = g_strdup(rest);
	parser->vendor->organizations = g_ptr_array_new_with_free_func(g_free);
	parser->vendor->entries = g_ptr_array_new();
	parser->vendor->line = parser->line;
	g_ptr_array_add(parser->catalogue->vendors, parser->vendor);
	return TRUE;
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
	MgCatalogueParser parser = { catalogue, NULL, 0 };
	g_autofree char *copy = NULL;
	g_auto(GStrv) lines = NULL;

	catalogue->vendors = g_ptr_array_new_with_free_func((GDestroyNotify)mg_vendor_free);
	catalogue->entries =
	    g_ptr_array_new_with_free_func((GDestroyNotify)mg_catalogue_entry_free);
	catalogue->by_oui =
	    g_hash_table_new_full(NULL, NULL, NULL, (GDestroyNotify)g_ptr_array_unref);

	if (!g_utf8_validate_len(text, len, NULL) || memchr(text, '\0', len) != NULL) {
		g_set_error_literal(error,
				    MG_ERROR,
				    MG_ERROR_CATALOGUE,
				    _("the vendor table is not valid UTF-8 text"));
		return NULL;
	}
	copy = g_strndup(text, len);
	lines = g_strsplit(copy, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		parser.line = i + 1;
		if (!mg_catalogue_parse_line(&parser, lines[i], error))
			return NULL;
	}
	if (!mg_catalogue_finish_vendor(&parser, error))
		return NULL;
	if (catalogue->vendors->len == 0) {
		g_set_error_literal(
		    error, MG_ERROR, MG_ERROR_CATALOGUE, _("the vendor table lists no vendor"));
		return NULL;
	}
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
