/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-policy.h"
#include "mg-verdict.h"

G_BEGIN_DECLS

/* macguise.conf: the defaults profiles inherit, per profile type, and the
 * service's global settings. */
typedef struct {
	MgPolicy wifi;
	MgPolicy ethernet;
	MgPolicy ap;                 /* Wi-Fi profiles in access-point mode (hotspots) */
	guint probe_window_ms;       /* the pre-up uniqueness check's window; 0: off */
	MgProbeKinds probes;         /* which probes it makes; 0: off */
	guint conflict_max_attempts; /* reassignments after conflicts, then stop */
	guint history_max_entries;   /* reuse-history bounds */
	gint64 history_max_age;      /* seconds */
} MgConfig;

#define MG_CONFIG_FILE_NAME "macguise.conf"
#define MG_CONFIG_DEFAULT_DIR "/etc/macguise"

void mg_config_init_default(MgConfig *config);
void mg_config_clear(MgConfig *config);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(MgConfig, mg_config_clear)
/* Strict: an unknown group or key, or a bad value, is an error naming it. */
gboolean mg_config_load_from_data(MgConfig *config, const char *text, gsize len, GError **error);
/* A missing file leaves the defaults; an unreadable or bad one is an error. */
gboolean mg_config_load_file(MgConfig *config, const char *path, GError **error);
/* $CONFIGURATION_DIRECTORY (its first entry) or /etc/macguise, + macguise.conf */
char *mg_config_default_path(void);

/* The defaults for a profile of class @device_class, then @device_class itself where the
 * policy says "auto". */
const MgPolicy *mg_config_policy_for(const MgConfig *config, MgDeviceClass device_class);

G_END_DECLS
