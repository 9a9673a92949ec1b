/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-words.h"

gboolean
mg_word_index(const char *const *words, guint n, const char *text, guint *index)
{
	for (guint i = 0; i < n; i++) {
		if (g_strcmp0(text, words[i]) == 0) {
			*index = i;
			return TRUE;
		}
	}
	return FALSE;
}
