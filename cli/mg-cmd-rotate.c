/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise rotate: ask macguised for new addresses now, and say what came
 * of it, profile by profile. */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>

#include "mg-cli-nm.h"
#include "mg-cli.h"
#include "mg-profile.h"
#include "mg-rotation.h"

/* How long a rotated profile may take to show its new address. */
#define MG_ROTATE_WAIT_S 30

typedef struct {
	NMConnection *connection; /* the NMClient's, which tracks it */
	MgDeviceClass device_class;
	char *before; /* its cloned-mac-address when asked */
	MgRotationOutcome outcome;
	char *reason;
} MgRotateItem;

static void
mg_rotate_item_free(MgRotateItem *item)
{
	g_free(item->before);
	g_free(item->reason);
	g_free(item);
}

static gboolean
mg_rotate_landed(const MgRotateItem *item)
{
	return item->outcome != MG_ROTATION_ROTATED ||
	       g_strcmp0(mg_profile_cloned_mac(item->connection, item->device_class),
			 item->before) != 0;
}

static gboolean
mg_rotate_time_up(gpointer user_data)
{
	*(gboolean *)user_data = TRUE;
	return G_SOURCE_REMOVE;
}

/* "rotated" means written: waits for NetworkManager's copy of each rotated
 * profile to show a new address; one that does not in time failed. */
static void
mg_rotate_wait(GPtrArray *items)
{
	gboolean time_up = FALSE;
	guint timeout = g_timeout_add_seconds(MG_ROTATE_WAIT_S, mg_rotate_time_up, &time_up);
	guint i = 0;

	while (i < items->len && !time_up) {
		if (mg_rotate_landed(g_ptr_array_index(items, i)))
			i++;
		else
			g_main_context_iteration(NULL, TRUE);
	}
	if (!time_up)
		g_source_remove(timeout);
	for (; i < items->len; i++) {
		MgRotateItem *item = g_ptr_array_index(items, i);
		if (!mg_rotate_landed(item)) {
			item->outcome = MG_ROTATION_FAILED;
			g_free(item->reason);
			item->reason = g_strdup("not-written-in-time");
		}
	}
}

/* Asks macguised about @uuid ("": every profile), adding the outcomes of
 * the profiles among @profiles to @items. */
static gboolean
mg_rotate_ask(const char *uuid, gboolean now, GPtrArray *profiles, GPtrArray *items, GError **error)
{
	g_autoptr(GVariant) ret =
	    mg_cli_daemon_call("Rotate", g_variant_new("(sb)", uuid, now), "(a(sss))", TRUE, error);
	g_autoptr(GVariantIter) iter = NULL;
	const char *got_uuid, *outcome, *reason;

	if (ret == NULL)
		return FALSE;
	g_variant_get(ret, "(a(sss))", &iter);
	while (g_variant_iter_next(iter, "(&s&s&s)", &got_uuid, &outcome, &reason)) {
		for (guint i = 0; i < profiles->len; i++) {
			NMConnection *c = g_ptr_array_index(profiles, i);
			MgRotateItem *item;
			if (g_strcmp0(nm_connection_get_uuid(c), got_uuid) != 0)
				continue;
			item = g_new0(MgRotateItem, 1);
			item->connection = c;
			item->device_class = mg_profile_class(c);
			item->before = g_strdup(mg_profile_cloned_mac(c, item->device_class));
			if (!mg_rotation_outcome_parse(outcome, &item->outcome))
				item->outcome = MG_ROTATION_FAILED;
			item->reason = g_strdup(reason);
			g_ptr_array_add(items, item);
		}
	}
	return TRUE;
}

