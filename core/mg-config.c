/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-config"

#include "config.h"

#include "mg-config.h"
#include "mg-config-private.h"

#include <glib/gi18n-lib.h>

#include "mg-error.h"
#include "mg-paths.h"

#define MG_PROBE_WINDOW_MAX_MS 5000
#define MG_CONFLICT_ATTEMPTS_MAX 20
#define MG_PASSIVE_WATCH_MAX_S 3600
#define MG_HISTORY_ENTRIES_MAX 1000000

void
mg_config_init_default(MgConfig *config)
{
	mg_policy_init_default(&config->wifi);
	config->wifi.rotate = MG_ROTATE_INTERVAL;
	config->wifi.interval = 86400;
	mg_policy_init_default(&config->ethernet);
	config->ethernet.rotate = MG_ROTATE_INTERVAL;
	config->ethernet.interval = 7 * 86400;
	mg_policy_init_default(&config->ethernet_shared);
	mg_policy_copy(&config->ethernet_shared, &config->ethernet);
	/* A hotspot's BSSID is what location databases collect: daily, but a
	 * due rotation waits until the hotspot is down (or its quiet hours). */
	mg_policy_init_default(&config->ap);
	config->ap.rotate = MG_ROTATE_INTERVAL;
	config->ap.interval = 86400;
	/* A wired peer answers an NS or ARP probe in well under 10 ms. On
	 * Wi-Fi, an access point holds multicast for dozing stations until its
	 * next DTIM beacon, commonly every 102.4 ms: 200 ms covers one such
	 * period and the answer, and stays small beside DHCP's seconds. */
	config->probe_window_ms = 200;
	config->probes = MG_PROBE_ALL;
	/* A twin that stays quiet through the window gives itself away with
	 * its own link-up and background traffic (DAD, router and MLD
	 * messages within seconds of a link coming up; mDNS, SSDP, ARP for new
	 * neighbours, MLD reports to a querier every 125 s): five minutes sees
	 * the first and at least two rounds of the last. */
	config->passive_watch_s = 300;
	config->conflict_max_attempts = 3;
	config->history_max_entries = 10000;
	config->history_max_age = G_GINT64_CONSTANT(730) * 86400;
}

void
mg_config_clear(MgConfig *config)
{
	mg_policy_clear(&config->wifi);
	mg_policy_clear(&config->ethernet);
	mg_policy_clear(&config->ethernet_shared);
	mg_policy_clear(&config->ap);
}

static gboolean
mg_config_uint(GKeyFile *kf,
	       const char *group,
	       const char *key,
	       guint min,
	       guint max,
	       guint *out,
	       GError **error)
{
	g_autofree char *text = g_key_file_get_value(kf, group, key, NULL);
	guint64 v;

	if (!g_ascii_string_to_unsigned(text, 10, min, max, &v, NULL)) {
		g_set_error(error,
			    MG_ERROR,
			    MG_ERROR_CONFIG,
			    _("[%s] %s: '%s' is not a whole number from %u to %u"),
			    group,
			    key,
			    text,
			    min,
			    max);
		return FALSE;
	}
	*out = (guint)v;
	return TRUE;
}

