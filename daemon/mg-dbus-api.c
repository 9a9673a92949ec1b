/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The D-Bus face of macguised: the introspection data is a GResource, the
 * methods call MgService. Only root may call the methods that change
 * anything; the D-Bus policy in data/ says the same, this checks it again. */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-dbus-api.h"

typedef struct {
	MgService *service;
	GCallback lost;
	gpointer lost_data;
	GDBusNodeInfo *info;
} MgDbusApi;

static gboolean
mg_dbus_caller_is_root(GDBusMethodInvocation *invocation)
{
	GDBusConnection *conn = g_dbus_method_invocation_get_connection(invocation);
	g_autoptr(GVariant) ret = NULL;
	guint32 uid = G_MAXUINT32;

	ret = g_dbus_connection_call_sync(
	    conn,
	    "org.freedesktop.DBus",
	    "/org/freedesktop/DBus",
	    "org.freedesktop.DBus",
	    "GetConnectionUnixUser",
	    g_variant_new("(s)", g_dbus_method_invocation_get_sender(invocation)),
	    G_VARIANT_TYPE("(u)"),
	    G_DBUS_CALL_FLAGS_NONE,
	    5000,
	    NULL,
	    NULL);
	if (ret != NULL)
		g_variant_get(ret, "(u)", &uid);
	return uid == 0;
}

static void
mg_dbus_method_call(GDBusConnection *connection,
		    const char *sender,
		    const char *object_path,
		    const char *interface_name,
		    const char *method_name,
		    GVariant *parameters,
		    GDBusMethodInvocation *invocation,
		    gpointer user_data)
{
	MgDbusApi *api = user_data;
	g_autoptr(GError) error = NULL;

	if (g_strcmp0(method_name, "GetStatus") == 0) {
		g_dbus_method_invocation_return_value(
		    invocation,
		    g_variant_new_tuple((GVariant *[]){ mg_service_get_status(api->service) }, 1));
		return;
	}
	if (!mg_dbus_caller_is_root(invocation)) {
		g_dbus_method_invocation_return_dbus_error(
		    invocation,
		    "org.freedesktop.DBus.Error.AccessDenied",
		    "only root may change macguise's addresses");
		return;
	}
	if (g_strcmp0(method_name, "Rotate") == 0) {
		const char *profile;
		gboolean now;
		GVariant *outcomes;
		g_variant_get(parameters, "(&sb)", &profile, &now);
		outcomes = mg_service_rotate(api->service, profile, now, &error);
		if (outcomes == NULL)
			g_dbus_method_invocation_return_gerror(invocation, error);
		else
			g_dbus_method_invocation_return_value(invocation,
							      g_variant_new_tuple(&outcomes, 1));
	} else if (g_strcmp0(method_name, "Reload") == 0) {
		if (!mg_service_reload(api->service, &error))
			g_dbus_method_invocation_return_gerror(invocation, error);
		else
			g_dbus_method_invocation_return_value(invocation, NULL);
	} else if (g_strcmp0(method_name, "GetLinkCheck") == 0) {
		const char *profile;
		g_variant_get(parameters, "(&s)", &profile);
		g_dbus_method_invocation_return_value(
		    invocation, mg_service_get_link_check(api->service, profile));
	} else if (g_strcmp0(method_name, "ReportVerdict") == 0) {
		const char *profile, *iface, *address, *verdict, *evidence;
		const char *outcome;
		guint32 duration_ms;
		g_variant_get(parameters,
			      "(&s&s&s&s&su)",
			      &profile,
			      &iface,
			      &address,
			      &verdict,
			      &evidence,
			      &duration_ms);
		outcome = mg_service_report_verdict(
		    api->service, profile, iface, address, verdict, evidence, duration_ms, &error);
		if (outcome == NULL)
			g_dbus_method_invocation_return_gerror(invocation, error);
		else
			g_dbus_method_invocation_return_value(invocation,
							      g_variant_new("(s)", outcome));
	} else {
		g_dbus_method_invocation_return_dbus_error(
		    invocation, "org.freedesktop.DBus.Error.UnknownMethod", method_name);
	}
}

static const GDBusInterfaceVTable mg_dbus_vtable = { mg_dbus_method_call, NULL, NULL, { 0 } };

static void
mg_dbus_bus_acquired(GDBusConnection *connection, const char *name, gpointer user_data)
{
	MgDbusApi *api = user_data;
	g_autoptr(GError) error = NULL;

	if (g_dbus_connection_register_object(connection,
					      MG_DBUS_PATH,
					      api->info->interfaces[0],
					      &mg_dbus_vtable,
					      api,
					      NULL,
					      &error) == 0)
		g_warning("cannot export %s: %s", MG_DBUS_PATH, error->message);
}

static void
mg_dbus_name_acquired(GDBusConnection *connection, const char *name, gpointer user_data)
{
	g_message("serving %s on the system bus", name);
}

static void
mg_dbus_name_lost(GDBusConnection *connection, const char *name, gpointer user_data)
{
	MgDbusApi *api = user_data;
	g_warning("cannot own %s on the system bus", name);
	if (api->lost != NULL)
		((void (*)(gpointer))api->lost)(api->lost_data);
}

static void
mg_dbus_api_free(MgDbusApi *api)
{
	g_object_unref(api->service);
	g_dbus_node_info_unref(api->info);
	g_free(api);
}

guint
mg_dbus_api_own(MgService *service, GCallback lost, gpointer lost_data)
{
	g_autoptr(GBytes) xml =
	    g_resources_lookup_data("/org/macguise/org.macguise.Daemon1.xml", 0, NULL);
	g_autoptr(GError) error = NULL;
	MgDbusApi *api = g_new0(MgDbusApi, 1);

	g_assert(xml != NULL);
	api->info = g_dbus_node_info_new_for_xml(g_bytes_get_data(xml, NULL), &error);
	g_assert_no_error(error);
	api->service = g_object_ref(service);
	api->lost = lost;
	api->lost_data = lost_data;
	return g_bus_own_name(G_BUS_TYPE_SYSTEM,
			      MG_DBUS_NAME,
			      G_BUS_NAME_OWNER_FLAGS_NONE,
			      mg_dbus_bus_acquired,
			      mg_dbus_name_acquired,
			      mg_dbus_name_lost,
			      api,
			      (GDestroyNotify)mg_dbus_api_free);
}
