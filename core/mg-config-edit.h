/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-config.h"

G_BEGIN_DECLS

/* Changing the per-class defaults of macguise.conf without editing it by
 * hand (`macguise defaults`): pure, from the file's text to the new text. */

/* @text (the file as it is; NULL or "" for none) with @key set to @value in
 * @section, or removed when @value is NULL (back to the packaged or
 * built-in default). Comments and every other line stay. The result is
 * checked as macguised would read it: a line it would skip that @text did
 * not have (an unknown key, a bad value) is an error (MG_ERROR_CONFIG) and
 * nothing is returned, while a bad line already there and not touched stays
 * (it costs only itself); @text that is not a key file is an error too. */
char *mg_config_edit_default(
    const char *text, MgConfigSection section, const char *key, const char *value, GError **error);

G_END_DECLS
