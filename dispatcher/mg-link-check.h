/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-probe.h"

G_BEGIN_DECLS

#include "mg-mac.h"

typedef struct _MgLinkCheck MgLinkCheck;

/* Starts watching @ifindex through a packet socket for frames that carry
 * @mac, for a window that started at @window_start (g_get_monotonic_time():
 * the hook's start), so that the checker's start and asking macguised about
 * the profile are spent inside the window rather than before it. An error
 * means no check was made (no socket, say). */
MgLinkCheck *mg_link_check_open(int ifindex, const MgMac *mac, gint64 window_start, GError **error);
/* Sends the enabled active probes now and again half-way through what is
 * left of the window, and tallies every frame received from the window's
 * start to its end that says someone else uses the target's address. The
 * window ends @window_ms after the open, or half a window after now if that
 * is later. */
gboolean mg_link_check_finish(MgLinkCheck *check,
			      const MgProbeTarget *target,
			      MgProbeKinds kinds,
			      guint window_ms,
			      MgProbeTally *tally,
			      GError **error);
/* The packet socket, for macguised to go on watching with after a clean
 * check (passive-watch-s), filtered from now on as that watch filters
 * (mg_probe_filter_build_source); the machine's own frames come through it
 * as they did in the window, so that whatever the machine sends before
 * macguised reads is known as its own. The check keeps no socket after
 * it. -1: none, and @error says why. */
int mg_link_check_steal_socket(MgLinkCheck *check, const MgMac *mac, GError **error);
void mg_link_check_free(MgLinkCheck *check);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgLinkCheck, mg_link_check_free)

G_END_DECLS
