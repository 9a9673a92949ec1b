/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise policy: show or set a profile's macguise.* user data, the part
 * of a profile nmcli cannot edit. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mg-cli-config.h"
#include "mg-cli-nm.h"
#include "mg-cli.h"
#include "mg-profile.h"

static const char *
mg_user_value(NMConnection *c, const char *name)
{
	NMSettingUser *s =
	    NM_SETTING_USER(nm_connection_get_setting_by_name(c, NM_SETTING_USER_SETTING_NAME));
	g_autofree char *key = g_strconcat(MG_POLICY_KEY_PREFIX, name, NULL);
	return s != NULL ? nm_setting_user_get_data(s, key) : NULL;
}

static int
mg_policy_show(NMConnection *c, gboolean json)
{
	g_autoptr(GPtrArray) config_problems = mg_config_problems_new();
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	const char *const *names = mg_policy_names();
	MgDeviceClass device_class = mg_profile_class(c);
	MgConfig config;
	g_auto(MgPolicy) policy = { 0 };

	mg_cli_config_load(&config, config_problems);
	mg_cli_config_problems_print("policy", config_problems);
	mg_profile_policy_full(&config, mg_cli_catalogue(NULL), c, device_class, &policy, problems);
	if (json) {
		g_autoptr(JsonNode) node = json_node_new(JSON_NODE_OBJECT);
		JsonObject *o = json_object_new();
		JsonObject *settings = json_object_new();
		JsonArray *list = json_array_new();
		json_object_set_string_member(o, "id", nm_connection_get_id(c));
		json_object_set_string_member(o, "uuid", nm_connection_get_uuid(c));
		for (guint i = 0; names[i] != NULL; i++) {
			JsonObject *s = json_object_new();
			g_autofree char *value = mg_policy_get(&policy, names[i]);
			json_object_set_string_member(s, "value", value);
			json_object_set_string_member(
			    s,
			    "source",
			    mg_user_value(c, names[i]) != NULL ? "profile" : "default");
			json_object_set_object_member(settings, names[i], s);
		}
		json_object_set_object_member(o, "settings", settings);
		for (guint i = 0; i < problems->len; i++)
			json_array_add_string_element(list, g_ptr_array_index(problems, i));
		json_object_set_array_member(o, "problems", list);
		json_node_take_object(node, o);
		mg_cli_print_json(node);
	} else {
		g_print("%s (%s)\n", nm_connection_get_id(c), nm_connection_get_uuid(c));
		for (guint i = 0; names[i] != NULL; i++) {
			g_autofree char *value = mg_policy_get(&policy, names[i]);
			g_print("  %-8s %-20s %s\n",
				names[i],
				value,
				mg_user_value(c, names[i]) != NULL ? _("(this profile)")
								   : _("(default)"));
		}
		for (guint i = 0; i < problems->len; i++)
			g_print("  %s %s\n", _("problem:"), (char *)g_ptr_array_index(problems, i));
	}
	mg_config_clear(&config);
	return MG_EXIT_OK;
}

static NMSettingUser *
mg_user_setting(NMConnection *c)
{
	NMSetting *s = nm_connection_get_setting_by_name(c, NM_SETTING_USER_SETTING_NAME);
	if (s == NULL) {
		s = nm_setting_user_new();
		nm_connection_add_setting(c, s);
	}
	return NM_SETTING_USER(s);
}

static gboolean
mg_is_user_owned(NMConnection *c)
{
	MgDeviceClass device_class = mg_profile_class(c);
	const char *cloned = mg_profile_cloned_mac(c, device_class);
	MgCliState st;
	const MgProfileState *p;
	gboolean owned;
	MgMac mac;

	mg_cli_state_load(&st);
	p = mg_state_get_profile(st.state, nm_connection_get_uuid(c));
	/* permanent, preserve, random and stable are someone's choice, but
	 * for the `permanent` mode=off wrote */
	owned = (p != NULL && p->user_owned) ||
		(cloned != NULL && cloned[0] != '\0' && !mg_mac_parse(cloned, &mac, NULL) &&
		 !mg_profile_is_released(c, device_class));
	mg_cli_state_clear(&st);
	return owned;
}

/* Whether the assignments set quiet hours only where they apply. */
static gboolean
mg_policy_quiet_hours_fit(NMConnection *connection, GPtrArray *keys, GPtrArray *values)
{
	for (guint i = 0; i < keys->len; i++) {
		if (g_str_equal(g_ptr_array_index(keys, i), MG_POLICY_KEY_PREFIX "quiet-hours") &&
		    g_ptr_array_index(values, i) != NULL &&
		    mg_profile_class(connection) != MG_DEVICE_CLASS_AP)
			return FALSE;
	}
	return TRUE;
}

