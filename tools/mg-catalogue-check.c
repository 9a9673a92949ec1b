/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Checks the vendor table against the IEEE registry before it is embedded:
 * every prefix must be registered, in the registry its length says, to one
 * of the organisations its vendor names: in Debian's ieee-data where it
 * knows the block, else in the registry snapshot vendored beside the table
 * (blocks registered since ieee-data was made). Each bad row is listed; any
 * bad row fails the build. */
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

/* The two registries a row can be checked against: Debian's ieee-data as
 * installed, and the snapshot vendored with the table (newer blocks). */
typedef struct {
	MgIeeeRegistry *installed;
	MgIeeeRegistry *snapshot;
	guint by_installed; /* rows each one vouched for */
	guint by_snapshot;
} MgRegistries;

/* A registry renames organisations over the years ("AzureWave Technologies,
 * Inc." in Debian 12's ieee-data is "AzureWave Technology Inc." in later
 * ones): a name neither registry at hand uses is only noted, since every
 * row is checked against its block's holder anyway. A vendor none of whose
 * names holds a block is an error. */
static guint
mg_check_organizations(MgRegistries *regs, const MgVendor *v)
{
	guint holding = 0;
	for (guint i = 0; i < v->organizations->len; i++) {
		const char *org = g_ptr_array_index(v->organizations, i);
		if (mg_ieee_registry_count_blocks(regs->installed, org) > 0 ||
		    mg_ieee_registry_count_blocks(regs->snapshot, org) > 0)
			holding++;
		else
			g_printerr("line %u: vendor %s: note: neither registry names organisation "
				   "'%s' (an older name?)\n",
				   v->line,
				   v->id,
				   org);
	}
	if (holding > 0)
		return 0;
	g_printerr("line %u: vendor %s: none of its organisations holds a block in either "
		   "registry\n",
		   v->line,
		   v->id);
	return 1;
}

/* "ieee-blocks" weights count the vendor's blocks for the class here. */
static guint
mg_check_block_weights(const MgVendor *v)
{
	guint bad = 0;
	for (guint c = 0; c < MG_DEVICE_CLASS_COUNT; c++) {
		MgDeviceClass one = mg_device_classes[c];
		guint blocks = 0;
		if (g_strcmp0(mg_vendor_weight_source(v, one), MG_WEIGHT_SOURCE_IEEE_BLOCKS) != 0)
			continue;
		for (guint i = 0; i < v->entries->len; i++) {
			const MgCatalogueEntry *e = g_ptr_array_index(v->entries, i);
			blocks += (e->classes & one) != 0 ? 1 : 0;
		}
		if (blocks != mg_vendor_weight(v, one)) {
			g_printerr("line %u: vendor %s: %s weight %u, but it lists %u blocks\n",
				   v->line,
				   v->id,
				   mg_device_class_to_string(one),
				   mg_vendor_weight(v, one),
				   blocks);
			bad++;
		}
	}
	return bad;
}

/* ieee-data where it knows the block, the snapshot where it does not. */
static guint
mg_check_entry(MgRegistries *regs, const MgVendor *v, const MgCatalogueEntry *e)
{
	const char *org = mg_ieee_registry_lookup_prefix(regs->installed, &e->prefix);
	const char *where = "ieee-data";
	g_autofree char *hex = mg_prefix_to_string(&e->prefix);

	if (org == NULL) {
		org = mg_ieee_registry_lookup_prefix(regs->snapshot, &e->prefix);
		where = "the registry snapshot";
	}
	if (org == NULL) {
		g_printerr("line %u: vendor %s: %s is not a registered %s block in ieee-data or "
			   "the snapshot\n",
			   e->line,
			   v->id,
			   hex,
			   mg_block_size_to_string(e->prefix.bits));
		return 1;
	}
	if (!mg_vendor_has_organization(v, org)) {
		g_printerr(
		    "line %u: vendor %s: %s is registered to '%s' (%s), not to this vendor\n",
		    e->line,
		    v->id,
		    hex,
		    org,
		    where);
		return 1;
	}
	if (where[0] == 'i')
		regs->by_installed++;
	else
		regs->by_snapshot++;
	return 0;
}

static guint
mg_check_vendor(MgRegistries *regs, const MgVendor *v)
{
	guint bad = mg_check_organizations(regs, v) + mg_check_block_weights(v);
	for (guint i = 0; i < v->entries->len; i++)
		bad += mg_check_entry(regs, v, g_ptr_array_index(v->entries, i));
	return bad;
}

int
main(int argc, char **argv)
{
	g_autofree char *ieee_dir = NULL; /* GOption would leak a default here */
	g_autofree char *output = NULL;
	g_autofree char *snapshot = NULL;
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
		{ "snapshot",
		  0,
		  0,
		  G_OPTION_ARG_FILENAME,
		  &snapshot,
		  "the registry snapshot vendored with the table (ieee-data's CSV form)",
		  "FILE" },
		{ NULL },
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("TABLE");
	g_autoptr(GError) error = NULL;
	g_autoptr(MgCatalogue) cat = NULL;
	g_autoptr(MgIeeeRegistry) installed = NULL;
	g_autoptr(MgIeeeRegistry) snap = NULL;
	MgRegistries regs = { 0 };
	g_autofree char *text = NULL;
	gsize len = 0;
	GPtrArray *vendors;
	guint bad = 0;

	g_option_context_set_summary(ctx,
				     "Check the macguise vendor table against the IEEE registry.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &error) || argc != 2 || snapshot == NULL) {
		g_printerr("mg-catalogue-check: %s\n",
			   error != NULL ? error->message
					 : "expected --snapshot FILE and one TABLE");
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
	installed = mg_ieee_registry_new_from_dir(ieee_dir, &error);
	if (installed == NULL) {
		g_printerr("mg-catalogue-check: %s (install Debian's ieee-data package)\n",
			   error->message);
		return 1;
	}
	snap = mg_ieee_registry_new_from_file(snapshot, &error);
	if (snap == NULL) {
		g_printerr("mg-catalogue-check: %s\n", error->message);
		return 1;
	}
	regs.installed = installed;
	regs.snapshot = snap;

	vendors = mg_catalogue_get_vendors(cat);
	for (guint i = 0; i < vendors->len; i++)
		bad += mg_check_vendor(&regs, g_ptr_array_index(vendors, i));
	if (bad > 0) {
		g_printerr("%s: %u bad row(s); the table was not accepted\n", argv[1], bad);
		return 1;
	}
	if (output != NULL && !g_file_set_contents(output, text, (gssize)len, &error)) {
		g_printerr("mg-catalogue-check: %s\n", error->message);
		return 1;
	}
	g_print("%s: %u vendors, %u prefixes, all registered to the organisations named: "
		"%u by ieee-data (%s), %u newer ones by the registry snapshot (%s)\n",
		argv[1],
		vendors->len,
		mg_catalogue_get_entries(cat)->len,
		regs.by_installed,
		ieee_dir,
		regs.by_snapshot,
		snapshot);
	return 0;
}
