/* SPDX-License-Identifier: GPL-3.0-or-later */
/* NetworkManager's configuration files, read as NetworkManager reads them,
 * and what else on the machine announces it (systemd-resolved, avahi). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The value NetworkManager's configuration gives @key in the section
 * @group or a "@group-NAME" one, the last one read winning; NULL when none
 * does. With @unconditional, sections limited to some devices
 * (match-device=) are passed over. The files are read once a process. */
char *mg_nm_conf_value(const char *group, const char *key, gboolean unconditional);
/* A connection default of NetworkManager's configuration (connection.llmnr)
 * as the integer NetworkManager keeps, or @fallback. */
int mg_nm_conf_int(const char *key, int fallback);
/* Whether systemd-resolved and avahi-daemon run (their sockets exist). */
gboolean mg_resolved_running(void);
gboolean mg_avahi_running(void);

G_END_DECLS
