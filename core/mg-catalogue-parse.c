/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The vendor table's text format (data/vendors.table describes it). */
#define G_LOG_DOMAIN "mg-catalogue"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-catalogue-private.h"
#include "mg-error.h"

/* Parsing -------------------------------------------------------------- */

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

/* @count decimal digits at @p, or FALSE. */
static gboolean
mg_parse_digits(const char *p, guint count, guint *value)
{
	*value = 0;
	for (guint i = 0; i < count; i++) {
		if (!g_ascii_isdigit(p[i]))
			return FALSE;
		*value = *value * 10 + (guint)g_ascii_digit_value(p[i]);
	}
	return TRUE;
}

/* registered=YYYY-MM-DD: the day, as 00:00 UTC.  A GDate on the stack, not a
 * GDateTime: the table has thousands of rows, read at every start. */
static gboolean
mg_catalogue_parse_registered(MgCatalogueParser *parser,
			      MgCatalogueEntry *entry,
			      const char *value,
			      GError **error)
{
	guint year, month, day;
	GDate date;

	if (strlen(value) != 10 || value[4] != '-' || value[7] != '-' ||
	    !mg_parse_digits(value, 4, &year) || !mg_parse_digits(value + 5, 2, &month) ||
	    !mg_parse_digits(value + 8, 2, &day) ||
	    !g_date_valid_dmy((GDateDay)day, (GDateMonth)month, (GDateYear)year))
		return mg_catalogue_fail(
		    parser, error, _("registered=%s is not a date (YYYY-MM-DD)"), value);
	g_date_clear(&date, 1);
	g_date_set_dmy(&date, (GDateDay)day, (GDateMonth)month, (GDateYear)year);
	/* GDate counts days from 0001-01-01 (day 1); 1970-01-01 is day 719163. */
	entry->registered = ((gint64)g_date_get_julian(&date) - 719163) * 24 * 60 * 60;
	return TRUE;
}

/* One option after a prefix: era=, classes=, serial= or registered=. */
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
	if (g_str_has_prefix(w, "registered="))
		return mg_catalogue_parse_registered(
		    parser, entry, w + strlen("registered="), error);
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
	entry->registered = G_MININT64;

	for (guint i = 1; words[i] != NULL; i++) {
		if (words[i][0] != '\0' &&
		    !mg_catalogue_parse_prefix_option(parser, entry, words[i], &era_given, error))
			return FALSE;
	}
	/* The age rule needs every block's date. */
	if (entry->registered == G_MININT64)
		return mg_catalogue_fail(parser, error, _("%s has no registered= date"), words[0]);

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

/* A weight for each of the vendor's classes (the weight line checks the
 * converse: no weight for a class the vendor lacks). */
static gboolean
mg_vendor_weighs_its_classes(const MgVendor *v)
{
	for (guint i = 0; i < MG_DEVICE_CLASS_COUNT; i++) {
		MgDeviceClass one = mg_device_classes[i];
		if ((v->classes & one) != 0 && mg_vendor_weight(v, one) == 0)
			return FALSE;
	}
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
	else if (!mg_vendor_weighs_its_classes(v))
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

/* weight CLASS N SOURCE: one class's weight and where it comes from. */
static gboolean
mg_catalogue_parse_weight(MgCatalogueParser *parser, const char *rest, GError **error)
{
	MgVendor *v = parser->vendor;
	g_auto(GStrv) words = g_strsplit_set(rest, " \t", 3);
	g_autoptr(GError) local = NULL;
	MgDeviceClass device_class;
	guint index;
	guint64 w;

	if (g_strv_length(words) < 3 || g_strstrip(words[2])[0] == '\0')
		return mg_catalogue_fail(parser, error, _("weight is not CLASS N SOURCE"));
	if (!mg_device_class_parse(words[0], &device_class, &local))
		return mg_catalogue_fail(parser, error, "%s", local->message);
	if ((v->classes & device_class) == 0)
		return mg_catalogue_fail(
		    parser, error, _("a weight for %s, not among the vendor's classes"), words[0]);
	index = mg_device_class_index(device_class);
	if (v->weight[index] != 0)
		return mg_catalogue_fail(parser, error, _("a second weight for %s"), words[0]);
	if (!g_ascii_string_to_unsigned(words[1], 10, 1, G_MAXUINT32 / 1024, &w, NULL))
		return mg_catalogue_fail(parser,
					 error,
					 _("weight '%s' is not a whole number from 1 to %u"),
					 words[1],
					 G_MAXUINT32 / 1024);
	v->weight[index] = (guint)w;
	v->weight_source[index] = g_strdup(words[2]);
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
	} else if (g_strcmp0(key, "weight") == 0) {
		return mg_catalogue_parse_weight(parser, rest, error);
	} else if (g_strcmp0(key, "name") == 0 || g_strcmp0(key, "products") == 0 ||
		   g_strcmp0(key, "classes") == 0) {
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

	if (indented && parser->mix != NULL)
		return mg_catalogue_parse_driver_line(parser, key, rest, error);
	if (indented)
		return mg_catalogue_parse_vendor_line(parser, key, rest, error);
	if (g_strcmp0(key, "driver") == 0)
		return mg_catalogue_finish_vendor(parser, error) &&
		       mg_catalogue_finish_driver(parser, error) &&
		       mg_catalogue_parse_driver_start(parser, rest, error);
	if (parser->mix != NULL || parser->catalogue->drivers->len > 0)
		return mg_catalogue_fail(
		    parser, error, _("'%s' after the first driver block"), key);
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

gboolean
mg_catalogue_parse_lines(MgCatalogue *catalogue, char **lines, GError **error)
{
	MgCatalogueParser parser = { catalogue, NULL, NULL, 0 };

	for (guint i = 0; lines[i] != NULL; i++) {
		parser.line = i + 1;
		if (!mg_catalogue_parse_line(&parser, lines[i], error))
			return FALSE;
	}
	if (!mg_catalogue_finish_vendor(&parser, error) ||
	    !mg_catalogue_finish_driver(&parser, error))
		return FALSE;
	if (catalogue->vendors->len == 0) {
		g_set_error_literal(
		    error, MG_ERROR, MG_ERROR_CATALOGUE, _("the vendor table lists no vendor"));
		return FALSE;
	}
	return TRUE;
}
