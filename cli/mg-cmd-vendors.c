/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise vendors: the catalogue, with each weight, where it comes from, and
 * the rule that keeps blocks of the wrong age out of the draw. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>

#include "mg-cli.h"
#include "mg-generator.h"
#include "mg-vendors-mixes.h"

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

/* The sum of the class's weights over the catalogue: shares are of it. */
static guint64
mg_class_total(GPtrArray *vendors, MgDeviceClass device_class)
{
	guint64 total = 0;
	for (guint i = 0; i < vendors->len; i++)
		total += mg_vendor_weight(g_ptr_array_index(vendors, i), device_class);
	return total;
}

static JsonNode *
mg_vendor_json(const MgVendor *v, MgDeviceClass shown, GPtrArray *vendors)
{
	JsonObject *o = json_object_new();
	JsonArray *orgs = json_array_new();
	JsonObject *weights = json_object_new();
	JsonArray *blocks = json_array_new();
	JsonNode *node = json_node_new(JSON_NODE_OBJECT);

	json_object_set_string_member(o, "id", v->id);
	json_object_set_string_member(o, "name", v->name);
	for (guint i = 0; i < v->organizations->len; i++)
		json_array_add_string_element(orgs, g_ptr_array_index(v->organizations, i));
	json_object_set_array_member(o, "organizations", orgs);
	json_object_set_member(o, "classes", mg_cli_class_json(v->classes));
	for (guint c = 0; c < MG_DEVICE_CLASS_COUNT; c++) {
		MgDeviceClass one = mg_device_classes[c];
		JsonObject *w;
		if ((one & shown & v->classes) == 0)
			continue;
		w = json_object_new();
		json_object_set_int_member(w, "weight", mg_vendor_weight(v, one));
		json_object_set_double_member(
		    w, "share", mg_vendor_weight(v, one) / (double)mg_class_total(vendors, one));
		json_object_set_string_member(w, "source", mg_vendor_weight_source(v, one));
		json_object_set_object_member(weights, mg_device_class_to_string(one), w);
	}
	json_object_set_object_member(o, "weights", weights);
	json_object_set_string_member(o, "products", v->products);
	for (guint i = 0; i < v->entries->len; i++) {
		const MgCatalogueEntry *e = g_ptr_array_index(v->entries, i);
		g_autofree char *hex = NULL;
		g_autofree char *registered = NULL;
		JsonObject *b;
		if ((e->classes & shown) == 0)
			continue;
		hex = mg_prefix_to_string(&e->prefix);
		registered = mg_cli_day_text(e->registered);
		b = json_object_new();
		json_object_set_string_member(b, "block", hex);
		json_object_set_string_member(b, "registered", registered);
		json_object_set_string_member(b, "era", mg_era_to_string(e->era));
		json_array_add_object_element(blocks, b);
	}
	json_object_set_array_member(o, "blocks", blocks);
	json_node_take_object(node, o);
	return node;
}

/* The age rule as it stands today, for JSON. */
static JsonNode *
mg_age_rule_json(gint64 now)
{
	JsonObject *o = json_object_new();
	JsonNode *node = json_node_new(JSON_NODE_OBJECT);
	gint64 day = 24 * 60 * 60;
	g_autofree char *young = mg_cli_day_text(now - MG_BLOCK_MIN_AGE_DAYS * day);
	g_autofree char *old = mg_cli_day_text(now - MG_BLOCK_WIFI_OLD_DAYS * day);

	json_object_set_int_member(o, "min_age_days", MG_BLOCK_MIN_AGE_DAYS);
	json_object_set_string_member(o, "drawn_if_registered_by", young);
	json_object_set_int_member(o, "wifi_old_age_days", MG_BLOCK_WIFI_OLD_DAYS);
	json_object_set_string_member(o, "wifi_old_if_registered_before", old);
	json_object_set_double_member(o, "wifi_old_factor", 1.0 / MG_BLOCK_WIFI_OLD_DIVISOR);
	json_node_take_object(node, o);
	return node;
}