static gboolean
mg_config_load_global(MgConfig *config, GKeyFile *kf, GError **error)
{
	g_auto(GStrv) keys = g_key_file_get_keys(kf, "global", NULL, NULL);

	for (guint i = 0; keys != NULL && keys[i] != NULL; i++) {
		const char *k = keys[i];
		if (g_strcmp0(k, "probe-window-ms") == 0) {
			if (!mg_config_uint(kf,
					    "global",
					    k,
					    0,
					    MG_PROBE_WINDOW_MAX_MS,
					    &config->probe_window_ms,
					    error))
				return FALSE;
		} else if (g_strcmp0(k, "passive-watch-s") == 0) {
			if (!mg_config_uint(kf,
					    "global",
					    k,
					    0,
					    MG_PASSIVE_WATCH_MAX_S,
					    &config->passive_watch_s,
					    error))
				return FALSE;
		} else if (g_strcmp0(k, "probes") == 0) {
			g_autofree char *text = g_key_file_get_value(kf, "global", k, NULL);
			g_autoptr(GError) local = NULL;
			if (!mg_probe_kinds_parse(text, &config->probes, &local)) {
				g_set_error(error,
					    MG_ERROR,
					    MG_ERROR_CONFIG,
					    "[global] %s: %s",
					    k,
					    local->message);
				return FALSE;
			}
		} else if (g_strcmp0(k, "conflict-max-attempts") == 0) {
			if (!mg_config_uint(kf,
					    "global",
					    k,
					    1,
					    MG_CONFLICT_ATTEMPTS_MAX,
					    &config->conflict_max_attempts,
					    error))
				return FALSE;
		} else if (g_strcmp0(k, "history-max-entries") == 0) {
			if (!mg_config_uint(kf,
					    "global",
					    k,
					    1,
					    MG_HISTORY_ENTRIES_MAX,
					    &config->history_max_entries,
					    error))
				return FALSE;
		} else if (g_strcmp0(k, "history-max-age") == 0) {
			g_autofree char *text = g_key_file_get_value(kf, "global", k, NULL);
			g_autoptr(GError) local = NULL;
			if (!mg_duration_parse(text,
					       86400,
					       G_GINT64_CONSTANT(3660) * 86400,
					       &config->history_max_age,
					       &local)) {
				g_set_error(error,
					    MG_ERROR,
					    MG_ERROR_CONFIG,
					    "[global] %s: %s",
					    k,
					    local->message);
				return FALSE;
			}
		} else {
			g_set_error(
			    error,
			    MG_ERROR,
			    MG_ERROR_CONFIG,
			    _("[global] %s is not a setting; the settings are probe-window-ms, "
			      "probes, passive-watch-s, conflict-max-attempts, "
			      "history-max-entries and history-max-age"),
			    k);
			return FALSE;
		}
	}
	return TRUE;
}

static gboolean
mg_config_load_policy(MgPolicy *policy, GKeyFile *kf, const char *group, GError **error)
{
	g_auto(GStrv) keys = g_key_file_get_keys(kf, group, NULL, NULL);

	for (guint i = 0; keys != NULL && keys[i] != NULL; i++) {
		g_autofree char *value = g_key_file_get_value(kf, group, keys[i], NULL);
		g_autoptr(GError) local = NULL;
		if (g_strcmp0(keys[i], "quiet-hours") == 0 && g_strcmp0(group, "ap") != 0) {
			g_set_error(
			    error,
			    MG_ERROR,
			    MG_ERROR_CONFIG,
			    _("[%s] quiet-hours: only access points ([ap]) have quiet hours"),
			    group);
			return FALSE;
		}
		if (!mg_policy_set(policy, keys[i], value, &local)) {
			g_set_error(
			    error, MG_ERROR, MG_ERROR_CONFIG, "[%s] %s", group, local->message);
			return FALSE;
		}
	}
	return TRUE;
}

static const char *const mg_config_section_names[] = {
	[MG_CONFIG_SECTION_WIFI] = "wifi",
	[MG_CONFIG_SECTION_ETHERNET] = "ethernet",
	[MG_CONFIG_SECTION_ETHERNET_SHARED] = "ethernet-shared",
	[MG_CONFIG_SECTION_AP] = "ap",
};
G_STATIC_ASSERT(G_N_ELEMENTS(mg_config_section_names) == MG_CONFIG_SECTION_COUNT);

const char *
mg_config_section_name(MgConfigSection section)
{
	return mg_config_section_names[section];
}

gboolean
mg_config_section_parse(const char *name, MgConfigSection *section, GError **error)
{
	for (guint i = 0; i < MG_CONFIG_SECTION_COUNT; i++) {
		if (g_strcmp0(name, mg_config_section_names[i]) == 0) {
			*section = (MgConfigSection)i;
			return TRUE;
		}
	}
	g_set_error(error,
		    MG_ERROR,
		    MG_ERROR_CONFIG,
		    _("'%s' is not a kind of profile; the kinds are wifi, ethernet, "
		      "ethernet-shared and ap"),
		    name);
	return FALSE;
}

