/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-generator"

#include "config.h"

#include "mg-generator.h"

#include <glib/gi18n-lib.h>

#include "mg-error.h"

typedef struct {
	const MgVendor *vendor;
	guint32 weight;           /* the vendor's weight for the class */
	GPtrArray *entries;       /* the vendor's rows drawable for the class now */
	GArray *entry_cumulative; /* guint32: running sum of the rows' weights */
} MgGeneratorVendor;

struct _MgGenerator {
	GArray *vendors;           /* MgGeneratorVendor */
	GArray *vendor_cumulative; /* guint32: running sum of the vendors' weights */
	guint32 total_weight;
};

static void
mg_generator_vendor_clear(MgGeneratorVendor *gv)
{
	g_clear_pointer(&gv->entries, g_ptr_array_unref);
	g_clear_pointer(&gv->entry_cumulative, g_array_unref);
}

void
mg_generator_free(MgGenerator *generator)
{
	if (generator == NULL)
		return;
	g_array_unref(generator->vendors);
	g_array_unref(generator->vendor_cumulative);
	g_free(generator);
}

/* The serial range a row allows once the all-zero and all-one serials,
 * which real vendors do not hand out, are taken away. */
static gboolean
mg_entry_drawable_range(const MgCatalogueEntry *e, guint64 *lo, guint64 *hi)
{
	guint64 all_one = (G_GUINT64_CONSTANT(1) << mg_prefix_serial_bits(&e->prefix)) - 1;
	*lo = MAX(e->serial_min, 1);
	*hi = MIN(e->serial_max, all_one - 1);
	return *lo <= *hi;
}

guint32
mg_block_draw_weight(const MgCatalogueEntry *entry, MgDeviceClass device_class, gint64 now)
{
	gint64 age_days = (now - entry->registered) / (24 * 60 * 60);
	guint64 lo, hi;
	guint32 size;

	if (!mg_entry_drawable_range(entry, &lo, &hi) || age_days < MG_BLOCK_MIN_AGE_DAYS)
		return 0;
	/* In MA-S units (4,096 addresses): an MA-L is 4,096 of them, an MA-M
	 * 256, a row confined to fewer serials at least one. */
	size = (guint32)MAX((entry->serial_max - entry->serial_min + 1) >> 12, 1);
	if (device_class == MG_DEVICE_CLASS_WIFI && age_days > MG_BLOCK_WIFI_OLD_DAYS)
		return size;
	return size * MG_BLOCK_WIFI_OLD_DIVISOR;
}

/* The vendor's rows for the class, each with its weight at @now. */
static void
mg_generator_vendor_fill(MgGeneratorVendor *gv, MgDeviceClass device_class, gint64 now)
{
	guint32 sum = 0;

	gv->entries = g_ptr_array_new();
	gv->entry_cumulative = g_array_new(FALSE, FALSE, sizeof(guint32));
	for (guint j = 0; j < gv->vendor->entries->len; j++) {
		MgCatalogueEntry *e = g_ptr_array_index(gv->vendor->entries, j);
		guint32 w;
		if ((e->classes & device_class) == 0 || e->era != MG_ERA_CURRENT)
			continue;
		w = mg_block_draw_weight(e, device_class, now);
		/* A table too big for the sum (no real one is) loses its tail. */
		if (w == 0 || w > G_MAXUINT32 - sum)
			continue;
		sum += w;
		g_ptr_array_add(gv->entries, e);
		g_array_append_val(gv->entry_cumulative, sum);
	}
}

/* The vendors of @all for the class (those of @requested when it is not
 * empty), weighted by @mix where given, else by their class weight. */
static MgGenerator *
mg_generator_build(GPtrArray *all,
		   MgDeviceClass device_class,
		   GPtrArray *requested,
		   const MgDriverMix *mix,
		   gint64 now,
		   GError **error)
{
	g_autoptr(MgGenerator) gen = g_new0(MgGenerator, 1);

	gen->vendors = g_array_new(FALSE, TRUE, sizeof(MgGeneratorVendor));
	gen->vendor_cumulative = g_array_new(FALSE, FALSE, sizeof(guint32));
	g_array_set_clear_func(gen->vendors, (GDestroyNotify)mg_generator_vendor_clear);

	for (guint i = 0; i < all->len; i++) {
		const MgVendor *v = g_ptr_array_index(all, i);
		MgGeneratorVendor gv = { v, 0, NULL, NULL };

		if ((v->classes & device_class) == 0 ||
		    (requested->len > 0 && !g_ptr_array_find(requested, v, NULL)))
			continue;
		gv.weight =
		    mix != NULL ? mg_driver_mix_weight(mix, v) : mg_vendor_weight(v, device_class);
		if (gv.weight == 0)
			continue;
		mg_generator_vendor_fill(&gv, device_class, now);
		if (gv.entries->len == 0 || gv.weight > G_MAXUINT32 - gen->total_weight) {
			mg_generator_vendor_clear(&gv);
			continue;
		}
		gen->total_weight += gv.weight;
		g_array_append_val(gen->vendor_cumulative, gen->total_weight);
		g_array_append_val(gen->vendors, gv);
	}
	if (gen->vendors->len == 0) {
		g_set_error(error,
			    MG_ERROR,
			    MG_ERROR_NO_CANDIDATE,
			    _("no vendor in the catalogue has current %s addresses"),
			    mg_device_class_to_string(device_class));
		return NULL;
	}
	return g_steal_pointer(&gen);
}

