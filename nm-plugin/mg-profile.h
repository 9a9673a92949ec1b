/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <NetworkManager.h>

#include "mg-catalogue.h"
#include "mg-config.h"
#include "mg-random.h"
#include "mg-state.h"

G_BEGIN_DECLS

/* What the running service and the boot step both decide about a profile. */

/* MG_CLASS_ETHERNET or MG_CLASS_WIFI by the profile type; NONE: not ours. */
MgClass mg_profile_class(NMConnection *connection);
const char *mg_profile_cloned_mac(NMConnection *connection, MgClass klass);
/* The defaults for the profile's type, then its own macguise.* user data;
 * a bad value is logged and that one setting keeps its default. */
void mg_profile_policy(const MgConfig *config,
		       MgCatalogue *catalogue,
		       NMConnection *connection,
		       MgClass klass,
		       MgPolicy *policy);
/* An explicit MAC that macguise did not give the profile (now or before),
 * or one of permanent, preserve, random, stable. */
gboolean mg_profile_set_by_hand(MgState *state, const MgProfileState *profile, const char *cloned);
/* A fresh connection.stable-id epoch, so that IPv6 stable-privacy
 * addresses and DHCP identifiers change with the MAC. */
char *mg_profile_new_stable_id(void);
/* A candidate for the profile: not used before here, not another profile's,
 * not in @taken (addresses local interfaces use or were made with). */
gboolean mg_profile_draw(MgCatalogue *catalogue,
			 MgState *state,
			 MgRandom *rng,
			 MgClass klass,
			 const MgPolicy *policy,
			 GArray *taken,
			 MgMac *mac,
			 GError **error);

/* The kernel's id of this boot (a UUID), or "" where it cannot be read. */
char *mg_boot_id_read(void);

G_END_DECLS
