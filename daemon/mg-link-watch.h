/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-mac.h"

G_BEGIN_DECLS

/* The passive watch that follows a clean link check: macguised reads the
 * packet socket the pre-up hook checked with, filtered in the kernel to
 * frames from the watched address, for a bounded time. A frame that another
 * station sent is the finding; nothing is ever sent. */
typedef struct _MgLinkWatch MgLinkWatch;

/* How a watch ended: with a finding (@evidence, one line naming no address),
 * or without one (@evidence NULL: its time ran out, or the link went down).
 * @after_ms: since the watch began. The watch has stopped reading; the
 * callback may free it. */
typedef void (*MgLinkWatchEnded)(const char *evidence, guint after_ms, gpointer user_data);

/* Takes @fd, a packet socket bound to @ifindex (anything else is an error,
 * and closed), filters it to frames from @mac and watches it for @seconds. */
MgLinkWatch *mg_link_watch_new(int fd,
			       int ifindex,
			       const MgMac *mac,
			       guint seconds,
			       MgLinkWatchEnded ended,
			       gpointer user_data,
			       GError **error);
void mg_link_watch_free(MgLinkWatch *watch);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgLinkWatch, mg_link_watch_free)

G_END_DECLS
