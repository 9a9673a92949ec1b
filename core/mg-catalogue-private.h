/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the catalogue's parts: the parser fills what the lookups read. */
#pragma once

#include "mg-catalogue.h"

G_BEGIN_DECLS

struct _MgCatalogue {
	GPtrArray *vendors; /* MgVendor* */
	GPtrArray *entries; /* MgCatalogueEntry* */
	GHashTable *by_oui; /* first 24 bits -> GPtrArray of MgCatalogueEntry* */
	GPtrArray *drivers; /* MgDriverMix*, after the vendors in the table */
};

typedef struct {
	MgCatalogue *catalogue;
	MgVendor *vendor; /* the block being read */
	MgDriverMix *mix; /* the driver block being read */
	guint line;
} MgCatalogueParser;

/* Reads the table's lines into @catalogue's vendors and entries. */
gboolean mg_catalogue_parse_lines(MgCatalogue *catalogue, char **lines, GError **error);

/* A `driver ID` line (@rest is the id), and the indented lines of its block. */
gboolean
mg_catalogue_parse_driver_start(MgCatalogueParser *parser, const char *rest, GError **error);
gboolean mg_catalogue_parse_driver_line(MgCatalogueParser *parser,
					const char *key,
					const char *rest,
					GError **error);
/* Checks the block being read is whole; NULL parser->mix is fine. */
gboolean mg_catalogue_finish_driver(MgCatalogueParser *parser, GError **error);
void mg_driver_mix_free(MgDriverMix *mix);

G_END_DECLS
