/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mg-config.h"

G_BEGIN_DECLS

/* @config becomes the built-in defaults with @kf's settings over them;
 * strict: a bad setting is an error naming it and leaves @config whole (a
 * copy is filled first). */
gboolean mg_config_take_keyfile(MgConfig *config, GKeyFile *kf, GError **error);

/* @text's good settings into @merged, each line that cannot be used added
 * to @problems as a line of @name. */
void
mg_config_read_text_into(const char *text, const char *name, GKeyFile *merged, GPtrArray *problems);

G_END_DECLS
