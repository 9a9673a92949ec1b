/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The vendor table's driver blocks: per chip family, the makers whose blocks
 * its cards carry (data/vendors.table describes the format). */
#define G_LOG_DOMAIN "mg-catalogue"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-catalogue-private.h"
#include "mg-error.h"

static void
mg_driver_weight_free(MgDriverWeight *w)
{
	g_free(w->source);
	g_free(w);
}

void
mg_driver_mix_free(MgDriverMix *mix)
{
	g_free(mix->id);
	g_strfreev(mix->match);
	g_free(mix->products);
	g_ptr_array_unref(mix->weights);
	g_ptr_array_unref(mix->notes);
	g_free(mix);
}

static gboolean G_GNUC_PRINTF(3, 4)
    mg_driver_fail(MgCatalogueParser *parser, GError **error, const char *format, ...)
{
	va_list args;
	g_autofree char *msg = NULL;

	va_start(args, format);
	msg = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error, MG_ERROR, MG_ERROR_CATALOGUE, _("line %u: %s"), parser->line, msg);
	return FALSE;
}

gboolean
mg_catalogue_parse_driver_start(MgCatalogueParser *parser, const char *rest, GError **error)
{
	MgDriverMix *mix;

	if (rest[0] == '\0' ||
	    strspn(rest, "abcdefghijklmnopqrstuvwxyz0123456789-_") != strlen(rest))
		return mg_driver_fail(
		    parser,
		    error,
		    _("driver id '%s' is not lowercase letters, digits, dashes and underscores"),
		    rest);
	if (mg_catalogue_find_driver_mix_id(parser->catalogue, rest) != NULL)
		return mg_driver_fail(parser, error, _("driver '%s' is listed twice"), rest);
	mix = g_new0(MgDriverMix, 1);
	mix->id = g_strdup(rest);
	mix->weights = g_ptr_array_new_with_free_func((GDestroyNotify)mg_driver_weight_free);
	mix->notes = g_ptr_array_new_with_free_func(g_free);
	mix->line = parser->line;
	g_ptr_array_add(parser->catalogue->drivers, mix);
	parser->mix = mix;
	return TRUE;
}

/* weight VENDOR N SOURCE: a vendor of the block's class and its share. */
static gboolean
mg_driver_parse_weight(MgCatalogueParser *parser, const char *rest, GError **error)
{
	MgDriverMix *mix = parser->mix;
	g_auto(GStrv) words = g_strsplit_set(rest, " \t", 3);
	const MgVendor *vendor;
	MgDriverWeight *w;
	guint64 n;

	if (mix->device_class == MG_DEVICE_CLASS_NONE)
		return mg_driver_fail(parser, error, _("weight before the class line"));
	if (g_strv_length(words) < 3 || g_strstrip(words[2])[0] == '\0')
		return mg_driver_fail(parser, error, _("weight is not VENDOR N SOURCE"));
	vendor = mg_catalogue_find_vendor(parser->catalogue, words[0]);
	if (vendor == NULL || g_strcmp0(vendor->id, words[0]) != 0)
		return mg_driver_fail(parser, error, _("'%s' is not a vendor id"), words[0]);
	if ((vendor->classes & mix->device_class) == 0)
		return mg_driver_fail(parser,
				      error,
				      _("vendor '%s' has no %s blocks"),
				      words[0],
				      mg_device_class_to_string(mix->device_class));
	if (mg_driver_mix_weight(mix, vendor) != 0)
		return mg_driver_fail(parser, error, _("a second weight for %s"), words[0]);
	if (!g_ascii_string_to_unsigned(words[1], 10, 1, G_MAXUINT32 / 1024, &n, NULL))
		return mg_driver_fail(parser,
				      error,
				      _("weight '%s' is not a whole number from 1 to %u"),
				      words[1],
				      G_MAXUINT32 / 1024);
	w = g_new0(MgDriverWeight, 1);
	w->vendor = vendor;
	w->weight = (guint)n;
	w->source = g_strdup(words[2]);
	g_ptr_array_add(mix->weights, w);
	return TRUE;
}

