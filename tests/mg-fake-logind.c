/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A stand-in for logind's sleep signal, on a test's private system bus: it
 * owns org.freedesktop.login1, creates READY once it does, and emits
 * PrepareForSleep(true) on SIGUSR1 (the machine goes to sleep) and
 * PrepareForSleep(false) on SIGUSR2 (it woke up), as logind does around a
 * suspend. Ends on SIGTERM.
 *
 *   mg-fake-logind READY */
#include <gio/gio.h>
#include <glib-unix.h>
#include <signal.h>

typedef struct {
	GDBusConnection *bus;
	const char *ready;
	GMainLoop *loop;
} MgFakeLogind;

static void
emit(MgFakeLogind *f, gboolean going_to_sleep)
{
	g_autoptr(GError) error = NULL;
	if (!g_dbus_connection_emit_signal(f->bus,
					   NULL,
					   "/org/freedesktop/login1",
					   "org.freedesktop.login1.Manager",
					   "PrepareForSleep",
					   g_variant_new("(b)", going_to_sleep),
					   &error) ||
	    !g_dbus_connection_flush_sync(f->bus, NULL, &error))
		g_printerr("mg-fake-logind: %s\n", error->message);
}

static gboolean
on_sleep(gpointer user_data)
{
	emit(user_data, TRUE);
	return G_SOURCE_CONTINUE;
}

static gboolean
on_wake(gpointer user_data)
{
	emit(user_data, FALSE);
	return G_SOURCE_CONTINUE;
}

static gboolean
on_term(gpointer user_data)
{
	MgFakeLogind *f = user_data;
	g_main_loop_quit(f->loop);
	return G_SOURCE_CONTINUE;
}

static void
acquired(GDBusConnection *bus, const char *name, gpointer user_data)
{
	MgFakeLogind *f = user_data;
	(void)bus, (void)name;
	if (!g_file_set_contents(f->ready, "", 0, NULL))
		g_main_loop_quit(f->loop);
}

static void
lost(GDBusConnection *bus, const char *name, gpointer user_data)
{
	MgFakeLogind *f = user_data;
	(void)bus;
	g_printerr("mg-fake-logind: cannot own %s\n", name);
	g_main_loop_quit(f->loop);
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	MgFakeLogind f = { 0 };
	guint owner;

	if (argc != 2) {
		g_printerr("usage: mg-fake-logind READY\n");
		return 2;
	}
	f.ready = argv[1];
	f.bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, &error);
	if (f.bus == NULL) {
		g_printerr("mg-fake-logind: %s\n", error->message);
		return 1;
	}
	f.loop = g_main_loop_new(NULL, FALSE);
	g_unix_signal_add(SIGUSR1, on_sleep, &f);
	g_unix_signal_add(SIGUSR2, on_wake, &f);
	g_unix_signal_add(SIGTERM, on_term, &f);
	owner = g_bus_own_name_on_connection(
	    f.bus, "org.freedesktop.login1", G_BUS_NAME_OWNER_FLAGS_NONE, acquired, lost, &f, NULL);
	g_main_loop_run(f.loop);
	g_bus_unown_name(owner);
	g_main_loop_unref(f.loop);
	g_object_unref(f.bus);
	return 0;
}
