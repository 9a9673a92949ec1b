/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-catalogue.h"
#include "mg-mac.h"
#include "mg-random.h"

G_BEGIN_DECLS

/* Decides whether a candidate may be used; FALSE makes the generator draw
 * again. Later callers refuse local, historic and neighbour addresses. */
typedef gboolean (*MgAcceptFunc)(const MgMac *candidate, gpointer user_data);

typedef struct _MgGenerator MgGenerator;

/* The block-age rule.  A maker fills a block in order of serial over a few
 * years, so a block registered under two years ago has hardly shipped: it is
 * not drawn.  Wi-Fi cards are replaced sooner than machines (new standards,
 * new security), so a Wi-Fi block over ten years old is drawn at a quarter
 * of its size's weight; Ethernet ports live as long as the machine. */
#define MG_BLOCK_MIN_AGE_DAYS 730
#define MG_BLOCK_WIFI_OLD_DAYS 3652
#define MG_BLOCK_WIFI_OLD_DIVISOR 4

/* Draws from the current-era rows of @catalogue for @device_class (one class),
 * restricted to @vendors (ids or names; NULL or empty for every vendor), as
 * the age rule allows at @now (Unix seconds).  @catalogue must outlive the
 * generator. */
MgGenerator *mg_generator_new(MgCatalogue *catalogue,
			      MgDeviceClass device_class,
			      const char *const *vendors,
			      gint64 now,
			      GError **error);
/* As mg_generator_new() for every vendor, but weighted by the mix of the
 * chip family @driver belongs to (as NetworkManager reports the device's
 * driver in GENERAL.DRIVER), so that the address's maker is one that ships
 * the chip.  Where no mix takes @driver (NULL included), or none of the mix's
 * blocks may be drawn at @now, the class's mix serves.  @mix is set to the
 * mix used, NULL for the class's. */
MgGenerator *mg_generator_new_for_driver(MgCatalogue *catalogue,
					 MgDeviceClass device_class,
					 const char *driver,
					 gint64 now,
					 const MgDriverMix **mix,
					 GError **error);
/* Draws by @mix's weights alone (its class's rows); fails as mg_generator_new()
 * where none of its blocks may be drawn at @now. */
MgGenerator *mg_generator_new_for_mix(MgCatalogue *catalogue,
				      const MgDriverMix *mix,
				      gint64 now,
				      GError **error);
void mg_generator_free(MgGenerator *generator);

/* A vendor in proportion to its weight for the class, one of its blocks in
 * proportion to mg_block_draw_weight(), a serial uniformly over the block's
 * range, never all-zero or all-one. Gives up with MG_ERROR_NO_CANDIDATE after @max_attempts
 * refusals. */
gboolean mg_generator_next(MgGenerator *generator,
			   MgRandom *rng,
			   MgAcceptFunc accept,
			   gpointer user_data,
			   guint max_attempts,
			   MgMac *mac,
			   const MgCatalogueEntry **entry,
			   GError **error);

/* The generator's distribution, exactly, for analysis (bench/fleet):
 * a vendor's share of the draws, the chance two independent draws are the
 * same vendor, and the chance they are the same address. */
double mg_generator_vendor_share(const MgGenerator *generator, const MgVendor *vendor);
double mg_generator_same_vendor(const MgGenerator *generator);
double mg_generator_same_address(const MgGenerator *generator);
/* A row's share of the draws (0 when the generator never draws it). */
double mg_generator_entry_share(const MgGenerator *generator, const MgCatalogueEntry *entry);
/* A row's weight within its vendor at @now, in MA-S units (4,096 addresses),
 * times the age rule's factor; 0 when the row is not drawn. */
guint32 mg_block_draw_weight(const MgCatalogueEntry *entry, MgDeviceClass device_class, gint64 now);

/* For keep-vendor: the registry block of @hardware, the catalogue's where it
 * has one (it knows MA-M and MA-S blocks), else its MA-L OUI. FALSE for an
 * address no vendor made (locally administered, multicast, zero). */
gboolean mg_generator_vendor_block(MgCatalogue *catalogue, const MgMac *hardware, MgPrefix *block);
/* A serial drawn uniformly within @block, never all-zero or all-one. */
gboolean mg_generator_next_in_block(const MgPrefix *block,
				    MgRandom *rng,
				    MgAcceptFunc accept,
				    gpointer user_data,
				    guint max_attempts,
				    MgMac *mac,
				    GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgGenerator, mg_generator_free)

G_END_DECLS