gboolean
mg_catalogue_parse_driver_line(MgCatalogueParser *parser,
			       const char *key,
			       const char *rest,
			       GError **error)
{
	MgDriverMix *mix = parser->mix;

	if (rest[0] == '\0')
		return mg_driver_fail(parser, error, _("'%s' has no value"), key);
	if (g_strcmp0(key, "class") == 0 && mix->device_class == MG_DEVICE_CLASS_NONE) {
		g_autoptr(GError) local = NULL;
		if (!mg_device_class_parse(rest, &mix->device_class, &local))
			return mg_driver_fail(parser, error, "%s", local->message);
	} else if (g_strcmp0(key, "match") == 0 && mix->match == NULL) {
		mix->match = g_strsplit_set(rest, " \t", -1);
	} else if (g_strcmp0(key, "products") == 0 && mix->products == NULL) {
		mix->products = g_strdup(rest);
	} else if (g_strcmp0(key, "weight") == 0) {
		return mg_driver_parse_weight(parser, rest, error);
	} else if (g_strcmp0(key, "note") == 0) {
		g_ptr_array_add(mix->notes, g_strdup(rest));
	} else if (g_strcmp0(key, "class") == 0 || g_strcmp0(key, "match") == 0 ||
		   g_strcmp0(key, "products") == 0) {
		return mg_driver_fail(parser, error, _("a second '%s' line"), key);
	} else {
		return mg_driver_fail(parser, error, _("unknown keyword '%s'"), key);
	}
	return TRUE;
}

gboolean
mg_catalogue_finish_driver(MgCatalogueParser *parser, GError **error)
{
	MgDriverMix *mix = parser->mix;
	const char *missing = NULL;

	if (mix == NULL)
		return TRUE;
	if (mix->device_class == MG_DEVICE_CLASS_NONE)
		missing = "class";
	else if (mix->match == NULL)
		missing = "match";
	else if (mix->products == NULL)
		missing = "products";
	else if (mix->weights->len == 0)
		missing = "weight";
	if (missing != NULL) {
		g_set_error(error,
			    MG_ERROR,
			    MG_ERROR_CATALOGUE,
			    _("line %u: driver '%s' has no %s line"),
			    mix->line,
			    mix->id,
			    missing);
		return FALSE;
	}
	parser->mix = NULL;
	return TRUE;
}

GPtrArray *
mg_catalogue_get_driver_mixes(MgCatalogue *catalogue)
{
	return catalogue->drivers;
}

const MgDriverMix *
mg_catalogue_find_driver_mix(MgCatalogue *catalogue, MgDeviceClass device_class, const char *driver)
{
	if (driver == NULL || driver[0] == '\0')
		return NULL;
	for (guint i = 0; i < catalogue->drivers->len; i++) {
		const MgDriverMix *mix = g_ptr_array_index(catalogue->drivers, i);
		if (mix->device_class != device_class)
			continue;
		for (guint j = 0; mix->match[j] != NULL; j++) {
			if (mix->match[j][0] != '\0' &&
			    g_pattern_match_simple(mix->match[j], driver))
				return mix;
		}
	}
	return NULL;
}

const MgDriverMix *
mg_catalogue_find_driver_mix_id(MgCatalogue *catalogue, const char *id)
{
	for (guint i = 0; i < catalogue->drivers->len; i++) {
		const MgDriverMix *mix = g_ptr_array_index(catalogue->drivers, i);
		if (g_ascii_strcasecmp(mix->id, id) == 0)
			return mix;
	}
	return NULL;
}

guint
mg_driver_mix_weight(const MgDriverMix *mix, const MgVendor *vendor)
{
	for (guint i = 0; i < mix->weights->len; i++) {
		const MgDriverWeight *w = g_ptr_array_index(mix->weights, i);
		if (w->vendor == vendor)
			return w->weight;
	}
	return 0;
}
