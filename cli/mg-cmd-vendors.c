/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise vendors: the catalogue, with each weight and where it comes from. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>

#include "mg-cli.h"

static guint
mg_vendor_count_entries(const MgVendor *v, MgDeviceClass device_class)
{
	guint n = 0;
	for (guint i = 0; i < v->entries->len; i++) {
		const MgCatalogueEntry *e = g_ptr_array_index(v->entries, i);
		if ((e->classes & device_class) != 0)
			n++;
	}
	return n;
}

static JsonNode *
mg_vendor_json(const MgVendor *v, MgDeviceClass device_class, double share)
{
	JsonObject *o = json_object_new();
	JsonArray *orgs = json_array_new();
	JsonArray *blocks = json_array_new();
	JsonNode *node = json_node_new(JSON_NODE_OBJECT);

	json_object_set_string_member(o, "id", v->id);
	json_object_set_string_member(o, "name", v->name);
	for (guint i = 0; i < v->organizations->len; i++)
		json_array_add_string_element(orgs, g_ptr_array_index(v->organizations, i));
	json_object_set_array_member(o, "organizations", orgs);
	json_object_set_member(o, "classes", mg_cli_class_json(v->classes));
	json_object_set_int_member(o, "weight", v->weight);
	json_object_set_double_member(o, "share", share);
	json_object_set_string_member(o, "weight_source", v->weight_source);
	json_object_set_string_member(o, "products", v->products);
	for (guint i = 0; i < v->entries->len; i++) {
		const MgCatalogueEntry *e = g_ptr_array_index(v->entries, i);
		g_autofree char *hex = NULL;
		if ((e->classes & device_class) == 0)
			continue;
		hex = mg_prefix_to_string(&e->prefix);
		json_array_add_string_element(blocks, hex);
	}
	json_object_set_array_member(o, "blocks", blocks);
	json_node_take_object(node, o);
	return node;
}

static void
mg_vendors_print_table(GPtrArray *shown, MgDeviceClass device_class, guint64 total)
{
	/* TRANSLATORS: column headings; keep each within its width */
	g_print("%-12s %-34s %7s %7s %-14s %6s  %s\n",
		_("ID"),
		_("NAME"),
		_("WEIGHT"),
		_("SHARE"),
		_("CLASSES"),
		_("BLOCKS"),
		_("SOURCE"));
	for (guint i = 0; i < shown->len; i++) {
		const MgVendor *v = g_ptr_array_index(shown, i);
		g_print("%-12s %-34s %7u %6.2f%% %-14s %6u  %s\n",
			v->id,
			v->name,
			v->weight,
			100.0 * v->weight / (double)total,
			mg_device_class_to_string(v->classes),
			mg_vendor_count_entries(v, device_class),
			v->weight_source);
	}
	g_print("\n%s\n",
		_("ieee-blocks: the number of IEEE blocks the vendor's organisations hold in "
		  "Debian's ieee-data (20220827)."));
}

int
mg_cmd_vendors(int argc, char **argv)
{
	g_autofree char *class_text = NULL;
	gboolean json = FALSE;
	const GOptionEntry entries[] = {
		{ "class",
		  'c',
		  0,
		  G_OPTION_ARG_STRING,
		  &class_text,
		  N_("Only vendors with addresses for this class: wifi, ethernet or ap"),
		  "CLASS" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON array"), NULL },
		{ NULL },
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) shown = g_ptr_array_new();
	MgDeviceClass device_class = MG_DEVICE_CLASS_ALL;
	MgCatalogue *cat;
	GPtrArray *vendors;
	guint64 total = 0;

	if (!mg_cli_parse_options(
		"vendors",
		NULL,
		_("List the vendor catalogue: each vendor's weight, its share of the draw,\n"
		  "its device classes and where the weight comes from."),
		entries,
		&argc,
		&argv))
		return MG_EXIT_USAGE;
	if (argc > 1)
		return mg_cli_usage_error("vendors", _("unexpected argument '%s'"), argv[1]);
	if (class_text != NULL && !mg_cli_parse_class("vendors", class_text, &device_class))
		return MG_EXIT_USAGE;
	cat = mg_cli_catalogue(&error);
	if (cat == NULL)
		return mg_cli_failure("vendors", error);

	vendors = mg_catalogue_get_vendors(cat);
	for (guint i = 0; i < vendors->len; i++) {
		MgVendor *v = g_ptr_array_index(vendors, i);
		if (mg_vendor_count_entries(v, device_class) == 0)
			continue;
		g_ptr_array_add(shown, v);
		total += v->weight;
	}

	if (json) {
		g_autoptr(JsonNode) root = json_node_new(JSON_NODE_ARRAY);
		JsonArray *arr = json_array_new();
		for (guint i = 0; i < shown->len; i++) {
			const MgVendor *v = g_ptr_array_index(shown, i);
			json_array_add_element(
			    arr,
			    mg_vendor_json(v, device_class, (double)v->weight / (double)total));
		}
		json_node_take_array(root, arr);
		mg_cli_print_json(root);
		return MG_EXIT_OK;
	}

	mg_vendors_print_table(shown, device_class, total);
	return MG_EXIT_OK;
}
