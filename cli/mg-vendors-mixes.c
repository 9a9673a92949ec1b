/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The chip families macguise vendors lists after each class's vendors: a
 * card's address comes from the makers whose blocks cards with its chip
 * carry (an Intel radio, Intel's; a Realtek radio, the module makers'),
 * weighted as the catalogue's per-driver mixes say, with their evidence. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include "mg-vendors-mixes.h"

#include <glib/gi18n.h>

static guint64
mg_mix_total(const MgDriverMix *mix)
{
	guint64 total = 0;

	for (guint i = 0; i < mix->weights->len; i++)
		total += ((const MgDriverWeight *)g_ptr_array_index(mix->weights, i))->weight;
	return total;
}

/* (indented deeper than a vendor's row, which the bash completion reads
 * vendor ids from) */
static void
mg_vendors_print_mix(const MgDriverMix *mix)
{
	guint64 total = mg_mix_total(mix);
	g_autofree char *drivers = g_strjoinv(" ", mix->match);

	g_print("    %-12s %s\n", mix->id, mix->products);
	/* TRANSLATORS: %s lists driver names, as NetworkManager reports them */
	g_print(_("        drivers: %s\n"), drivers);
	for (guint i = 0; i < mix->weights->len; i++) {
		const MgDriverWeight *w = g_ptr_array_index(mix->weights, i);
		g_print("        %-12s %6.2f%%\n",
			w->vendor->id,
			total > 0 ? 100.0 * w->weight / (double)total : 0.0);
		g_print("            %s\n", w->source);
	}
	for (guint i = 0; i < mix->notes->len; i++)
		/* TRANSLATORS: %s says what evidence was left out of the mix, and why */
		g_print(_("        note: %s\n"), (const char *)g_ptr_array_index(mix->notes, i));
}

void
mg_vendors_print_mixes(MgCatalogue *catalogue, MgDeviceClass device_class)
{
	GPtrArray *mixes = mg_catalogue_get_driver_mixes(catalogue);
	gboolean any = FALSE;

	for (guint i = 0; i < mixes->len; i++) {
		const MgDriverMix *mix = g_ptr_array_index(mixes, i);
		if (mix->device_class != device_class)
			continue;
		if (!any)
			/* TRANSLATORS: a heading; %s is a device class: wifi or ethernet */
			g_print(
			    _("Chip families of class %s: a card's address comes from the makers\n"
			      "whose blocks cards with its chip carry\n"),
			    mg_device_class_to_string(device_class));
		any = TRUE;
		mg_vendors_print_mix(mix);
	}
	if (any)
		g_print("\n");
}

static JsonNode *
mg_vendors_mix_json(const MgDriverMix *mix)
{
	JsonObject *o = json_object_new();
	JsonArray *drivers = json_array_new();
	JsonArray *weights = json_array_new();
	JsonArray *notes = json_array_new();
	JsonNode *node = json_node_new(JSON_NODE_OBJECT);
	guint64 total = mg_mix_total(mix);

	json_object_set_string_member(o, "id", mix->id);
	json_object_set_string_member(o, "class", mg_device_class_to_string(mix->device_class));
	for (guint i = 0; mix->match[i] != NULL; i++)
		json_array_add_string_element(drivers, mix->match[i]);
	json_object_set_array_member(o, "drivers", drivers);
	json_object_set_string_member(o, "products", mix->products);
	for (guint i = 0; i < mix->weights->len; i++) {
		const MgDriverWeight *w = g_ptr_array_index(mix->weights, i);
		JsonObject *wo = json_object_new();
		json_object_set_string_member(wo, "vendor", w->vendor->id);
		json_object_set_int_member(wo, "weight", w->weight);
		json_object_set_double_member(
		    wo, "share", total > 0 ? w->weight / (double)total : 0.0);
		json_object_set_string_member(wo, "source", w->source);
		json_array_add_object_element(weights, wo);
	}
	json_object_set_array_member(o, "weights", weights);
	for (guint i = 0; i < mix->notes->len; i++)
		json_array_add_string_element(notes, g_ptr_array_index(mix->notes, i));
	json_object_set_array_member(o, "notes", notes);
	json_node_take_object(node, o);
	return node;
}

JsonNode *
mg_vendors_mixes_json(MgCatalogue *catalogue, MgDeviceClass shown)
{
	GPtrArray *mixes = mg_catalogue_get_driver_mixes(catalogue);
	JsonArray *arr = json_array_new();
	JsonNode *node = json_node_new(JSON_NODE_ARRAY);

	for (guint i = 0; i < mixes->len; i++) {
		const MgDriverMix *mix = g_ptr_array_index(mixes, i);
		if ((mix->device_class & shown) != 0)
			json_array_add_element(arr, mg_vendors_mix_json(mix));
	}
	json_node_take_array(node, arr);
	return node;
}