MgGenerator *
mg_generator_new(MgCatalogue *catalogue,
		 MgDeviceClass device_class,
		 const char *const *vendors,
		 gint64 now,
		 GError **error)
{
	g_autoptr(GPtrArray) requested = g_ptr_array_new();

	g_return_val_if_fail(device_class == MG_DEVICE_CLASS_WIFI ||
				 device_class == MG_DEVICE_CLASS_ETHERNET ||
				 device_class == MG_DEVICE_CLASS_AP,
			     NULL);
	/* By the catalogue's own matching (id or name, any case). */
	for (guint i = 0; vendors != NULL && vendors[i] != NULL; i++) {
		const MgVendor *v = mg_catalogue_find_vendor(catalogue, vendors[i]);
		if (v == NULL) {
			g_set_error(error,
				    MG_ERROR,
				    MG_ERROR_NOT_FOUND,
				    _("'%s' is not a vendor in the catalogue"),
				    vendors[i]);
			return NULL;
		}
		g_ptr_array_add(requested, (gpointer)v);
	}
	return mg_generator_build(
	    mg_catalogue_get_vendors(catalogue), device_class, requested, NULL, now, error);
}

MgGenerator *
mg_generator_new_for_mix(MgCatalogue *catalogue, const MgDriverMix *mix, gint64 now, GError **error)
{
	g_autoptr(GPtrArray) none = g_ptr_array_new();

	return mg_generator_build(
	    mg_catalogue_get_vendors(catalogue), mix->device_class, none, mix, now, error);
}

MgGenerator *
mg_generator_new_for_driver(MgCatalogue *catalogue,
			    MgDeviceClass device_class,
			    const char *driver,
			    gint64 now,
			    const MgDriverMix **mix,
			    GError **error)
{
	const MgDriverMix *found = mg_catalogue_find_driver_mix(catalogue, device_class, driver);
	g_autoptr(GPtrArray) none = g_ptr_array_new();
	MgGenerator *gen = NULL;

	g_return_val_if_fail(device_class == MG_DEVICE_CLASS_WIFI ||
				 device_class == MG_DEVICE_CLASS_ETHERNET ||
				 device_class == MG_DEVICE_CLASS_AP,
			     NULL);
	if (found != NULL)
		gen = mg_generator_build(
		    mg_catalogue_get_vendors(catalogue), device_class, none, found, now, NULL);
	/* A mix whose every block is too young or gone draws as the class. */
	if (gen == NULL) {
		found = NULL;
		gen = mg_generator_build(
		    mg_catalogue_get_vendors(catalogue), device_class, none, NULL, now, error);
	}
	if (mix != NULL)
		*mix = found;
	return gen;
}

/* The first index whose running sum exceeds a uniform draw below the total:
 * each index in proportion to its own weight. */
