/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-probe.h"

G_BEGIN_DECLS

/* Watches @ifindex for @window_ms through a packet socket, sending the
 * enabled active probes at the start and again half-way, and tallies every
 * received frame that says someone else uses the target's address. An
 * error means no check was made (no socket, say). */
gboolean mg_link_check_run(int ifindex,
			   const MgProbeTarget *target,
			   MgProbeKinds kinds,
			   guint window_ms,
			   MgProbeTally *tally,
			   GError **error);

G_END_DECLS
