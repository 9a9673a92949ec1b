/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Checks the vendor table against the IEEE registry before it is embedded:
 * every prefix must be registered, in the registry its length says, to one
 * of the organisations its vendor names. Each bad row is listed; any bad row
 * fails the build. */
#define G_LOG_DOMAIN "mg-catalogue-check"

#include "config.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>

#include "mg-catalogue.h"
#include "mg-ieee-registry.h"

static gboolean
mg_vendor_has_organization(const MgVendor *v, const char *org)
{
	for (guint i = 0; i < v->organizations->len; i++) {
		if (g_strcmp0(g_ptr_array_index(v->organizations, i), org) == 0)
			return TRUE;
	}
	return FALSE;
}

static guint
mg_check_vendor(MgIeeeRegistry *reg, const MgVendor *v, gboolean strict_weights)
{
	guint bad = 0;
	guint blocks = 0;

	for (guint i = 0; i < v->organizations->len; i++) {
		const char *org = g_ptr_array_index(v->organizations, i);
		guint n = mg_ieee_registry_count_blocks(reg, org);
		if (n == 0) {
			g_printerr("line %u: vendor %s: organisation '%s' holds no block in the "
				   "registry\n",
				   v->line,
				   v->id,
				   org);
			bad++;
		}
		blocks += n;
	}
	if (g_strcmp0(v->weight_source, MG_WEIGHT_SOURCE_IEEE_BLOCKS) == 0 && blocks != v->weight) {
		g_printerr(
		    "line %u: %s: vendor %s: weight %u, but its organisations hold %u blocks\n",
		    v->line,
		    strict_weights ? "error" : "warning",
		    v->id,
		    v->weight,
		    blocks);
		bad += strict_weights ? 1 : 0;
	}

	for (guint i = 0; i < v->entries->len; i++) {
		const MgCatalogueEntry *e = g_ptr_array_index(v->entries, i);
		const char *org = mg_ieee_registry_lookup_prefix(reg, &e->prefix);
		g_autofree char *hex = mg_prefix_to_string(&e->prefix);

		if (org == NULL) {
			g_printerr("line %u: vendor %s: %s is not a registered %s block\n",
				   e->line,
				   v->id,
				   hex,
				   mg_block_size_to_string(e->prefix.bits));
			bad++;
		} else if (!mg_vendor_has_organization(v, org)) {
			g_printerr(
			    "line %u: vendor %s: %s is registered to '%s', not to this vendor\n",
			    e->line,
			    v->id,
			    hex,
			    org);
			bad++;
		}
	}
	return bad;
}

int
main(int argc, char **argv)
{
	g_autofree char *ieee_dir = NULL; /* GOption would leak a default here */
	g_autofree char *output = NULL;
	gboolean strict_weights = FALSE;
	const GOptionEntry entries[] = {
		{ "ieee-dir",
		  0,
		  0,
		  G_OPTION_ARG_FILENAME,
		  &ieee_dir,
		  "Debian ieee-data directory",
		  "DIR" },
		{ "output",
		  'o',
		  0,
		  G_OPTION_ARG_FILENAME,
		  &output,
		  "write the checked table here",
		  "FILE" },
		{ "strict-weights",
		  0,
		  0,
		  G_OPTION_ARG_NONE,
		  &strict_weights,
		  "fail when an ieee-blocks weight differs from the registry's count",
		  NULL },
		{ NULL },
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("TABLE");
	g_autoptr(GError) error = NULL;
	g_autoptr(MgCatalogue) cat = NULL;
	g_autoptr(MgIeeeRegistry) reg = NULL;
	g_autofree char *text = NULL;
	gsize len = 0;
	GPtrArray *vendors;
	guint bad = 0;

	g_option_context_set_summary(ctx,
				     "Check the macguise vendor table against the IEEE registry.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &error) || argc != 2) {
		g_printerr("mg-catalogue-check: %s\n",
			   error != NULL ? error->message : "expected one TABLE");
		return 2;
	}
	if (ieee_dir == NULL)
		ieee_dir = g_strdup(MG_IEEE_DATA_DIR);
	if (!g_file_get_contents(argv[1], &text, &len, &error)) {
		g_printerr("mg-catalogue-check: %s\n", error->message);
		return 1;
	}
	cat = mg_catalogue_new_from_data(text, len, &error);
	if (cat == NULL) {
		g_printerr("%s: %s\n", argv[1], error->message);
		return 1;
	}
	reg = mg_ieee_registry_new_from_dir(ieee_dir, &error);
	if (reg == NULL) {
		g_printerr("mg-catalogue-check: %s (install Debian's ieee-data package)\n",
			   error->message);
		return 1;
	}

	vendors = mg_catalogue_get_vendors(cat);
	for (guint i = 0; i < vendors->len; i++)
		bad += mg_check_vendor(reg, g_ptr_array_index(vendors, i), strict_weights);
	if (bad > 0) {
		g_printerr("%s: %u bad row(s); the table was not accepted\n", argv[1], bad);
		return 1;
	}
	if (output != NULL && !g_file_set_contents(output, text, (gssize)len, &error)) {
		g_printerr("mg-catalogue-check: %s\n", error->message);
		return 1;
	}
	g_print("%s: %u vendors, %u prefixes, all registered to the organisations named\n",
		argv[1],
		vendors->len,
		mg_catalogue_get_entries(cat)->len);
	return 0;
}