static void
mg_vendors_print_class(GPtrArray *vendors, MgDeviceClass device_class)
{
	guint64 total = mg_class_total(vendors, device_class);

	/* TRANSLATORS: a heading; %s is a device class: wifi, ethernet or ap */
	g_print(_("Class %s\n"), mg_device_class_to_string(device_class));
	/* TRANSLATORS: column headings; keep each within its width */
	g_print("  %-12s %-30s %7s %6s %-10s\n",
		_("ID"),
		_("NAME"),
		_("SHARE"),
		_("BLOCKS"),
		_("NEWEST"));
	for (guint i = 0; i < vendors->len; i++) {
		const MgVendor *v = g_ptr_array_index(vendors, i);
		gint64 newest = G_MININT64;
		g_autofree char *newest_text = NULL;
		if ((v->classes & device_class) == 0)
			continue;
		for (guint j = 0; j < v->entries->len; j++)
			newest = MAX(newest,
				     ((const MgCatalogueEntry *)g_ptr_array_index(v->entries, j))
					 ->registered);
		newest_text = mg_cli_day_text(newest);
		g_print("  %-12s %-30s %6.2f%% %6u %-10s\n",
			v->id,
			v->name,
			100.0 * mg_vendor_weight(v, device_class) / (double)total,
			mg_vendor_count_entries(v, device_class),
			newest_text);
		g_print("      %s\n", mg_vendor_weight_source(v, device_class));
	}
	g_print("\n");
}

static void
mg_vendors_print_age_rule(gint64 now)
{
	gint64 day = 24 * 60 * 60;
	g_autofree char *young = mg_cli_day_text(now - MG_BLOCK_MIN_AGE_DAYS * day);
	g_autofree char *old = mg_cli_day_text(now - MG_BLOCK_WIFI_OLD_DAYS * day);

	g_print(_("Within a vendor a block is drawn in proportion to its size. A block first\n"
		  "registered after %s (under two years ago) is not drawn: it has hardly\n"
		  "shipped. A Wi-Fi block registered before %s (over ten years ago) is drawn\n"
		  "at a quarter of the weight its size gives: Wi-Fi cards are replaced sooner\n"
		  "than the machines they are in.\n"),
		young,
		old);
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
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON object"), NULL },
		{ NULL },
	};
	g_autoptr(GError) error = NULL;
	MgDeviceClass shown = MG_DEVICE_CLASS_ALL;
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	MgCatalogue *cat;
	GPtrArray *vendors;

	if (!mg_cli_parse_options(
		"vendors",
		NULL,
		_("List the vendor catalogue per device class: each vendor's share of the\n"
		  "draw, how that share was derived, the chip families whose cards carry\n"
		  "their module makers' blocks, and the rule on block ages."),
		entries,
		&argc,
		&argv))
		return MG_EXIT_USAGE;
	if (argc > 1)
		return mg_cli_usage_error("vendors", _("unexpected argument '%s'"), argv[1]);
	if (class_text != NULL && !mg_cli_parse_class("vendors", class_text, &shown))
		return MG_EXIT_USAGE;
	cat = mg_cli_catalogue(&error);
	if (cat == NULL)
		return mg_cli_failure("vendors", error);
	vendors = mg_catalogue_get_vendors(cat);

	if (json) {
		g_autoptr(JsonNode) root = json_node_new(JSON_NODE_OBJECT);
		JsonObject *o = json_object_new();
		JsonArray *arr = json_array_new();
		for (guint i = 0; i < vendors->len; i++) {
			const MgVendor *v = g_ptr_array_index(vendors, i);
			if ((v->classes & shown) != 0)
				json_array_add_element(arr, mg_vendor_json(v, shown, vendors));
		}
		json_object_set_array_member(o, "vendors", arr);
		json_object_set_member(o, "chip_families", mg_vendors_mixes_json(cat, shown));
		json_object_set_member(o, "age_rule", mg_age_rule_json(now));
		json_node_take_object(root, o);
		mg_cli_print_json(root);
		return MG_EXIT_OK;
	}
	for (guint c = 0; c < MG_DEVICE_CLASS_COUNT; c++) {
		if ((mg_device_classes[c] & shown) == 0)
			continue;
		mg_vendors_print_class(vendors, mg_device_classes[c]);
		mg_vendors_print_mixes(cat, mg_device_classes[c]);
	}
	mg_vendors_print_age_rule(now);
	return MG_EXIT_OK;
}
