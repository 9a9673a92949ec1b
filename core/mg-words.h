/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The words enums are written as (on D-Bus, in the state file, in case
 * files): one lookup for every table of them. */

#include <glib.h>

G_BEGIN_DECLS

/* The index of @text in @words (@n of them), as @index. */
gboolean mg_word_index(const char *const *words, guint n, const char *text, guint *index);

G_END_DECLS
