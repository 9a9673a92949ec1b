/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise status: what macguise does with each profile. The JSON object
 * is built first; the text for people is read off it, so both agree. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mg-audit.h"
#include "mg-cli-nm.h"
#include "mg-cli.h"
#include "mg-profile.h"

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

static void
mg_set_string_or_null(JsonObject *o, const char *member, const char *value)
{
	if (value != NULL)
		json_object_set_string_member(o, member, value);
	else
		json_object_set_null_member(o, member);
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

static JsonObject *
mg_status_profile_json(MgCliState *st, NMClient *client, NMRemoteConnection *rc)
{
	NMConnection *c = NM_CONNECTION(rc);
	const char *uuid = nm_connection_get_uuid(c);
	MgDeviceClass device_class = mg_profile_class(c);
	const char *cloned = mg_profile_cloned_mac(c, device_class);
	const MgAppliedPolicy *applied = g_hash_table_lookup(st->applied, uuid);
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
	mg_profile_policy_full(
	    &st->config, mg_cli_catalogue(NULL), c, device_class, &policy, problems);
	if (applied != NULL) {
		mode = g_strdup(applied->mode);
		rotate = g_strdup(applied->rotate);
	} else {
		mode = mg_policy_get(&policy, "mode");
		rotate = mg_policy_get(&policy, "rotate");
	}
	managed = policy.mode != MG_MODE_OFF && !p->user_owned;
	/* The state speaks of the address the profile has now only. */
	ours = is_mac && p->has_address && mg_mac_equal(&mac, &p->address);

	json_object_set_string_member(o, "id", nm_connection_get_id(c));
	json_object_set_string_member(o, "uuid", uuid);
	json_object_set_string_member(o, "type", mg_device_class_to_string(device_class));
	/* which defaults of macguise.conf it takes: its type, or ethernet-shared */
	json_object_set_string_member(
	    o, "kind", mg_config_section_name(mg_profile_section(c, device_class)));
	mg_set_string_or_null(o, "filename", nm_remote_connection_get_filename(rc));
	json_object_set_boolean_member(o, "active", mg_cli_profile_is_active(client, c));
	json_object_set_boolean_member(o, "managed", managed);
	json_object_set_boolean_member(o, "user_owned", p->user_owned);
	json_object_set_string_member(o, "mode", mode);
	json_object_set_string_member(o, "rotate", rotate);
	mg_set_string_or_null(o, "cloned_mac_address", cloned != NULL && cloned[0] ? cloned : NULL);
	if (is_mac) {
		const MgCatalogueEntry *e = mg_catalogue_lookup(mg_cli_catalogue(NULL), &mac);
		char text[MG_MAC_STRLEN];
		mg_mac_format(&mac, text);
		json_object_set_string_member(o, "address", text);
		mg_set_string_or_null(o, "vendor", e != NULL ? e->vendor->name : NULL);
		mg_set_string_or_null(o, "vendor_id", e != NULL ? e->vendor->id : NULL);
	} else {
		json_object_set_null_member(o, "address");
		json_object_set_null_member(o, "vendor");
		json_object_set_null_member(o, "vendor_id");
	}
	mg_set_time(o, "assigned_at", ours ? p->assigned_at : 0);
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

/* Text for people ------------------------------------------------------------- */

static char *
mg_local_time(const char *iso)
{
	g_autoptr(GDateTime) utc = iso != NULL ? g_date_time_new_from_iso8601(iso, NULL) : NULL;
	g_autoptr(GDateTime) local = utc != NULL ? g_date_time_to_local(utc) : NULL;
	return local != NULL ? g_date_time_format(local, "%Y-%m-%d %H:%M") : g_strdup("—");
}

static const char *
mg_member_string(JsonObject *o, const char *member)
{
	JsonNode *n = json_object_get_member(o, member);
	return n != NULL && JSON_NODE_HOLDS_VALUE(n) ? json_node_get_string(n) : NULL;
}

static JsonObject *
mg_member_object(JsonObject *o, const char *member)
{
	JsonNode *n = json_object_get_member(o, member);
	return n != NULL && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static char *
mg_status_next_text(JsonObject *o)
{
	JsonObject *next = mg_member_object(o, "next_rotation");
	const char *when;
	const char *cloned = mg_member_string(o, "cloned_mac_address");

	if (!json_object_get_boolean_member(o, "managed")) {
		/* NetworkManager's own choice: its name, not "set by hand" */
		if (mg_nm_mac_is_choice(cloned))
			/* TRANSLATORS: %s is NetworkManager's keyword: random, stable, stable-ssid
			 */
			return g_strdup_printf(_("NetworkManager's %s"), cloned);
		return g_strdup(json_object_get_boolean_member(o, "user_owned") ? _("set by hand")
										: _("unmanaged"));
	}
	if (next == NULL)
		return g_strdup("?");
	when = mg_member_string(next, "when");
	if (g_strcmp0(when, "at") == 0)
		return mg_local_time(mg_member_string(next, "at"));
	if (g_strcmp0(when, "now") == 0)
		return g_strdup(_("now"));
	if (g_strcmp0(when, "deactivation") == 0)
		return g_strdup(_("when it goes down"));
	if (g_strcmp0(when, "activation") == 0)
		return g_strdup(_("each activation"));
	if (g_strcmp0(when, "boot") == 0)
		return g_strdup(_("next boot"));
	return g_strdup(_("never"));
}

static const char *
mg_status_check_text(JsonObject *o)
{
	JsonObject *recovery = mg_member_object(o, "recovery");
	JsonObject *check = mg_member_object(o, "check");

	if (recovery != NULL && json_object_get_boolean_member(recovery, "failed"))
		return _("conflict, gave up");
	return check != NULL ? mg_member_string(check, "verdict") : "—";
}

static void
mg_print_row(GPtrArray *cells, const guint *widths)
{
	GString *line = g_string_new(NULL);
	for (guint i = 0; i < cells->len; i++) {
		const char *cell = g_ptr_array_index(cells, i);
		g_string_append(line, cell);
		if (i + 1 < cells->len)
			for (glong pad = (glong)widths[i] + 2 - g_utf8_strlen(cell, -1); pad > 0;
			     pad--)
				g_string_append_c(line, ' ');
	}
	g_print("%s\n", line->str);
	g_string_free(line, TRUE);
}

static void
mg_status_print_table(JsonArray *profiles)
{
	const char *heads[] = { N_("PROFILE"), N_("TYPE"),   N_("MODE"), N_("ROTATE"),
				N_("ADDRESS"), N_("VENDOR"), N_("NEXT"), N_("CHECK") };
	g_autoptr(GPtrArray) rows =
	    g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	guint widths[G_N_ELEMENTS(heads)] = { 0 };
	GPtrArray *head = g_ptr_array_new();

	for (guint i = 0; i < G_N_ELEMENTS(heads); i++)
		g_ptr_array_add(head, (gpointer)_(heads[i]));
	g_ptr_array_add(rows, head);
	for (guint r = 0; r < json_array_get_length(profiles); r++) {
		JsonObject *o = json_array_get_object_element(profiles, r);
		GPtrArray *row = g_ptr_array_new_with_free_func(g_free);
		const char *address = mg_member_string(o, "address");
		const char *vendor = mg_member_string(o, "vendor");
		g_ptr_array_add(row, g_strdup(mg_member_string(o, "id")));
		g_ptr_array_add(row, g_strdup(mg_member_string(o, "type")));
		g_ptr_array_add(row, g_strdup(mg_member_string(o, "mode")));
		g_ptr_array_add(row, g_strdup(mg_member_string(o, "rotate")));
		g_ptr_array_add(row,
				g_strdup(address != NULL ? address
					 : mg_member_string(o, "cloned_mac_address") != NULL
					     ? mg_member_string(o, "cloned_mac_address")
					     : "—"));
		g_ptr_array_add(row, g_strdup(vendor != NULL ? vendor : "—"));
		g_ptr_array_add(row, mg_status_next_text(o));
		g_ptr_array_add(row, g_strdup(mg_status_check_text(o)));
		g_ptr_array_add(rows, row);
	}
	for (guint r = 0; r < rows->len; r++) {
		GPtrArray *row = g_ptr_array_index(rows, r);
		for (guint i = 0; i < row->len; i++)
			widths[i] =
			    MAX(widths[i], (guint)g_utf8_strlen(g_ptr_array_index(row, i), -1));
	}
	for (guint r = 0; r < rows->len; r++)
		mg_print_row(g_ptr_array_index(rows, r), widths);
}

static void
mg_detail(const char *label, const char *value)
{
	/* TRANSLATORS: a label and its value in `macguise status PROFILE` */
	g_print("  %-15s %s\n", label, value);
}

static void
mg_status_print_detail(JsonObject *o)
{
	JsonObject *check = mg_member_object(o, "check");
	JsonObject *conflict = mg_member_object(o, "last_conflict");
	JsonObject *recovery = mg_member_object(o, "recovery");
	JsonArray *problems = json_object_get_array_member(o, "problems");
	const char *address = mg_member_string(o, "address");
	const char *vendor = mg_member_string(o, "vendor");
	g_autofree char *assigned = mg_local_time(mg_member_string(o, "assigned_at"));
	g_autofree char *next = mg_status_next_text(o);
	g_autofree char *addr_text = NULL;

	g_print("%s (%s)\n", mg_member_string(o, "id"), mg_member_string(o, "uuid"));
	mg_detail(_("type:"), mg_member_string(o, "type"));
	mg_detail(_("active:"), json_object_get_boolean_member(o, "active") ? _("yes") : _("no"));
	mg_detail(_("mode:"), mg_member_string(o, "mode"));
	mg_detail(_("rotate:"), mg_member_string(o, "rotate"));
	if (address != NULL)
		addr_text = g_strdup_printf(
		    "%s (%s)", address, vendor != NULL ? vendor : _("not in the catalogue"));
	else
		addr_text = g_strdup(mg_member_string(o, "cloned_mac_address") != NULL
					 ? mg_member_string(o, "cloned_mac_address")
					 : _("none"));
	mg_detail(_("address:"), addr_text);
	mg_detail(_("assigned:"), assigned);
	mg_detail(_("next rotation:"), next);
	if (check != NULL) {
		g_autofree char *at = mg_local_time(mg_member_string(check, "at"));
		g_autofree char *text = g_strdup_printf("%s, %s: %s",
							mg_member_string(check, "verdict"),
							at,
							mg_member_string(check, "evidence"));
		mg_detail(_("link check:"), text);
	}
	if (conflict != NULL) {
		g_autofree char *at = mg_local_time(mg_member_string(conflict, "at"));
		g_autofree char *text =
		    g_strdup_printf("%s: %s", at, mg_member_string(conflict, "evidence"));
		mg_detail(_("last conflict:"), text);
	}
	if (recovery != NULL) {
		guint n = (guint)json_object_get_int_member(recovery, "attempts");
		g_autofree char *text =
		    json_object_get_boolean_member(recovery, "failed")
			? g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
						      "gave up after %u new address",
						      "gave up after %u new addresses",
						      n),
					  n)
			: g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
						      "%u new address so far",
						      "%u new addresses so far",
						      n),
					  n);
		mg_detail(_("recovery:"), text);
	}
	if (mg_member_string(o, "recognised_at") != NULL) {
		g_autofree char *at = mg_local_time(mg_member_string(o, "recognised_at"));
		g_autofree char *text = g_strdup_printf(
		    _("macguise's state was lost; on %s the profile was recognised by "
		      "macguise's mark in it and kept managed"),
		    at);
		mg_detail(_("state lost:"), text);
	}
	for (guint i = 0; i < json_array_get_length(problems); i++)
		mg_detail(_("problem:"), json_array_get_string_element(problems, i));
}

