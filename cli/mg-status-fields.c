/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise status's rows for people and for scripts, read off the JSON
 * object mg-cmd-status.c builds: the fields -f names, and the record a
 * profile named on the command line gets. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>

#include "mg-audit.h"
#include "mg-status-fields.h"

static char *
mg_local_time(const char *iso)
{
	g_autoptr(GDateTime) utc = iso != NULL ? g_date_time_new_from_iso8601(iso, NULL) : NULL;
	g_autoptr(GDateTime) local = utc != NULL ? g_date_time_to_local(utc) : NULL;
	return local != NULL ? g_date_time_format(local, "%Y-%m-%d %H:%M") : g_strdup("—");
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
	const char *cloned = mg_cli_member_string(o, "cloned_mac_address");

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
	when = mg_cli_member_string(next, "when");
	if (g_strcmp0(when, "at") == 0)
		return mg_local_time(mg_cli_member_string(next, "at"));
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
	return check != NULL ? mg_cli_member_string(check, "verdict") : "—";
}

static void
mg_detail(const char *label, const char *value)
{
	/* TRANSLATORS: a label and its value in `macguise status PROFILE` */
	g_print("  %-15s %s\n", label, value);
}

/* Whose blocks the next address comes from, for people. */
static char *
mg_status_draw_text(JsonObject *o)
{
	JsonObject *draw = mg_member_object(o, "draw");
	const char *mix = draw != NULL ? mg_cli_member_string(draw, "mix") : NULL;
	const char *why = draw != NULL ? mg_cli_member_string(draw, "why") : NULL;
	const char *driver = draw != NULL ? mg_cli_member_string(draw, "driver") : NULL;

	if (draw == NULL)
		return NULL;
	if (mix != NULL)
		/* TRANSLATORS: the chip family (a driver family name), the driver
		 * and the interface its makers are drawn for */
		return g_strdup_printf(_("the makers of %s cards (driver %s on %s)"),
				       mix,
				       driver,
				       mg_cli_member_string(draw, "interface"));
	if (g_strcmp0(why, "keep-vendor") == 0)
		return g_strdup(_("its own card's maker (keep-vendor)"));
	if (g_strcmp0(why, "vendors") == 0)
		return g_strdup(_("the makers its policy names"));
	if (g_strcmp0(why, "hotspot") == 0)
		return g_strdup(_("the makers of hotspots"));
	if (g_strcmp0(why, "several-devices") == 0)
		return g_strdup(_("any card of its type: there are several and it names no "
				  "interface"));
	if (g_strcmp0(why, "interface-absent") == 0)
		return g_strdup(_("any card of its type: its interface is not here"));
	if (g_strcmp0(why, "interface-other-kind") == 0)
		return g_strdup(_("any card of its type: its interface is of another type"));
	if (g_strcmp0(why, "driver-unknown") == 0)
		return g_strdup(_("any card of its type: its card's driver is not known"));
	if (g_strcmp0(why, "mix-not-drawable") == 0)
		return g_strdup_printf(
		    _("any card of its type: no block of the makers of driver %s may be drawn now"),
		    driver);
	if (g_strcmp0(why, "no-mix-for-driver") == 0)
		return g_strdup_printf(_("any card of its type: no maker mix for driver %s"),
				       driver);
	return g_strdup(_("any card of its type: no card of that type is here"));
}

