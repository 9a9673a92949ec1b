/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The D-Bus face of macguised: the introspection data is a GResource, and
 * each method is one handler in a table that says whether only root may
 * call it (the D-Bus policy in data/ says the same; this checks it again).
 * Who the caller is is asked of the bus asynchronously, once per
 * connection. */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-dbus-api.h"

#include <gio/gunixfdlist.h>

#include "mg-user-name.h"

/* Callers remembered (unique names are never reused on a bus) until they
 * leave the bus: a verdict sent without waiting for the answer is handled
 * after its sender has gone, when the bus can no longer say who it was, so
 * the entry made when the hook asked its first question must still be
 * there. The bus's own limits on connections keep the table small; past
 * this many, new callers are asked about on every call instead. */
#define MG_DBUS_MAX_CALLERS 4096
/* A caller's name looked up: how long its GetStatus waits for it, and how
 * many lookups a directory service that does not answer may hold at once. */
#define MG_DBUS_LOOKUP_S 2
#define MG_DBUS_MAX_LOOKUPS 4

typedef struct {
	MgService *service;
	GCallback lost;
	gpointer lost_data;
	GDBusNodeInfo *info;
	GDBusConnection *connection;
	GHashTable *callers; /* unique name -> uid */
	GHashTable *named;   /* UUIDs ProfilesChanged named, while they are public */
	gulong changed_id;
	guint owner_changed_id;
} MgDbusApi;

/* Callers' names being looked up, for the process (a lookup outlives the
 * call it was for, and may outlive the API). */
static guint mg_dbus_lookups;

typedef void (*MgDbusHandler)(MgDbusApi *api,
			      GVariant *parameters,
			      GDBusMethodInvocation *invocation,
			      guint32 uid);

typedef struct {
	const char *method;
	MgDbusHandler handler;
	gboolean needs_root;
} MgDbusMethod;

static void
mg_dbus_reply(GDBusMethodInvocation *invocation, GVariant *value, GError *error)
{
	if (value == NULL)
		g_dbus_method_invocation_return_gerror(invocation, error);
	else
		g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&value, 1));
}

/* A GetStatus waiting for its caller's name (which profiles the caller may
 * see: connection.permissions names users). */
typedef struct {
	MgService *service;
	GDBusMethodInvocation *invocation; /* NULL once answered */
	guint timeout_id;
} MgStatusCall;

static void
mg_status_answer(MgStatusCall *call, const char *user)
{
	mg_dbus_reply(call->invocation, mg_service_get_status(call->service, user), NULL);
	g_clear_object(&call->invocation);
}

/* The name did not come in time: answered as for no one in particular
 * (the profiles every user may see); the lookup's end is left to it. */
static gboolean
mg_status_timed_out(gpointer user_data)
{
	MgStatusCall *call = user_data;

	call->timeout_id = 0;
	g_debug("GetStatus: the caller's name did not come within %u s", MG_DBUS_LOOKUP_S);
	mg_status_answer(call, NULL);
	return G_SOURCE_REMOVE;
}

static void
mg_status_named(GObject *source, GAsyncResult *result, gpointer user_data)
{
	MgStatusCall *call = user_data;
	g_autofree char *user = mg_user_name_lookup_finish(result);

	mg_dbus_lookups--;
	if (call->invocation != NULL) {
		g_clear_handle_id(&call->timeout_id, g_source_remove);
		mg_status_answer(call, user);
	}
	g_object_unref(call->service);
	g_free(call);
}

/* A local user's call must not stall macguised: the name is looked up in a
 * thread, its answer waited for MG_DBUS_LOOKUP_S at most, and no more than
 * MG_DBUS_MAX_LOOKUPS lookups run at once (a caller past them, or one
 * whose uid the bus did not give, is answered as no one in particular). */
static void
mg_dbus_get_status(MgDbusApi *api,
		   GVariant *parameters,
		   GDBusMethodInvocation *invocation,
		   guint32 uid)
{
	MgStatusCall *call;

	if (uid == G_MAXUINT32 || mg_dbus_lookups >= MG_DBUS_MAX_LOOKUPS) {
		mg_dbus_reply(invocation, mg_service_get_status(api->service, NULL), NULL);
		return;
	}
	call = g_new0(MgStatusCall, 1);
	call->service = g_object_ref(api->service);
	call->invocation = g_object_ref(invocation);
	call->timeout_id = g_timeout_add_seconds(MG_DBUS_LOOKUP_S, mg_status_timed_out, call);
	mg_dbus_lookups++;
	mg_user_name_lookup_async(uid, mg_status_named, call);
}

static void
mg_dbus_rotate(MgDbusApi *api, GVariant *parameters, GDBusMethodInvocation *invocation, guint32 uid)
{
	g_autoptr(GError) error = NULL;
	const char *profile;
	gboolean now;
	GVariant *outcomes;

	g_variant_get(parameters, "(&sb)", &profile, &now);
	outcomes = mg_service_rotate(api->service, profile, now, &error);
	mg_dbus_reply(invocation, outcomes, error);
}

