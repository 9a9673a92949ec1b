/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-mac.h"

G_BEGIN_DECLS

/* The profile's user-data key (NetworkManager's "user" setting) under which
 * macguise writes, with each address it writes, the mark of that address.
 * Not a "macguise." policy setting: policy --reset leaves it. */
#define MG_PROFILE_MARK_KEY "org.macguise.mark"

/* The mark says "macguise wrote this address into this profile", so that
 * a profile stays managed when the state that knew it is lost (a lost
 * secret key, a damaged or newer-format state): without it, macguise's own
 * address would look set by hand and the profile would be left alone for
 * good. It is the first 20 bits, in hex, of a BLAKE2b digest of the
 * profile's UUID and the address. It is not keyed, so that it survives the
 * loss of the key, and need not be unforgeable: whoever can write it can
 * as well write the profile's macguise.* policy or clear its address,
 * which hand the profile to macguise anyway. It must stop matching when
 * someone sets another address by hand, or copies the profile under a new
 * UUID; binding both does that, but for one hand-set address in 2^20.
 *
 * It must also say nothing of an address that is gone. Beside the address
 * it describes it tells no reader anything the profile does not; left
 * behind by an address set by hand, every user who can read the profile
 * could test the catalogue's 4.6 x 10^10 addresses against it. So it is
 * short, leaving about 44,000 candidates, and macguise removes a mark that
 * no longer matches its profile's address (MG_DO_UNMARK) once it sees it.
 * Marks of the whole digest, which earlier versions wrote, still match. */
#define MG_PROFILE_MARK_LEN 5
char *mg_profile_mark(const char *uuid, const MgMac *mac);
/* mode=off writes `permanent` with the mark of the all-zero address, which
 * no card has and macguise never gives: a `permanent` macguise wrote is
 * then told from one typed by hand, which is the user's, and the profile
 * is taken up again when its mode changes, even after the state is lost. */
#define MG_PROFILE_PERMANENT "permanent"
/* Whether @mark (NULL: none) is the mark of @mac in the profile @uuid. */
gboolean mg_profile_mark_matches(const char *mark, const char *uuid, const MgMac *mac);

G_END_DECLS