void
mg_status_print_detail(JsonObject *o)
{
	JsonObject *check = mg_member_object(o, "check");
	JsonObject *conflict = mg_member_object(o, "last_conflict");
	JsonObject *recovery = mg_member_object(o, "recovery");
	JsonArray *problems = json_object_get_array_member(o, "problems");
	const char *address = mg_cli_member_string(o, "address");
	const char *vendor = mg_cli_member_string(o, "vendor");
	g_autofree char *assigned = mg_local_time(mg_cli_member_string(o, "assigned_at"));
	g_autofree char *next = mg_status_next_text(o);
	g_autofree char *addr_text = NULL;
	g_autofree char *draw_text = mg_status_draw_text(o);

	g_print("%s (%s)\n", mg_cli_member_string(o, "id"), mg_cli_member_string(o, "uuid"));
	mg_detail(_("type:"), mg_cli_member_string(o, "type"));
	mg_detail(_("active:"), json_object_get_boolean_member(o, "active") ? _("yes") : _("no"));
	mg_detail(_("mode:"), mg_cli_member_string(o, "mode"));
	mg_detail(_("rotate:"), mg_cli_member_string(o, "rotate"));
	if (address != NULL)
		addr_text = g_strdup_printf(
		    "%s (%s)", address, vendor != NULL ? vendor : _("not in the catalogue"));
	else
		addr_text = g_strdup(mg_cli_member_string(o, "cloned_mac_address") != NULL
					 ? mg_cli_member_string(o, "cloned_mac_address")
					 : _("none"));
	mg_detail(_("address:"), addr_text);
	if (draw_text != NULL)
		mg_detail(_("drawn for:"), draw_text);
	mg_detail(_("assigned:"), assigned);
	mg_detail(_("next rotation:"), next);
	if (check != NULL) {
		g_autofree char *at = mg_local_time(mg_cli_member_string(check, "at"));
		g_autofree char *text = g_strdup_printf("%s, %s: %s",
							mg_cli_member_string(check, "verdict"),
							at,
							mg_cli_member_string(check, "evidence"));
		mg_detail(_("link check:"), text);
	}
	if (conflict != NULL) {
		g_autofree char *at = mg_local_time(mg_cli_member_string(conflict, "at"));
		g_autofree char *text =
		    g_strdup_printf("%s: %s", at, mg_cli_member_string(conflict, "evidence"));
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
	if (mg_cli_member_string(o, "recognised_at") != NULL) {
		g_autofree char *at = mg_local_time(mg_cli_member_string(o, "recognised_at"));
		g_autofree char *text = g_strdup_printf(
		    _("macguise's state was lost; on %s the profile was recognised by "
		      "macguise's mark in it and kept managed"),
		    at);
		mg_detail(_("state lost:"), text);
	}
	for (guint i = 0; i < json_array_get_length(problems); i++)
		mg_detail(_("problem:"), json_array_get_string_element(problems, i));
}

/* Fields for scripts and people ------------------------------------------------ */

static char *
mg_field_yes_no(JsonObject *o, const char *member, gboolean terse)
{
	gboolean yes = json_object_get_boolean_member(o, member);
	if (terse)
		return g_strdup(yes ? "yes" : "no");
	return g_strdup(yes ? _("yes") : _("no"));
}

static char *
mg_field_active(JsonObject *o, gboolean terse)
{
	return mg_field_yes_no(o, "active", terse);
}

static char *
mg_field_managed(JsonObject *o, gboolean terse)
{
	return mg_field_yes_no(o, "managed", terse);
}

/* The address, or what the profile says instead (random, permanent…). */
static char *
mg_field_address(JsonObject *o, gboolean terse)
{
	const char *address = mg_cli_member_string(o, "address");
	return g_strdup(address != NULL ? address : mg_cli_member_string(o, "cloned_mac_address"));
}

static char *
mg_field_assigned(JsonObject *o, gboolean terse)
{
	const char *at = mg_cli_member_string(o, "assigned_at");
	if (at == NULL)
		return NULL;
	return terse ? g_strdup(at) : mg_local_time(at);
}

/* For scripts: when, as an ISO 8601 time or next_rotation's word. */
static char *
mg_field_next(JsonObject *o, gboolean terse)
{
	JsonObject *next = mg_member_object(o, "next_rotation");
	const char *when = next != NULL ? mg_cli_member_string(next, "when") : NULL;

	if (!terse)
		return mg_status_next_text(o);
	if (g_strcmp0(when, "at") == 0)
		return g_strdup(mg_cli_member_string(next, "at"));
	return g_strdup(when);
}

static char *
mg_field_check(JsonObject *o, gboolean terse)
{
	JsonObject *recovery = mg_member_object(o, "recovery");
	JsonObject *check = mg_member_object(o, "check");

	if (!terse)
		return g_strdup(mg_status_check_text(o));
	if (recovery != NULL && json_object_get_boolean_member(recovery, "failed"))
		return g_strdup("gave-up");
	return check != NULL ? g_strdup(mg_cli_member_string(check, "verdict")) : NULL;
}

static char *
mg_field_generation(JsonObject *o, gboolean terse)
{
	return g_strdup_printf("%" G_GINT64_FORMAT, json_object_get_int_member(o, "generation"));
}

static char *
mg_field_conflicts(JsonObject *o, gboolean terse)
{
	return g_strdup_printf("%" G_GINT64_FORMAT, json_object_get_int_member(o, "conflicts"));
}

/* A field without a function is its JSON member, a string. */
const MgCliField mg_status_fields[] = {
	{ "id", N_("PROFILE"), "id", NULL },
	{ "uuid", N_("UUID"), "uuid", NULL },
	{ "type", N_("TYPE"), "type", NULL },
	{ "kind", N_("KIND"), "kind", NULL },
	{ "active", N_("ACTIVE"), NULL, mg_field_active },
	{ "managed", N_("MANAGED"), NULL, mg_field_managed },
	{ "mode", N_("MODE"), "mode", NULL },
	{ "rotate", N_("ROTATE"), "rotate", NULL },
	{ "address", N_("ADDRESS"), NULL, mg_field_address },
	{ "vendor", N_("VENDOR"), "vendor", NULL },
	{ "vendor-id", N_("VENDOR-ID"), "vendor_id", NULL },
	{ "assigned", N_("ASSIGNED"), NULL, mg_field_assigned },
	{ "next", N_("NEXT"), NULL, mg_field_next },
	{ "check", N_("CHECK"), NULL, mg_field_check },
	{ "generation", N_("GENERATION"), NULL, mg_field_generation },
	{ "conflicts", N_("CONFLICTS"), NULL, mg_field_conflicts },
	{ "filename", N_("FILENAME"), "filename", NULL },
};
const guint mg_status_n_fields = G_N_ELEMENTS(mg_status_fields);