MgConfigSection
mg_config_section_for(MgDeviceClass device_class, gboolean shares_connection)
{
	if (device_class == MG_DEVICE_CLASS_WIFI)
		return MG_CONFIG_SECTION_WIFI;
	if (device_class == MG_DEVICE_CLASS_AP)
		return MG_CONFIG_SECTION_AP;
	return shares_connection ? MG_CONFIG_SECTION_ETHERNET_SHARED : MG_CONFIG_SECTION_ETHERNET;
}

static MgPolicy *
mg_config_slot(MgConfig *config, MgConfigSection section)
{
	switch (section) {
	case MG_CONFIG_SECTION_WIFI:
		return &config->wifi;
	case MG_CONFIG_SECTION_AP:
		return &config->ap;
	case MG_CONFIG_SECTION_ETHERNET_SHARED:
		return &config->ethernet_shared;
	case MG_CONFIG_SECTION_ETHERNET:
	case MG_CONFIG_SECTION_COUNT:
	default:
		return &config->ethernet;
	}
}

const MgPolicy *
mg_config_policy_of(const MgConfig *config, MgConfigSection section)
{
	/* the one accessor for both; nothing is written through it here */
	return mg_config_slot((MgConfig *)config, section);
}

const MgPolicy *
mg_config_policy_for(const MgConfig *config, MgDeviceClass device_class)
{
	return mg_config_policy_of(config, mg_config_section_for(device_class, FALSE));
}

static gboolean
mg_config_unknown_section(const char *group, GError **error)
{
	g_set_error(error,
		    MG_ERROR,
		    MG_ERROR_CONFIG,
		    _("[%s] is not a section; the sections are [global], [wifi], [ethernet], "
		      "[ethernet-shared] and [ap]"),
		    group);
	return FALSE;
}

/* [ethernet-shared] is [ethernet] with its own keys on top, so it is read
 * after every other section. */
static gboolean
mg_config_load_keyfile(MgConfig *loaded, GKeyFile *kf, GError **error)
{
	g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);

	for (guint i = 0; groups[i] != NULL; i++) {
		MgConfigSection section;
		if (g_strcmp0(groups[i], "global") == 0) {
			if (!mg_config_load_global(loaded, kf, error))
				return FALSE;
		} else if (!mg_config_section_parse(groups[i], &section, NULL)) {
			return mg_config_unknown_section(groups[i], error);
		} else if (section != MG_CONFIG_SECTION_ETHERNET_SHARED &&
			   !mg_config_load_policy(
			       mg_config_slot(loaded, section), kf, groups[i], error)) {
			return FALSE;
		}
	}
	mg_policy_clear(&loaded->ethernet_shared);
	mg_policy_copy(&loaded->ethernet_shared, &loaded->ethernet);
	return !g_key_file_has_group(kf, "ethernet-shared") ||
	       mg_config_load_policy(&loaded->ethernet_shared, kf, "ethernet-shared", error);
}

gboolean
mg_config_take_keyfile(MgConfig *config, GKeyFile *kf, GError **error)
{
	MgConfig loaded;

	mg_config_init_default(&loaded);
	if (!mg_config_load_keyfile(&loaded, kf, error)) {
		mg_config_clear(&loaded);
		return FALSE;
	}
	mg_config_clear(config);
	*config = loaded;
	return TRUE;
}

static gboolean
mg_config_parse(GKeyFile *kf, const char *text, gsize len, GError **error)
{
	if (!g_key_file_load_from_data(kf, text, len, G_KEY_FILE_NONE, error)) {
		g_prefix_error(error, _("not a valid key file: "));
		return FALSE;
	}
	return TRUE;
}

gboolean
mg_config_load_from_data(MgConfig *config, const char *text, gsize len, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();

	return mg_config_parse(kf, text, len, error) && mg_config_take_keyfile(config, kf, error);
}

char *
mg_config_default_path(void)
{
	g_autofree char *dir =
	    mg_systemd_directory("CONFIGURATION_DIRECTORY", MG_CONFIG_DEFAULT_DIR);
	return g_build_filename(dir, MG_CONFIG_FILE_NAME, NULL);
}
