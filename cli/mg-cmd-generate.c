/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise generate: print plausible addresses, as macguised would pick. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>

#include "mg-cli.h"
#include "mg-error.h"
#include "mg-generator.h"

#define MG_GENERATE_MAX_COUNT 100000
/* Refusals before giving up; generate has nothing to refuse yet, but the
 * same bound the daemon uses keeps a pathological catalogue from looping. */
#define MG_GENERATE_MAX_ATTEMPTS 1000

/* @count addresses drawn from @gen, one per line or as a JSON array. */
static gboolean
mg_generate_print(MgGenerator *gen,
		  MgRandom *rng,
		  MgDeviceClass device_class,
		  const MgDriverMix *mix,
		  int count,
		  gboolean json,
		  GError **error)
{
	JsonArray *out = NULL;

	if (json)
		out = json_array_new();
	for (int i = 0; i < count; i++) {
		const MgCatalogueEntry *entry = NULL;
		char mac_text[MG_MAC_STRLEN];
		MgMac mac;

		if (!mg_generator_next(
			gen, rng, NULL, NULL, MG_GENERATE_MAX_ATTEMPTS, &mac, &entry, error)) {
			if (out != NULL)
				json_array_unref(out);
			return FALSE;
		}
		mg_mac_format(&mac, mac_text);
		if (out != NULL) {
			g_autofree char *oui = mg_prefix_to_display(&entry->prefix);
			JsonObject *o = json_object_new();
			json_object_set_string_member(o, "mac", mac_text);
			json_object_set_string_member(o, "oui", oui);
			json_object_set_string_member(o, "vendor", entry->vendor->name);
			json_object_set_string_member(o, "vendor_id", entry->vendor->id);
			json_object_set_string_member(
			    o, "class", mg_device_class_to_string(device_class));
			/* "driver:ID" for a chip family's mix, "class" for the class's */
			if (mix != NULL) {
				g_autofree char *name = g_strconcat("driver:", mix->id, NULL);
				json_object_set_string_member(o, "mix", name);
			} else {
				json_object_set_string_member(o, "mix", "class");
			}
			json_array_add_object_element(out, o);
		} else {
			g_print("%s\n", mac_text);
		}
	}
	if (out != NULL) {
		g_autoptr(JsonNode) root = json_node_new(JSON_NODE_ARRAY);
		json_node_take_array(root, out);
		mg_cli_print_json(root);
	}
	return TRUE;
}

int
mg_cmd_generate(int argc, char **argv)
{
	g_autofree char *class_text = NULL;
	g_auto(GStrv) vendors = NULL;
	g_autofree char *driver = NULL;
	const MgDriverMix *mix = NULL;
	int count = 1;
	gboolean json = FALSE;
	const GOptionEntry entries[] = {
		{ "class",
		  'c',
		  0,
		  G_OPTION_ARG_STRING,
		  &class_text,
		  N_("Device class: wifi (default), ethernet or ap (a Wi-Fi access point)"),
		  "CLASS" },
		{ "vendor",
		  'v',
		  0,
		  G_OPTION_ARG_STRING_ARRAY,
		  &vendors,
		  N_("Draw only from this vendor (id or name; repeatable)"),
		  "NAME" },
		{ "driver",
		  'd',
		  0,
		  G_OPTION_ARG_STRING,
		  &driver,
		  N_("Draw as for a card with this driver (as NetworkManager names it)"),
		  "DRIVER" },
		{ "count",
		  'n',
		  0,
		  G_OPTION_ARG_INT,
		  &count,
		  N_("How many addresses (default 1)"),
		  "N" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON array"), NULL },
		{ NULL },
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(MgGenerator) gen = NULL;
	g_autoptr(MgRandom) rng = NULL;
	MgDeviceClass device_class = MG_DEVICE_CLASS_WIFI;
	MgCatalogue *cat;

	if (!mg_cli_parse_options(
		"generate",
		NULL,
		_("Print plausible, globally administered MAC addresses drawn from the\n"
		  "vendor catalogue, in proportion to each vendor's weight.  With --driver,\n"
		  "from the makers that ship that chip ('macguise lookup' names the chips\n"
		  "a block's maker ships); a driver without a mix draws from the class's."),
		entries,
		&argc,
		&argv))
		return MG_EXIT_USAGE;
	if (argc > 1)
		return mg_cli_usage_error("generate", _("unexpected argument '%s'"), argv[1]);
	if (class_text != NULL && !mg_cli_parse_class("generate", class_text, &device_class))
		return MG_EXIT_USAGE;
	if (count < 1 || count > MG_GENERATE_MAX_COUNT)
		return mg_cli_usage_error("generate",
					  _("--count must be a whole number from 1 to %d"),
					  MG_GENERATE_MAX_COUNT);

	if (driver != NULL && vendors != NULL)
		return mg_cli_usage_error("generate",
					  _("--driver and --vendor exclude each other"));

	cat = mg_cli_catalogue(&error);
	if (cat == NULL)
		return mg_cli_failure("generate", error);
	/* Without --class, the class whose mix takes the driver (r8169: ethernet). */
	for (guint i = 0; class_text == NULL && driver != NULL && i < MG_DEVICE_CLASS_COUNT; i++) {
		if (mg_catalogue_find_driver_mix(cat, mg_device_classes[i], driver) != NULL) {
			device_class = mg_device_classes[i];
			break;
		}
	}
	if (driver != NULL) {
		gen = mg_generator_new_for_driver(
		    cat, device_class, driver, g_get_real_time() / G_USEC_PER_SEC, &mix, &error);
		if (gen != NULL && mix == NULL)
			/* TRANSLATORS: %s is a driver name, then a device class */
			g_printerr(_("macguise generate: no mix for driver '%s'; drawing from "
				     "the %s class's mix\n"),
				   driver,
				   mg_device_class_to_string(device_class));
	} else {
		gen = mg_generator_new(cat,
				       device_class,
				       (const char *const *)vendors,
				       g_get_real_time() / G_USEC_PER_SEC,
				       &error);
	}
	if (gen == NULL) {
		if (g_error_matches(error, MG_ERROR, MG_ERROR_NOT_FOUND)) {
			/* TRANSLATORS: %s says which vendor is unknown */
			g_printerr(_("macguise generate: %s; 'macguise vendors' lists them\n"),
				   error->message);
			return MG_EXIT_USAGE;
		}
		return mg_cli_failure("generate", error);
	}
	rng = mg_random_new_system(&error);
	if (rng == NULL)
		return mg_cli_failure("generate", error);

	if (!mg_generate_print(gen, rng, device_class, mix, count, json, &error))
		return mg_cli_failure("generate", error);
	return MG_EXIT_OK;
}
