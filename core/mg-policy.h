/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-catalogue.h"

G_BEGIN_DECLS

/* The prefix of every key macguise keeps in a profile's user data. */
#define MG_POLICY_KEY_PREFIX "macguise."

typedef enum {
	MG_MODE_OFF,         /* macguise leaves the profile alone */
	MG_MODE_PLAUSIBLE,   /* an address from the catalogue */
	MG_MODE_KEEP_VENDOR, /* the hardware's own block, a fresh serial */
} MgMode;

typedef enum {
	MG_ROTATE_NEVER,      /* one plausible address, kept */
	MG_ROTATE_ACTIVATION, /* a fresh address for every activation */
	MG_ROTATE_BOOT,       /* a fresh address every boot */
	MG_ROTATE_INTERVAL,   /* after `interval` seconds (daily, weekly, 36h…) */
} MgRotate;

/* Bounds on a rotation interval: shorter than an hour would rotate under a
 * user who merely reconnects; longer than a year is "never" in disguise. */
#define MG_ROTATE_INTERVAL_MIN (G_GINT64_CONSTANT(3600))
#define MG_ROTATE_INTERVAL_MAX (G_GINT64_CONSTANT(366) * 86400)

typedef struct {
	MgMode mode;
	MgRotate rotate;
	gint64 interval;            /* seconds, for MG_ROTATE_INTERVAL */
	MgDeviceClass device_class; /* MG_DEVICE_CLASS_NONE: from the profile type ("auto") */
	GStrv vendors;              /* NULL: any vendor */
	gboolean harden;            /* rotate IPv6/DHCP identifiers with the MAC */
	/* For access points: the local time of day (minutes since midnight,
	 * [start, end), wrapping past midnight) in which a due rotation may
	 * restart the hotspot if no client is connected; -1: none, a due
	 * rotation waits until the hotspot goes down. */
	int quiet_start;
	int quiet_end;
} MgPolicy;

void mg_policy_init_default(MgPolicy *policy);
void mg_policy_clear(MgPolicy *policy);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(MgPolicy, mg_policy_clear)
void mg_policy_copy(MgPolicy *dest, const MgPolicy *src);

/* Sets one setting by its name without the "macguise." prefix ("mode",
 * "rotate", "class", "vendors", "harden", "quiet-hours"). On error the policy is unchanged
 * and the error names the key, the value and what is allowed. */
gboolean mg_policy_set(MgPolicy *policy, const char *name, const char *value, GError **error);
/* The same for a profile's user-data key ("macguise.mode"). Keys outside
 * "macguise." belong to other tools: returns TRUE and sets *handled FALSE. */
gboolean mg_policy_set_user_data(
    MgPolicy *policy, const char *key, const char *value, gboolean *handled, GError **error);
/* Every vendor named must be in the catalogue. */
gboolean mg_policy_check_vendors(const MgPolicy *policy, MgCatalogue *catalogue, GError **error);

/* The canonical text of a setting, as `macguise policy` shows it. */
char *mg_policy_get(const MgPolicy *policy, const char *name);
/* The setting names, in display order; NULL-terminated, static. */
const char *const *mg_policy_names(void);

/* "36h", "3d", "2w", "90m"; plain seconds are refused as ambiguous. */
gboolean
mg_duration_parse(const char *text, gint64 min, gint64 max, gint64 *seconds, GError **error);
char *mg_duration_format(gint64 seconds);

/* Whether @minute (of the local day) falls in the policy's quiet hours. */
gboolean mg_policy_in_quiet_hours(const MgPolicy *policy, int minute);

G_END_DECLS