static void
mg_dbus_reload(MgDbusApi *api, GVariant *parameters, GDBusMethodInvocation *invocation, guint32 uid)
{
	mg_service_reload(api->service);
	g_dbus_method_invocation_return_value(invocation, NULL);
}

static void
mg_dbus_get_link_check(MgDbusApi *api,
		       GVariant *parameters,
		       GDBusMethodInvocation *invocation,
		       guint32 uid)
{
	const char *profile;

	g_variant_get(parameters, "(&s)", &profile);
	g_dbus_method_invocation_return_value(invocation,
					      mg_service_get_link_check(api->service, profile));
}

static void
mg_dbus_report_verdict(MgDbusApi *api,
		       GVariant *parameters,
		       GDBusMethodInvocation *invocation,
		       guint32 uid)
{
	g_autoptr(GError) error = NULL;
	const char *profile, *iface, *address, *verdict, *evidence, *outcome;
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
	mg_dbus_reply(invocation, outcome != NULL ? g_variant_new_string(outcome) : NULL, error);
}

/* No reply: the hook has gone by now. */
static void
mg_dbus_watch_link(MgDbusApi *api,
		   GVariant *parameters,
		   GDBusMethodInvocation *invocation,
		   guint32 uid)
{
	GUnixFDList *fds =
	    g_dbus_message_get_unix_fd_list(g_dbus_method_invocation_get_message(invocation));
	g_autoptr(GError) error = NULL;
	const char *profile, *iface, *address;
	gint32 handle;
	int fd;

	g_variant_get(parameters, "(&s&s&sh)", &profile, &iface, &address, &handle);
	fd = fds != NULL && handle >= 0 && handle < g_unix_fd_list_get_length(fds)
		 ? g_unix_fd_list_get(fds, handle, &error)
		 : -1;
	if (error != NULL)
		g_debug("WatchLink: %s", error->message);
	if (fd < 0)
		g_dbus_method_invocation_return_error_literal(invocation,
							      G_IO_ERROR,
							      G_IO_ERROR_INVALID_ARGUMENT,
							      "no socket came with the call");
	else if (!mg_service_watch_link(api->service, profile, iface, address, fd, &error)) {
		g_debug("WatchLink: %s", error->message);
		g_dbus_method_invocation_return_gerror(invocation, error);
	} else
		g_dbus_method_invocation_return_value(invocation, NULL);
}

static const MgDbusMethod mg_dbus_methods[] = {
	{ "GetStatus", mg_dbus_get_status, FALSE },
	{ "Rotate", mg_dbus_rotate, TRUE },
	{ "Reload", mg_dbus_reload, TRUE },
	{ "GetLinkCheck", mg_dbus_get_link_check, TRUE },
	{ "ReportVerdict", mg_dbus_report_verdict, TRUE },
	{ "WatchLink", mg_dbus_watch_link, TRUE },
};

/* A call waiting for the bus to say who made it. */
typedef struct {
	MgDbusApi *api;
	const MgDbusMethod *method;
	GDBusMethodInvocation *invocation;
} MgDbusCall;

static void
mg_dbus_dispatch(MgDbusApi *api,
		 const MgDbusMethod *method,
		 GDBusMethodInvocation *invocation,
		 guint32 uid)
{
	if (method->needs_root && uid != 0) {
		g_dbus_method_invocation_return_dbus_error(
		    invocation,
		    "org.freedesktop.DBus.Error.AccessDenied",
		    "only root may change macguise's addresses");
		return;
	}
	method->handler(api, g_dbus_method_invocation_get_parameters(invocation), invocation, uid);
}

