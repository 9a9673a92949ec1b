/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Writing the audit's fixes into a profile: `macguise harden` applies them
 * all; macguised puts back, in a profile whose own macguise.harden is yes,
 * those that something else (FreedomBox's Networks page, nmcli) undid. */
#pragma once

#include <NetworkManager.h>

#include "mg-audit.h"
#include "mg-policy.h"

G_BEGIN_DECLS

/* Writes @f's fix into @c. */
void mg_harden_apply(NMConnection *c, const MgFinding *f);
/* The profile's own macguise.harden is yes (`macguise harden` sets it):
 * macguised keeps it hardened. A default from macguise.conf does not
 * count: it asks for a new stable-id with each address, no more. */
gboolean mg_harden_is_kept(NMConnection *c);
/* The fixes macguised keeps (mg_finding_kept) that @c lacks under
 * @policy; with @apply they are written into @c. The settings they change
 * are added to @settings (may be NULL), comma-separated. How many. */
guint mg_harden_keep(NMConnection *c,
		     const MgPolicy *policy,
		     gboolean user_owned,
		     gboolean apply,
		     GString *settings);

G_END_DECLS
