/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mg-config.h"

G_BEGIN_DECLS

/* @config becomes the built-in defaults with @kf's settings over them;
 * strict: a bad setting is an error naming it and leaves @config whole (a
 * copy is filled first). */
gboolean mg_config_take_keyfile(MgConfig *config, GKeyFile *kf, GError **error);

G_END_DECLS
