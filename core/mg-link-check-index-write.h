/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-link-check-index.h"

G_BEGIN_DECLS

/* The profiles the pre-up hook has nothing to check for, as macguised
 * publishes them in its runtime directory, so that the hook can leave
 * at once without a D-Bus round trip. A profile not listed is asked
 * about over D-Bus as before: an index that lags behind costs time,
 * never a missed check of a profile it has not heard of. The reader is
 * mg-link-check-index.c. */

#define MG_LINK_CHECK_INDEX_FILE "link-check-index"
#define MG_RUNTIME_DEFAULT_DIR "/run/macguise"

/* @uuids: the profiles to skip; @all: every profile (the check is off). */
char *mg_link_check_index_to_data(GPtrArray *uuids, gboolean all, gsize *len);

/* $RUNTIME_DIRECTORY (systemd's RuntimeDirectory=) or /run/macguise. */
char *mg_runtime_default_dir(void);

G_END_DECLS
