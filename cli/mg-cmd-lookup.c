/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise lookup: what an address says about the machine that sends it. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>

#include "mg-cli.h"
#include "mg-ieee-registry.h"

typedef struct {
	MgMac mac;
	const MgCatalogueEntry *entry; /* NULL when not in the catalogue */
	const char *registry_owner;    /* from ieee-data, or NULL */
	MgPrefix registry_block;
	const char *kind; /* "global", "local" or "multicast" */
} MgLookup;

/* The vendor's share of @mix's draws, in per cent. */
static double
mg_lookup_mix_share(const MgDriverMix *mix, const MgVendor *vendor)
{
	guint64 total = 0;
	for (guint i = 0; i < mix->weights->len; i++)
		total += ((const MgDriverWeight *)g_ptr_array_index(mix->weights, i))->weight;
	return 100.0 * mg_driver_mix_weight(mix, vendor) / (double)MAX(total, 1);
}

/* The chip families whose cards carry @vendor's blocks, "rtw89 (66%), ...". */
static char *
mg_lookup_chips_text(MgCatalogue *cat, const MgVendor *vendor)
{
	GPtrArray *mixes = mg_catalogue_get_driver_mixes(cat);
	g_autoptr(GString) out = g_string_new(NULL);

	for (guint i = 0; i < mixes->len; i++) {
		const MgDriverMix *mix = g_ptr_array_index(mixes, i);
		if (mg_driver_mix_weight(mix, vendor) == 0)
			continue;
		g_string_append_printf(out,
				       "%s%s %s (%.0f%%)",
				       out->len > 0 ? ", " : "",
				       mg_device_class_to_string(mix->device_class),
				       mix->id,
				       mg_lookup_mix_share(mix, vendor));
	}
	return out->len > 0 ? g_string_free(g_steal_pointer(&out), FALSE) : NULL;
}

static JsonNode *
mg_lookup_chips_json(MgCatalogue *cat, const MgVendor *vendor)
{
	GPtrArray *mixes = mg_catalogue_get_driver_mixes(cat);
	JsonArray *arr = json_array_new();
	JsonNode *node = json_node_new(JSON_NODE_ARRAY);

	for (guint i = 0; i < mixes->len; i++) {
		const MgDriverMix *mix = g_ptr_array_index(mixes, i);
		JsonObject *o;
		JsonArray *match;
		if (mg_driver_mix_weight(mix, vendor) == 0)
			continue;
		o = json_object_new();
		match = json_array_new();
		for (guint j = 0; mix->match[j] != NULL; j++)
			json_array_add_string_element(match, mix->match[j]);
		json_object_set_string_member(o, "mix", mix->id);
		json_object_set_string_member(
		    o, "class", mg_device_class_to_string(mix->device_class));
		json_object_set_array_member(o, "drivers", match);
		json_object_set_string_member(o, "products", mix->products);
		json_object_set_double_member(o, "share", mg_lookup_mix_share(mix, vendor) / 100.0);
		json_array_add_object_element(arr, o);
	}
	json_node_take_array(node, arr);
	return node;
}

static void
mg_lookup_print(const MgLookup *l, MgCatalogue *cat, gboolean have_registry)
{
	char text[MG_MAC_STRLEN];

	mg_mac_format(&l->mac, text);
	g_print("%s\n", text);
	if (g_strcmp0(l->kind, "multicast") == 0) {
		g_print("  %s\n", _("multicast (group) address: it names no single station"));
		return;
	}
	if (g_strcmp0(l->kind, "local") == 0) {
		g_print("  %s\n",
			_("locally administered: made up, not from any vendor — every observer can "
			  "tell (NetworkManager's 'random' addresses look like this)"));
		return;
	}
	if (l->entry != NULL) {
		g_autofree char *block = mg_prefix_to_string(&l->entry->prefix);
		g_autofree char *registered = mg_cli_day_text(l->entry->registered);
		g_print("  %-12s %s\n", _("vendor:"), l->entry->vendor->name);
		g_print("  %-12s %s (%s)\n",
			_("block:"),
			block,
			mg_block_size_to_string(l->entry->prefix.bits));
		g_print(
		    "  %-12s %s\n", _("classes:"), mg_device_class_to_string(l->entry->classes));
		g_print("  %-12s %s\n", _("era:"), mg_era_to_string(l->entry->era));
		/* TRANSLATORS: the date the block was first seen in the registry */
		g_print("  %-12s %s\n", _("registered:"), registered);
		{
			g_autofree char *chips = mg_lookup_chips_text(cat, l->entry->vendor);
			/* TRANSLATORS: the chip families (drivers) whose cards carry
			 * the maker's blocks, each with the maker's share */
			g_print("  %-12s %s\n", _("chips:"), chips != NULL ? chips : _("none"));
		}
		return;
	}
	g_print("  %s\n", _("not in the macguise catalogue"));
	if (l->registry_owner != NULL) {
		g_autofree char *block = mg_prefix_to_string(&l->registry_block);
		g_print("  %-12s %s (%s %s)\n",
			_("registry:"),
			l->registry_owner,
			mg_block_size_to_string(l->registry_block.bits),
			block);
	} else if (have_registry) {
		g_print("  %s\n", _("not registered to anyone in the IEEE registry"));
	} else {
		g_print("  %s\n",
			_("install the ieee-data package to see the IEEE registry owner"));
	}
}

