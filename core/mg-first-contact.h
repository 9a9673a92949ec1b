/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-catalogue.h"
#include "mg-random.h"

G_BEGIN_DECLS

/* NetworkManager's configuration for first contact: a profile that names no
 * MAC address (an adapter's automatic "Wired connection 1", `nmcli device
 * connect`, a network joined from GNOME) comes up with a random address in a
 * catalogue block instead of the card's own. NetworkManager picks one OUI of
 * the list uniformly per activation, so the list holds @draws weighted draws
 * per class (a common vendor appears often): only whole MA-L rows, since its
 * mask is one 24-bit mask for all. */
#define MG_FIRST_CONTACT_FILE "90-macguise-first-contact.conf"
#define MG_FIRST_CONTACT_DRAWS 64

/* Drawn as the block-age rule allows at @now (Unix seconds). */
char *mg_first_contact_conf(
    MgCatalogue *catalogue, MgRandom *rng, guint draws, gint64 now, GError **error);

/* Whether @text is such a configuration that lists only blocks a draw from
 * @catalogue at @now could give: what an earlier catalogue drew (a package
 * upgrade dropped a block, say), or a file that is not macguise's, is not. */
gboolean mg_first_contact_conf_is_current(MgCatalogue *catalogue, const char *text, gint64 now);

G_END_DECLS