static void
mg_dbus_caller_known(GObject *source, GAsyncResult *result, gpointer user_data)
{
	MgDbusCall *call = user_data;
	g_autoptr(GVariant) ret =
	    g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, NULL);
	guint32 uid = G_MAXUINT32; /* unknown: no one in particular */

	if (ret != NULL) {
		g_variant_get(ret, "(u)", &uid);
		if (g_hash_table_size(call->api->callers) < MG_DBUS_MAX_CALLERS)
			g_hash_table_insert(
			    call->api->callers,
			    g_strdup(g_dbus_method_invocation_get_sender(call->invocation)),
			    GUINT_TO_POINTER(uid));
	}
	mg_dbus_dispatch(call->api, call->method, call->invocation, uid);
	g_free(call);
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
	const MgDbusMethod *method = NULL;
	gpointer uid;
	MgDbusCall *call;

	for (guint i = 0; i < G_N_ELEMENTS(mg_dbus_methods); i++) {
		if (g_strcmp0(method_name, mg_dbus_methods[i].method) == 0)
			method = &mg_dbus_methods[i];
	}
	if (method == NULL) {
		g_dbus_method_invocation_return_dbus_error(
		    invocation, "org.freedesktop.DBus.Error.UnknownMethod", method_name);
		return;
	}
	if (sender != NULL && g_hash_table_lookup_extended(api->callers, sender, NULL, &uid)) {
		mg_dbus_dispatch(api, method, invocation, GPOINTER_TO_UINT(uid));
		return;
	}
	call = g_new0(MgDbusCall, 1);
	call->api = api;
	call->method = method;
	call->invocation = invocation; /* owned until it is answered */
	g_dbus_connection_call(connection,
			       "org.freedesktop.DBus",
			       "/org/freedesktop/DBus",
			       "org.freedesktop.DBus",
			       "GetConnectionUnixUser",
			       g_variant_new("(s)", sender != NULL ? sender : ""),
			       G_VARIANT_TYPE("(u)"),
			       G_DBUS_CALL_FLAGS_NONE,
			       5000,
			       NULL,
			       mg_dbus_caller_known,
			       call);
}

static const GDBusInterfaceVTable mg_dbus_vtable = { mg_dbus_method_call, NULL, NULL, { 0 } };

/* ProfilesChanged(as uuids): a page showing the status need not poll. The
 * signal goes to every local user, so it names only the profiles every
 * user may see, and a change of the others alone is not signalled: a
 * profile restricted to some users (connection.permissions) is neither
 * named nor timed. One it named before is named once more when it goes
 * (deleted, or restricted), so that a page drops it. */
static void
mg_dbus_profiles_changed(MgService *service, GStrv uuids, gpointer user_data)
{
	MgDbusApi *api = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) public = g_ptr_array_new();

	if (api->connection == NULL)
		return;
	for (guint i = 0; uuids[i] != NULL; i++) {
		if (mg_service_profile_is_public(service, uuids[i])) {
			g_hash_table_add(api->named, g_strdup(uuids[i]));
			g_ptr_array_add(public, uuids[i]);
		} else if (g_hash_table_remove(api->named, uuids[i])) {
			g_ptr_array_add(public, uuids[i]);
		}
	}
	if (public->len == 0)
		return;
	g_ptr_array_add(public, NULL);
	if (!g_dbus_connection_emit_signal(api->connection,
					   NULL,
					   MG_DBUS_PATH,
					   MG_DBUS_INTERFACE,
					   "ProfilesChanged",
					   g_variant_new("(^as)", (char **)public->pdata),
					   &error))
		g_debug("cannot emit ProfilesChanged: %s", error->message);
}

/* A caller left the bus (the bus daemon says so after every message the
 * caller sent has been delivered). */
static void
mg_dbus_name_owner_changed(GDBusConnection *connection,
			   const char *sender,
			   const char *path,
			   const char *interface,
			   const char *signal,
			   GVariant *parameters,
			   gpointer user_data)
{
	MgDbusApi *api = user_data;
	const char *name, *old_owner, *new_owner;

	if (!g_variant_is_of_type(parameters, G_VARIANT_TYPE("(sss)")))
		return;
	g_variant_get(parameters, "(&s&s&s)", &name, &old_owner, &new_owner);
	if (*new_owner == '\0')
		g_hash_table_remove(api->callers, name);
}

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
					      &error) == 0) {
		g_warning("cannot export %s: %s", MG_DBUS_PATH, error->message);
		return;
	}
	g_set_object(&api->connection, connection);
	/* Unsubscribed with api->connection: only once it is set. */
	api->owner_changed_id = g_dbus_connection_signal_subscribe(connection,
								   "org.freedesktop.DBus",
								   "org.freedesktop.DBus",
								   "NameOwnerChanged",
								   "/org/freedesktop/DBus",
								   NULL,
								   G_DBUS_SIGNAL_FLAGS_NONE,
								   mg_dbus_name_owner_changed,
								   api,
								   NULL);
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
	g_clear_signal_handler(&api->changed_id, api->service);
	if (api->connection != NULL && api->owner_changed_id != 0)
		g_dbus_connection_signal_unsubscribe(api->connection, api->owner_changed_id);
	g_object_unref(api->service);
	g_clear_object(&api->connection);
	g_hash_table_unref(api->callers);
	g_hash_table_unref(api->named);
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
	api->callers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	api->named = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	api->changed_id = g_signal_connect(
	    service, "profiles-changed", G_CALLBACK(mg_dbus_profiles_changed), api);
	return g_bus_own_name(G_BUS_TYPE_SYSTEM,
			      MG_DBUS_NAME,
			      G_BUS_NAME_OWNER_FLAGS_NONE,
			      mg_dbus_bus_acquired,
			      mg_dbus_name_acquired,
			      mg_dbus_name_lost,
			      api,
			      (GDestroyNotify)mg_dbus_api_free);
}
