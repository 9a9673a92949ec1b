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
 * good. It is a BLAKE2b digest of the profile's UUID and the address, in
 * hex. It is not keyed, so that it survives the loss of the key, and it
 * need not be secret or unforgeable: it sits beside the address it
 * describes, so it tells no reader anything the profile does not, and
 * whoever can write it can as well write the profile's macguise.* policy or
 * clear its address, which hand the profile to macguise anyway. What it
 * must do is stop matching when someone sets another address by hand, or
 * copies the profile under a new UUID; binding both does that. */
char *mg_profile_mark(const char *uuid, const MgMac *mac);
/* mode=off writes `permanent` with the mark of the all-zero address, which
 * no card has and macguise never gives: a `permanent` macguise wrote is
 * then told from one typed by hand, which is the user's, and the profile
 * is taken up again when its mode changes, even after the state is lost. */
#define MG_PROFILE_PERMANENT "permanent"
/* Whether @mark (NULL: none) is the mark of @mac in the profile @uuid. */
gboolean mg_profile_mark_matches(const char *mark, const char *uuid, const MgMac *mac);

G_END_DECLS
