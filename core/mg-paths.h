/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Identifiers and paths every part of macguise checks or finds the same
 * way: a leaf, so that no header needs another for them. */

#include <glib.h>

G_BEGIN_DECLS

/* A profile UUID as NetworkManager writes them (hex digits and dashes). */
gboolean mg_uuid_is_valid(const char *uuid);

/* An interface name the kernel could have: 1..15 bytes, no '/', ':' or space. */
gboolean mg_iface_name_is_valid(const char *name);

/* The first directory of a systemd *_DIRECTORY variable (StateDirectory=
 * and the like set them), or @fallback. */
char *mg_systemd_directory(const char *variable, const char *fallback);

G_END_DECLS
