/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-catalogue.h"
#include "mg-random.h"

G_BEGIN_DECLS

/* NetworkManager's first-contact defaults (mg-first-contact.h), kept by
 * macguised: the boot step writes them before NetworkManager starts, but a
 * package installed without a reboot has had no boot step, and a failed or
 * disabled one wrote none. Where the file is missing, or lists a block the
 * catalogue no longer draws, the keeper writes it anew and has
 * NetworkManager reload its configuration, so a card plugged in meets the
 * network with a catalogue address from then on, not at the next boot. */
typedef struct _MgFirstContactKeeper MgFirstContactKeeper;

/* Keeps the file in @nm_conf_dir, drawn from @catalogue with @rng (both
 * must outlive the keeper), and follows NetworkManager on the system bus;
 * checks once at once. */
MgFirstContactKeeper *
mg_first_contact_keeper_new(const char *nm_conf_dir, MgCatalogue *catalogue, MgRandom *rng);
/* Looks at the file again (macguise.conf was reloaded, say). */
void mg_first_contact_keeper_check(MgFirstContactKeeper *keeper);
void mg_first_contact_keeper_free(MgFirstContactKeeper *keeper);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgFirstContactKeeper, mg_first_contact_keeper_free)

G_END_DECLS
