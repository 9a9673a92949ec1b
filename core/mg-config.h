/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-policy.h"
#include "mg-verdict.h"

G_BEGIN_DECLS

/* The sections of macguise.conf that hold the defaults profiles inherit. */
typedef enum {
	MG_CONFIG_SECTION_WIFI,
	MG_CONFIG_SECTION_ETHERNET,
	/* Ethernet profiles that share their connection (ipv4.method=shared:
	 * the machine is the router of that network, as a FreedomBox is of
	 * its LAN); a key it lacks comes from [ethernet]. */
	MG_CONFIG_SECTION_ETHERNET_SHARED,
	MG_CONFIG_SECTION_AP,
	MG_CONFIG_SECTION_COUNT,
} MgConfigSection;

/* macguise.conf: the defaults profiles inherit, per profile type, and the
 * service's global settings. */
typedef struct {
	MgPolicy wifi;
	MgPolicy ethernet;
	MgPolicy ethernet_shared;
	MgPolicy ap;                 /* Wi-Fi profiles in access-point mode (hotspots) */
	guint probe_window_ms;       /* the pre-up uniqueness check's window; 0: off */
	MgProbeKinds probes;         /* which probes it makes; 0: off */
	guint passive_watch_s;       /* after a clean check, passive watching; 0: off */
	guint conflict_max_attempts; /* reassignments after conflicts, then stop */
	guint history_max_entries;   /* reuse-history bounds */
	gint64 history_max_age;      /* seconds */
} MgConfig;

#define MG_CONFIG_FILE_NAME "macguise.conf"
#define MG_CONFIG_DEFAULT_DIR "/etc/macguise"
/* Defaults a package ships (freedombox-macguise-defaults): *.conf files in
 * MG_PACKAGED_CONF_DIR, read in name order before the administrator's
 * macguise.conf, which wins key by key. */
#define MG_PACKAGED_CONF_ENV "MACGUISE_PACKAGED_CONF_DIR"

void mg_config_init_default(MgConfig *config);
void mg_config_clear(MgConfig *config);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(MgConfig, mg_config_clear)
/* Strict: an unknown group or key, or a bad value, is an error naming it. */
gboolean mg_config_load_from_data(MgConfig *config, const char *text, gsize len, GError **error);
/* A line of a configuration file that could not be used: it was skipped,
 * and the lines beside it and every other file still apply. */
typedef struct {
	char *path;
	guint line;    /* from 1; 0: the whole file (it could not be read) */
	char *section; /* NULL where the line is not a setting */
	char *key;
	char *message; /* for people: what is wrong, naming the section and key */
} MgConfigProblem;

void mg_config_problem_free(MgConfigProblem *problem);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgConfigProblem, mg_config_problem_free)
/* "PATH:LINE: MESSAGE" */
char *mg_config_problem_format(const MgConfigProblem *problem);
/* A new array that owns the MgConfigProblem elements added to it. */
GPtrArray *mg_config_problems_new(void);

/* @config becomes the built-in defaults, then the packaged files, then
 * @path (the administrator's file), key by key. Never fails: a missing file
 * adds nothing; a line that is not a setting, a setting with a bad value and
 * a file that cannot be read are each skipped, with an MgConfigProblem
 * added to @problems, so that one typo costs its own line and nothing
 * else. */
void mg_config_load_files(MgConfig *config, const char *path, GPtrArray *problems);
/* The packaged files mg_config_load_files reads, in order. */
GPtrArray *mg_config_packaged_files(void);
/* $CONFIGURATION_DIRECTORY (its first entry) or /etc/macguise, + macguise.conf */
char *mg_config_default_path(void);

/* "wifi", "ethernet", "ethernet-shared" or "ap". */
const char *mg_config_section_name(MgConfigSection section);
gboolean mg_config_section_parse(const char *name, MgConfigSection *section, GError **error);
/* The section a profile of @device_class takes its defaults from;
 * @shares_connection: its IPv4 method is "shared". */
MgConfigSection mg_config_section_for(MgDeviceClass device_class, gboolean shares_connection);
const MgPolicy *mg_config_policy_of(const MgConfig *config, MgConfigSection section);
/* The defaults for a profile of class @device_class that does not share its
 * connection. */
const MgPolicy *mg_config_policy_for(const MgConfig *config, MgDeviceClass device_class);

G_END_DECLS
