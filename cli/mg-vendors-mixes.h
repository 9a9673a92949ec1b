/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise vendors: the catalogue's chip families (mg-vendors-mixes.c). */
#pragma once

#include <json-glib/json-glib.h>

#include "mg-catalogue.h"

G_BEGIN_DECLS

/* Prints the chip families of @device_class (one class), if it has any. */
void mg_vendors_print_mixes(MgCatalogue *catalogue, MgDeviceClass device_class);
/* The chip families of the classes in @shown, as a JSON array. */
JsonNode *mg_vendors_mixes_json(MgCatalogue *catalogue, MgDeviceClass shown);

G_END_DECLS