static guint
mg_pick_cumulative(MgRandom *rng, const GArray *cumulative)
{
	guint lo = 0, hi = cumulative->len - 1;
	guint32 r = mg_random_uniform(rng, g_array_index(cumulative, guint32, hi));

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		if (g_array_index(cumulative, guint32, mid) > r)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* A row's share of its vendor's draws. */
static double
mg_generator_vendor_entry_share(const MgGeneratorVendor *gv, guint j)
{
	const GArray *c = gv->entry_cumulative;
	guint32 before = j > 0 ? g_array_index(c, guint32, j - 1) : 0;
	return (double)(g_array_index(c, guint32, j) - before) /
	       g_array_index(c, guint32, c->len - 1);
}

gboolean
mg_generator_next(MgGenerator *gen,
		  MgRandom *rng,
		  MgAcceptFunc accept,
		  gpointer user_data,
		  guint max_attempts,
		  MgMac *mac,
		  const MgCatalogueEntry **entry,
		  GError **error)
{
	for (guint attempt = 0; attempt < max_attempts; attempt++) {
		const MgGeneratorVendor *gv =
		    &g_array_index(gen->vendors,
				   MgGeneratorVendor,
				   mg_pick_cumulative(rng, gen->vendor_cumulative));
		const MgCatalogueEntry *e =
		    g_ptr_array_index(gv->entries, mg_pick_cumulative(rng, gv->entry_cumulative));
		guint64 lo, hi;
		MgMac candidate;

		mg_entry_drawable_range(e, &lo, &hi);
		/* Serial ranges are at most 24 bits wide, so they fit a guint32. */
		mg_prefix_make_mac(
		    &e->prefix, lo + mg_random_uniform(rng, (guint32)(hi - lo + 1)), &candidate);
		g_assert(mg_mac_is_global_unicast(&candidate));
		if (accept != NULL && !accept(&candidate, user_data))
			continue;
		*mac = candidate;
		if (entry != NULL)
			*entry = e;
		return TRUE;
	}
	g_set_error(error,
		    MG_ERROR,
		    MG_ERROR_NO_CANDIDATE,
		    _("no acceptable address after %u candidates"),
		    max_attempts);
	return FALSE;
}

gboolean
mg_generator_vendor_block(MgCatalogue *catalogue, const MgMac *hardware, MgPrefix *block)
{
	const MgCatalogueEntry *e;

	if (!mg_mac_is_global_unicast(hardware) || mg_mac_is_zero(hardware))
		return FALSE;
	e = mg_catalogue_lookup(catalogue, hardware);
	if (e != NULL) {
		*block = e->prefix;
	} else {
		block->value = mg_mac_oui(hardware);
		block->bits = MG_BLOCK_MA_L;
	}
	return TRUE;
}

gboolean
mg_generator_next_in_block(const MgPrefix *block,
			   MgRandom *rng,
			   MgAcceptFunc accept,
			   gpointer user_data,
			   guint max_attempts,
			   MgMac *mac,
			   GError **error)
{
	guint bits = mg_prefix_serial_bits(block);
	guint32 span = (guint32)((G_GUINT64_CONSTANT(1) << bits) - 2); /* 1 .. all-one - 1 */

	g_return_val_if_fail(bits >= 12 && bits <= 24, FALSE);
	for (guint attempt = 0; attempt < max_attempts; attempt++) {
		MgMac candidate;
		mg_prefix_make_mac(block, 1 + mg_random_uniform(rng, span), &candidate);
		if (!mg_mac_is_global_unicast(&candidate)) {
			g_set_error_literal(error,
					    MG_ERROR,
					    MG_ERROR_NO_CANDIDATE,
					    _("the block is not globally administered unicast"));
			return FALSE;
		}
		if (accept != NULL && !accept(&candidate, user_data))
			continue;
		*mac = candidate;
		return TRUE;
	}
	g_set_error(error,
		    MG_ERROR,
		    MG_ERROR_NO_CANDIDATE,
		    _("no acceptable address after %u candidates"),
		    max_attempts);
	return FALSE;
}

double
mg_generator_vendor_share(const MgGenerator *gen, const MgVendor *vendor)
{
	for (guint i = 0; i < gen->vendors->len; i++) {
		const MgGeneratorVendor *gv = &g_array_index(gen->vendors, MgGeneratorVendor, i);
		if (gv->vendor == vendor)
			return (double)gv->weight / gen->total_weight;
	}
	return 0.0;
}

double
mg_generator_same_vendor(const MgGenerator *gen)
{
	double sum = 0.0;
	for (guint i = 0; i < gen->vendors->len; i++) {
		const MgGeneratorVendor *gv = &g_array_index(gen->vendors, MgGeneratorVendor, i);
		double p = (double)gv->weight / gen->total_weight;
		sum += p * p;
	}
	return sum;
}

/* Sum over addresses of p(a)^2: vendor by weight, row by its draw weight,
 * serial uniformly over the row's drawable range, as mg_generator_next()
 * draws. */
double
mg_generator_same_address(const MgGenerator *gen)
{
	double sum = 0.0;
	for (guint i = 0; i < gen->vendors->len; i++) {
		const MgGeneratorVendor *gv = &g_array_index(gen->vendors, MgGeneratorVendor, i);
		double pv = (double)gv->weight / gen->total_weight;
		for (guint j = 0; j < gv->entries->len; j++) {
			double pe = pv * mg_generator_vendor_entry_share(gv, j);
			guint64 lo, hi;
			mg_entry_drawable_range(g_ptr_array_index(gv->entries, j), &lo, &hi);
			/* n addresses, each with pe/n: n * (pe/n)^2 */
			sum += pe * pe / (double)(hi - lo + 1);
		}
	}
	return sum;
}

double
mg_generator_entry_share(const MgGenerator *gen, const MgCatalogueEntry *entry)
{
	for (guint i = 0; i < gen->vendors->len; i++) {
		const MgGeneratorVendor *gv = &g_array_index(gen->vendors, MgGeneratorVendor, i);
		guint j;
		if (gv->vendor == entry->vendor && g_ptr_array_find(gv->entries, entry, &j))
			return (double)gv->weight / gen->total_weight *
			       mg_generator_vendor_entry_share(gv, j);
	}
	return 0.0;
}
