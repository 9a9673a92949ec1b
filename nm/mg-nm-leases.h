/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where NetworkManager keeps its DHCP leases (its NMSTATEDIR on Debian). */
#define MG_NM_DEFAULT_STATE_DIR "/var/lib/NetworkManager"

/* NetworkManager keeps a profile's last DHCP lease in @nm_state_dir, named
 * by the profile's UUID and interface ("internal-UUID-IFACE.lease", and
 * dhclient's "dhclient-…" and "dhclient6-…"), and at its next activation
 * asks the server for that lease's address again (DHCP option 50, in an
 * INIT-REBOOT request): the first message from a new MAC address would name
 * the old one's lease. A profile given a new address forgets them. Returns
 * how many were removed, and logs it for the profile named @id; what cannot
 * be removed is logged too. */
guint mg_nm_forget_leases(const char *nm_state_dir, const char *uuid, const char *id);

G_END_DECLS