static JsonNode *
mg_lookup_json(const MgLookup *l, MgCatalogue *cat)
{
	JsonObject *o = json_object_new();
	JsonNode *node = json_node_new(JSON_NODE_OBJECT);
	char text[MG_MAC_STRLEN];

	mg_mac_format(&l->mac, text);
	json_object_set_string_member(o, "mac", text);
	json_object_set_string_member(o, "kind", l->kind);
	json_object_set_boolean_member(o, "in_catalogue", l->entry != NULL);
	if (l->entry != NULL) {
		g_autofree char *oui = mg_prefix_to_display(&l->entry->prefix);
		g_autofree char *registered = mg_cli_day_text(l->entry->registered);
		json_object_set_string_member(o, "oui", oui);
		json_object_set_string_member(o, "vendor", l->entry->vendor->name);
		json_object_set_string_member(o, "vendor_id", l->entry->vendor->id);
		json_object_set_member(o, "classes", mg_cli_class_json(l->entry->classes));
		json_object_set_string_member(o, "era", mg_era_to_string(l->entry->era));
		json_object_set_string_member(o, "registered", registered);
		json_object_set_member(o, "chips", mg_lookup_chips_json(cat, l->entry->vendor));
	}
	if (l->registry_owner != NULL)
		json_object_set_string_member(o, "registry_owner", l->registry_owner);
	json_node_take_object(node, o);
	return node;
}

int
mg_cmd_lookup(int argc, char **argv)
{
	gboolean json = FALSE;
	const GOptionEntry entries[] = {
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON array"), NULL },
		{ NULL },
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(MgIeeeRegistry) registry = NULL;
	g_autoptr(JsonArray) out = json_array_new();
	MgCatalogue *cat;
	int status = MG_EXIT_OK;

	if (!mg_cli_parse_options(
		"lookup",
		"MAC…",
		_("Tell what the catalogue and the IEEE registry know about each address."),
		entries,
		&argc,
		&argv))
		return MG_EXIT_USAGE;
	if (argc < 2)
		return mg_cli_usage_error("lookup", _("no MAC address given"));
	cat = mg_cli_catalogue(&error);
	if (cat == NULL)
		return mg_cli_failure("lookup", error);
	/* The registry is optional at run time: without ieee-data, addresses
	 * outside the catalogue are just reported as such. */
	registry = mg_ieee_registry_new_from_dir(MG_IEEE_DATA_DIR, NULL);

	for (int i = 1; i < argc; i++) {
		g_autoptr(GError) local = NULL;
		MgLookup l = { { { 0 } }, NULL, NULL, { 0, MG_BLOCK_MA_L }, "global" };

		if (!mg_mac_parse(argv[i], &l.mac, &local)) {
			g_printerr("macguise lookup: %s\n", local->message);
			status = MG_EXIT_FAILURE;
			continue;
		}
		if (mg_mac_is_multicast(&l.mac))
			l.kind = "multicast";
		else if (mg_mac_is_locally_administered(&l.mac))
			l.kind = "local";
		else
			l.entry = mg_catalogue_lookup(cat, &l.mac);
		if (l.entry == NULL && registry != NULL && g_strcmp0(l.kind, "global") == 0)
			l.registry_owner =
			    mg_ieee_registry_lookup_mac(registry, &l.mac, &l.registry_block);
		if (json)
			json_array_add_element(out, mg_lookup_json(&l, cat));
		else
			mg_lookup_print(&l, cat, registry != NULL);
	}
	if (json) {
		g_autoptr(JsonNode) root = json_node_new(JSON_NODE_ARRAY);
		json_node_set_array(root, out);
		mg_cli_print_json(root);
	}
	return status;
}
