/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise status: what macguise does with each profile. The JSON object
 * is built first; the text for people is read off it, so both agree. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mg-audit.h"
#include "mg-cli-config.h"
#include "mg-cli-nm.h"
#include "mg-cli.h"
#include "mg-device-facts.h"
#include "mg-draw-mix.h"
#include "mg-profile.h"
#include "mg-status-fields.h"

static char *
mg_iso_time(gint64 t)
{
	g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc(t);
	return dt != NULL ? g_date_time_format(dt, "%Y-%m-%dT%H:%M:%SZ") : g_strdup("");
}

static void
mg_set_time(JsonObject *o, const char *member, gint64 t)
{
	if (t > 0) {
		g_autofree char *iso = mg_iso_time(t);
		json_object_set_string_member(o, member, iso);
	} else {
		json_object_set_null_member(o, member);
	}
}

static JsonObject *
mg_next_rotation(const MgPolicy *policy, const MgProfileState *p, gboolean has_address)
{
	JsonObject *o = json_object_new();
	const char *when;

	json_object_set_null_member(o, "at");
	if (!has_address)
		when = "now";
	else if (p->pending)
		when = "deactivation";
	else if (policy->rotate == MG_ROTATE_NEVER)
		when = "never";
	else if (policy->rotate == MG_ROTATE_ACTIVATION)
		when = "activation";
	else if (policy->rotate == MG_ROTATE_BOOT)
		when = "boot";
	else {
		when = "at";
		mg_set_time(o, "at", p->due_at);
	}
	json_object_set_string_member(o, "when", when);
	return o;
}

/* The link checks' part of a profile's JSON: the last check, the last
 * conflict, recovery. */
static void
mg_status_checks_json(JsonObject *o, const MgProfileState *p)
{
	if (p->verdict != MG_VERDICT_NONE) {
		JsonObject *check = json_object_new();
		json_object_set_string_member(check, "verdict", mg_verdict_to_string(p->verdict));
		json_object_set_string_member(check, "evidence", p->evidence);
		mg_set_time(check, "at", p->checked_at);
		json_object_set_object_member(o, "check", check);
	} else {
		json_object_set_null_member(o, "check");
	}
	if (p->conflict_at != 0) {
		JsonObject *conflict = json_object_new();
		mg_set_time(conflict, "at", p->conflict_at);
		json_object_set_string_member(conflict, "evidence", p->conflict_evidence);
		json_object_set_object_member(o, "last_conflict", conflict);
	} else {
		json_object_set_null_member(o, "last_conflict");
	}
	if (p->recovery_attempts != 0 || p->recovery_failed) {
		JsonObject *recovery = json_object_new();
		json_object_set_int_member(recovery, "attempts", p->recovery_attempts);
		json_object_set_boolean_member(recovery, "failed", p->recovery_failed);
		json_object_set_object_member(o, "recovery", recovery);
	} else {
		json_object_set_null_member(o, "recovery");
	}
}

/* Whose blocks its next address is drawn from: the chip family of the
 * device it runs on, or its class's mix and why. */
static JsonObject *
mg_status_draw_json(NMClient *client,
		    NMConnection *c,
		    MgDeviceClass device_class,
		    const MgPolicy *policy)
{
	const char *pick_reason = NULL, *why = NULL;
	g_autoptr(MgDeviceFacts) facts =
	    mg_device_facts_from_client(client, c, device_class, &pick_reason);
	const MgDriverMix *mix =
	    mg_draw_mix(mg_cli_catalogue(NULL), policy, device_class, facts, pick_reason, &why);
	JsonObject *o = json_object_new();

	mg_cli_json_set_string_or_null(o, "mix", mix != NULL ? mix->id : NULL);
	mg_cli_json_set_string_or_null(o, "interface", facts != NULL ? facts->interface : NULL);
	mg_cli_json_set_string_or_null(o, "driver", facts != NULL ? facts->driver : NULL);
	mg_cli_json_set_string_or_null(o, "why", why);
	return o;
}

/* @c's policy into @policy, with the mode and rotation shown. Where
 * macguised says what it applies, its mode and rotation: its macguise.conf
 * may be older than the file (edited, not reloaded); whether the profile is
 * managed, its next rotation and which of its class's mixes its draw takes
 * follow from them as from the mode shown. (The vendors and class keys,
 * which macguised does not say, are the file's.) */