int
mg_cmd_status(int argc, char **argv)
{
	gboolean json = FALSE;
	const GOptionEntry entries[] = {
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON object"), NULL },
		{ NULL },
	};
	g_autoptr(NMClient) client = NULL;
	g_autoptr(GPtrArray) profiles = NULL;
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
		&argv))
		return MG_EXIT_USAGE;
	status = mg_cli_open("status", argv + 1, &client, &profiles);
	if (status != MG_EXIT_OK)
		return status;

	mg_cli_state_load(&st);
	for (guint i = 0; i < profiles->len; i++)
		json_array_add_object_element(
		    list, mg_status_profile_json(&st, client, g_ptr_array_index(profiles, i)));
	json_object_set_boolean_member(root, "daemon_running", st.daemon_running);
	json_object_set_boolean_member(root, "state_readable", st.state_readable);
	mg_set_string_or_null(root, "state_problem", st.state_problem);
	json_object_set_array_member(root, "profiles", list);

	if (json) {
		g_autoptr(JsonNode) node = json_node_new(JSON_NODE_OBJECT);
		json_node_set_object(node, root);
		mg_cli_print_json(node);
	} else {
		if (argc > 1) {
			for (guint i = 0; i < json_array_get_length(list); i++)
				mg_status_print_detail(json_array_get_object_element(list, i));
		} else if (json_array_get_length(list) == 0) {
			g_print("%s\n", _("No Ethernet or Wi-Fi profiles."));
		} else {
			mg_status_print_table(list);
		}
		if (!st.daemon_running)
			g_print("\n%s\n",
				_("macguised is not running: nothing rotates or is checked "
				  "until it is started."));
		if (!st.state_readable)
			g_print("%s\n", st.state_problem);
	}
	mg_cli_state_clear(&st);
	return MG_EXIT_OK;
}
