/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-mac.h"

G_BEGIN_DECLS

/* The IEEE MA-L, MA-M and MA-S registries as Debian's ieee-data ships them
 * (oui.csv, mam.csv, oui36.csv). Used at build time to check the catalogue
 * and by `macguise lookup` for addresses outside it. */
typedef struct _MgIeeeRegistry MgIeeeRegistry;

MgIeeeRegistry *mg_ieee_registry_new_from_dir(const char *dir, GError **error);
/* One file in ieee-data's CSV form holding blocks of every size (the
 * catalogue's vendored registry snapshot). */
MgIeeeRegistry *mg_ieee_registry_new_from_file(const char *path, GError **error);
/* One CSV file's text, for tests and fuzzing; @bits says which registry, or 0
 * for a file that mixes them (each assignment's length tells). */
gboolean mg_ieee_registry_add_csv(
    MgIeeeRegistry *registry, const char *text, gsize len, MgBlockSize bits, GError **error);
MgIeeeRegistry *mg_ieee_registry_new(void);
void mg_ieee_registry_free(MgIeeeRegistry *registry);

/* The organisation a block is registered to, or NULL. */
const char *mg_ieee_registry_lookup_prefix(MgIeeeRegistry *registry, const MgPrefix *prefix);
/* The organisation of the most specific block holding @mac, or NULL. */
const char *
mg_ieee_registry_lookup_mac(MgIeeeRegistry *registry, const MgMac *mac, MgPrefix *prefix);
guint mg_ieee_registry_count_blocks(MgIeeeRegistry *registry, const char *organization);
guint mg_ieee_registry_size(MgIeeeRegistry *registry);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgIeeeRegistry, mg_ieee_registry_free)

G_END_DECLS