/* What to tell people about one outcome, for profile @id. */
static char *
mg_rotate_words(const MgRotateItem *item, const char *id)
{
	const char *reason = item->reason;

	switch (item->outcome) {
	case MG_ROTATION_ROTATED:
		return g_strdup_printf(_("%s: a new address"), id);
	case MG_ROTATION_PENDING:
		if (g_str_equal(reason, "active"))
			return g_strdup_printf(_("%s: pending: a new address when it next goes "
						 "down (--now re-activates it)"),
					       id);
		if (g_str_equal(reason, "write-backing-off"))
			return g_strdup_printf(_("%s: pending: a new address once a failed write "
						 "is tried again (macguised's log says why it "
						 "failed)"),
					       id);
		return g_strdup_printf(
		    _("%s: pending: a new address once the write under way is done"), id);
	case MG_ROTATION_NOT_MANAGED:
		if (g_str_equal(reason, "mode-off"))
			return g_strdup_printf(
			    _("%s: not rotated: macguise leaves it alone (mode off)"), id);
		return g_strdup_printf(
		    _("%s: not rotated: macguise leaves it alone (its address was set by hand)"),
		    id);
	case MG_ROTATION_FAILED:
	default:
		return g_strdup_printf(_("%s: not rotated: no new address could be written "
					 "(macguised's log says why)"),
				       id);
	}
}

/* Prints the outcomes; the exit status: a failure when a profile named was
 * not rotated (with --all, only when a rotation failed). */
static int
mg_rotate_report(GPtrArray *items, gboolean all, gboolean json)
{
	g_autoptr(JsonNode) root = json_node_new(JSON_NODE_OBJECT);
	JsonObject *o = json_object_new();
	JsonArray *list = json_array_new();
	int status = MG_EXIT_OK;

	for (guint i = 0; i < items->len; i++) {
		const MgRotateItem *item = g_ptr_array_index(items, i);
		gboolean bad = item->outcome == MG_ROTATION_FAILED ||
			       (item->outcome == MG_ROTATION_NOT_MANAGED && !all);
		const char *id = nm_connection_get_id(item->connection);
		JsonObject *p = json_object_new();
		g_autofree char *words = NULL;

		json_object_set_string_member(p, "id", id);
		json_object_set_string_member(p, "uuid", nm_connection_get_uuid(item->connection));
		json_object_set_string_member(
		    p, "outcome", mg_rotation_outcome_to_string(item->outcome));
		json_object_set_string_member(p, "reason", item->reason);
		json_array_add_object_element(list, p);
		if (bad)
			status = MG_EXIT_FAILURE;
		if (json)
			continue;
		words = mg_rotate_words(item, id);
		if (bad)
			g_printerr("macguise rotate: %s\n", words);
		else
			g_print("%s\n", words);
	}
	json_object_set_array_member(o, "profiles", list);
	json_node_take_object(root, o);
	if (json)
		mg_cli_print_json(root);
	return status;
}

int
mg_cmd_rotate(int argc, char **argv)
{
	gboolean all = FALSE, now = FALSE, json = FALSE;
	const GOptionEntry entries[] = {
		{ "all", 'a', 0, G_OPTION_ARG_NONE, &all, N_("Every managed profile"), NULL },
		{ "now",
		  0,
		  0,
		  G_OPTION_ARG_NONE,
		  &now,
		  N_("Re-activate a live connection with its new address at once, instead of "
		     "giving it the address when it next goes down"),
		  NULL },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
		{ NULL },
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(NMClient) client = NULL;
	g_autoptr(GPtrArray) profiles = NULL;
	g_autoptr(GPtrArray) items =
	    g_ptr_array_new_with_free_func((GDestroyNotify)mg_rotate_item_free);
	int status;

	if (!mg_cli_parse_options("rotate",
				  _("[PROFILE…|--all]"),
				  _("Give profiles a new address now (this needs root)."),
				  entries,
				  &argc,
				  &argv))
		return MG_EXIT_USAGE;
	if (all == (argc > 1))
		return mg_cli_usage_error("rotate", _("name profiles or say --all, not both"));
	status = mg_cli_open("rotate", all ? NULL : argv + 1, &client, &profiles);
	if (status != MG_EXIT_OK)
		return status;
	for (guint i = 0; i < (all ? 1 : profiles->len); i++) {
		NMConnection *c = all ? NULL : g_ptr_array_index(profiles, i);
		if (!mg_rotate_ask(
			c != NULL ? nm_connection_get_uuid(c) : "", now, profiles, items, &error))
			return mg_cli_failure("rotate", error);
	}
	mg_rotate_wait(items);
	return mg_rotate_report(items, all, json);
}