static void
mg_status_policy(MgCliState *st,
		 NMConnection *c,
		 MgDeviceClass device_class,
		 MgPolicy *policy,
		 GPtrArray *problems,
		 char **mode,
		 char **rotate)
{
	const MgAppliedPolicy *applied =
	    g_hash_table_lookup(st->applied, nm_connection_get_uuid(c));

	mg_profile_policy_full(
	    &st->config, mg_cli_catalogue(NULL), c, device_class, policy, problems);
	if (applied != NULL) {
		/* (a value this command does not know is shown as said) */
		if (!mg_policy_set(policy, "mode", applied->mode, NULL))
			*mode = g_strdup(applied->mode);
		if (!mg_policy_set(policy, "rotate", applied->rotate, NULL))
			*rotate = g_strdup(applied->rotate);
	}
	if (*mode == NULL)
		*mode = mg_policy_get(policy, "mode");
	if (*rotate == NULL)
		*rotate = mg_policy_get(policy, "rotate");
}

static JsonObject *
mg_status_profile_json(MgCliState *st, NMClient *client, NMRemoteConnection *rc)
{
	NMConnection *c = NM_CONNECTION(rc);
	const char *uuid = nm_connection_get_uuid(c);
	MgDeviceClass device_class = mg_profile_class(c);
	const char *cloned = mg_profile_cloned_mac(c, device_class);
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	MgProfileState none = { 0 };
	const MgProfileState *p = mg_state_get_profile(st->state, uuid);
	JsonObject *o = json_object_new();
	JsonArray *problem_list = json_array_new();
	g_autofree char *mode = NULL, *rotate = NULL;
	gboolean ours, managed;
	g_auto(MgPolicy) policy = { 0 };
	MgMac mac;
	gboolean is_mac = cloned != NULL && mg_mac_parse(cloned, &mac, NULL);

	if (p == NULL)
		p = &none;
	mg_status_policy(st, c, device_class, &policy, problems, &mode, &rotate);
	managed = policy.mode != MG_MODE_OFF && !p->user_owned;
	/* The state speaks of the address the profile has now only. */
	ours = is_mac && p->has_address && mg_mac_equal(&mac, &p->address);

	json_object_set_string_member(o, "id", nm_connection_get_id(c));
	json_object_set_string_member(o, "uuid", uuid);
	json_object_set_string_member(o, "type", mg_device_class_to_string(device_class));
	/* which defaults of macguise.conf it takes: its type, or ethernet-shared */
	json_object_set_string_member(
	    o, "kind", mg_config_section_name(mg_profile_section(c, device_class)));
	mg_cli_json_set_string_or_null(o, "filename", nm_remote_connection_get_filename(rc));
	json_object_set_boolean_member(o, "active", mg_cli_profile_is_active(client, c));
	json_object_set_boolean_member(o, "managed", managed);
	json_object_set_boolean_member(o, "user_owned", p->user_owned);
	json_object_set_string_member(o, "mode", mode);
	json_object_set_string_member(o, "rotate", rotate);
	mg_cli_json_set_string_or_null(
	    o, "cloned_mac_address", cloned != NULL && cloned[0] ? cloned : NULL);
	if (is_mac) {
		const MgCatalogueEntry *e = mg_catalogue_lookup(mg_cli_catalogue(NULL), &mac);
		char text[MG_MAC_STRLEN];
		mg_mac_format(&mac, text);
		json_object_set_string_member(o, "address", text);
		mg_cli_json_set_string_or_null(o, "vendor", e != NULL ? e->vendor->name : NULL);
		mg_cli_json_set_string_or_null(o, "vendor_id", e != NULL ? e->vendor->id : NULL);
	} else {
		json_object_set_null_member(o, "address");
		json_object_set_null_member(o, "vendor");
		json_object_set_null_member(o, "vendor_id");
	}
	mg_set_time(o, "assigned_at", ours ? p->assigned_at : 0);
	if (managed)
		json_object_set_object_member(
		    o, "draw", mg_status_draw_json(client, c, device_class, &policy));
	else
		json_object_set_null_member(o, "draw");
	if (managed && st->state_readable)
		json_object_set_object_member(
		    o, "next_rotation", mg_next_rotation(&policy, p, ours));
	else
		json_object_set_null_member(o, "next_rotation");
	json_object_set_int_member(o, "generation", (gint64)p->generation);
	json_object_set_int_member(o, "conflicts", p->conflicts);
	mg_status_checks_json(o, p);
	mg_set_time(o, "recognised_at", p->recognised_at);
	for (guint i = 0; i < problems->len; i++)
		json_array_add_string_element(problem_list, g_ptr_array_index(problems, i));
	json_object_set_array_member(o, "problems", problem_list);
	return o;
}