/* --reset: @copy without macguise's keys, and handed back to macguise
 * when its address was set by hand (@original says). */
static void
mg_policy_reset(NMConnection *original, NMConnection *copy, NMSettingUser *user)
{
	guint n = 0;
	const char *const *existing = nm_setting_user_get_keys(user, &n);
	g_auto(GStrv) all = g_strdupv((char **)existing);

	for (guint i = 0; all != NULL && all[i] != NULL; i++) {
		if (g_str_has_prefix(all[i], MG_POLICY_KEY_PREFIX))
			nm_setting_user_set_data(user, all[i], NULL, NULL);
	}
	if (mg_is_user_owned(original)) {
		MgDeviceClass device_class = mg_profile_class(copy);
		NMSetting *s = (device_class & MG_DEVICE_CLASS_WIRELESS) != 0
				   ? NM_SETTING(nm_connection_get_setting_wireless(copy))
				   : NM_SETTING(nm_connection_get_setting_wired(copy));
		/* both settings name the property "cloned-mac-address" */
		if (s != NULL)
			g_object_set(s, NM_SETTING_WIRED_CLONED_MAC_ADDRESS, NULL, NULL);
		g_print(_("%s: handed back to macguise\n"), nm_connection_get_id(copy));
	}
}

int
mg_cmd_policy(int argc, char **argv)
{
	gboolean json = FALSE;
	gboolean reset = FALSE;
	const GOptionEntry entries[] = {
		{ "reset",
		  0,
		  0,
		  G_OPTION_ARG_NONE,
		  &reset,
		  N_("Remove the profile's macguise settings, and give a profile whose address "
		     "was set by hand back to macguise"),
		  NULL },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Show as a JSON object"), NULL },
		{ NULL },
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(NMClient) client = NULL;
	g_autoptr(NMConnection) copy = NULL;
	g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func(g_free);
	NMRemoteConnection *rc;
	NMSettingUser *user;

	if (!mg_cli_parse_options(
		"policy",
		_("PROFILE [KEY=VALUE…]"),
		_("Show or set a profile's macguise settings. KEY is mode, rotate, class, vendors, "
		  "harden or quiet-hours (access points only); KEY= (no value) returns that "
		  "setting to the default of macguise.conf."),
		entries,
		&argc,
		&argv))
		return MG_EXIT_USAGE;
	if (argc < 2)
		return mg_cli_usage_error("policy", _("no profile given"));
	if (reset && argc > 2)
		return mg_cli_usage_error("policy", _("--reset takes no KEY=VALUE"));
	if (mg_cli_catalogue(&error) == NULL)
		return mg_cli_failure("policy", error);
	if (!mg_cli_parse_assignments("policy", argv + 2, MG_POLICY_KEY_PREFIX, keys, values))
		return MG_EXIT_USAGE;
	if ((argc > 2 || reset) && !mg_cli_lock_profiles(&error))
		return mg_cli_failure("policy", error);
	client = mg_cli_nm_client(&error);
	if (client == NULL)
		return mg_cli_failure("policy", error);
	rc = mg_cli_find_profile(client, argv[1], &error);
	if (rc == NULL)
		return mg_cli_failure("policy", error);
	if (argc == 2 && !reset)
		return mg_policy_show(NM_CONNECTION(rc), json);
	/* Only a hotspot's clients can be counted before restarting it. */
	if (!mg_policy_quiet_hours_fit(NM_CONNECTION(rc), keys, values))
		return mg_cli_usage_error(
		    "policy",
		    _("%s is not an access point: quiet-hours applies to hotspot profiles "
		      "(802-11-wireless.mode ap) only"),
		    nm_connection_get_id(NM_CONNECTION(rc)));

	copy = nm_simple_connection_new_clone(NM_CONNECTION(rc));
	user = mg_user_setting(copy);
	if (reset)
		mg_policy_reset(NM_CONNECTION(rc), copy, user);
	for (guint i = 0; i < keys->len; i++) {
		if (!nm_setting_user_set_data(
			user, g_ptr_array_index(keys, i), g_ptr_array_index(values, i), &error))
			return mg_cli_failure("policy", error);
	}
	if (!mg_cli_update_profile(rc, copy, &error))
		return mg_cli_failure("policy", error);
	return mg_policy_show(copy, json);
}
