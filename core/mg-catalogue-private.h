/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the catalogue's parts: the parser fills what the lookups read. */
#pragma once

#include "mg-catalogue.h"

G_BEGIN_DECLS

struct _MgCatalogue {
	GPtrArray *vendors; /* MgVendor* */
	GPtrArray *entries; /* MgCatalogueEntry* */
	GHashTable *by_oui; /* first 24 bits -> GPtrArray of MgCatalogueEntry* */
};

/* Reads the table's lines into @catalogue's vendors and entries. */
gboolean mg_catalogue_parse_lines(MgCatalogue *catalogue, char **lines, GError **error);

G_END_DECLS