/* The profiles for people (a table, or a record per profile named) or,
 * with -t, -f or -g, as the @chosen fields. */
static void
mg_status_print(JsonObject *root, gboolean named, GPtrArray *chosen, const MgCliOutput *out)
{
	JsonArray *list = json_object_get_array_member(root, "profiles");

	if (!mg_cli_output_chosen(out) && named) {
		for (guint i = 0; i < json_array_get_length(list); i++)
			mg_status_print_detail(json_array_get_object_element(list, i));
	} else if (!mg_cli_output_chosen(out) && json_array_get_length(list) == 0) {
		g_print("%s\n", _("No Ethernet or Wi-Fi profiles."));
	} else if (!named) {
		mg_cli_fields_print_table(chosen, list, out);
	} else {
		/* a record per profile named, as nmcli connection show NAME */
		for (guint i = 0; i < json_array_get_length(list); i++)
			mg_cli_fields_print_record(
			    chosen, json_array_get_object_element(list, i), out);
	}
}

int
mg_cmd_status(int argc, char **argv)
{
	gboolean json = FALSE;
	g_auto(MgCliOutput) out = { 0 };
	const GOptionEntry entries[] = {
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON object"), NULL },
		MG_CLI_OUTPUT_OPTIONS(&out),
		{ NULL },
	};
	g_autoptr(NMClient) client = NULL;
	g_autoptr(GPtrArray) profiles = NULL;
	g_autoptr(GPtrArray) chosen = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonObject) root = json_object_new();
	JsonArray *list = json_array_new();
	MgCliState st;
	int status;

	if (!mg_cli_parse_options(
		"status",
		_("[PROFILE…]"),
		_("Show what macguise does with each Ethernet and Wi-Fi profile."),
		entries,
		&argc,
		&argv) ||
	    !mg_cli_output_check("status", &out, json))
		return MG_EXIT_USAGE;
	chosen = mg_cli_fields_select(mg_status_fields,
				      mg_status_n_fields,
				      argc > 1 ? "all" : MG_STATUS_TABLE_FIELDS,
				      &out,
				      &error);
	if (chosen == NULL)
		return mg_cli_usage_error("status", "%s", error->message);
	status = mg_cli_open("status", argv + 1, &client, &profiles);
	if (status != MG_EXIT_OK)
		return status;

	mg_cli_state_load(&st);
	for (guint i = 0; i < profiles->len; i++)
		json_array_add_object_element(
		    list, mg_status_profile_json(&st, client, g_ptr_array_index(profiles, i)));
	json_object_set_boolean_member(root, "daemon_running", st.daemon_running);
	json_object_set_boolean_member(root, "state_readable", st.state_readable);
	mg_cli_json_set_string_or_null(root, "state_problem", st.state_problem);
	json_object_set_array_member(
	    root, "config_problems", mg_cli_config_problems_json(st.config_problems));
	json_object_set_array_member(root, "profiles", list);

	if (json) {
		g_autoptr(JsonNode) node = json_node_new(JSON_NODE_OBJECT);
		json_node_set_object(node, root);
		mg_cli_print_json(node);
	} else {
		mg_status_print(root, argc > 1, chosen, &out);
		mg_cli_config_problems_print("status", st.config_problems);
	}
	/* for scripts, the fields alone */
	if (!json && !mg_cli_output_chosen(&out)) {
		if (!st.daemon_running)
			g_print("\n%s\n",
				_("macguised is not running: nothing rotates or is checked "
				  "until it is started."));
		if (!st.state_readable)
			g_print("%s\n", st.state_problem);
	}
	mg_cli_state_clear(&st);
	return status;
}
