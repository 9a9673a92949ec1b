/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The floor for macguised's profile writes: a bare libnm client that writes
 * a cloned MAC address into every Ethernet profile whose id starts with a
 * prefix, with the Update2 flags macguised uses (to disk) and at most as
 * many writes under way at once (16), and nothing else: no state, no
 * draw, no lock. Exits once NetworkManager has answered every write.
 *
 *     nm-bare-writer PREFIX */
#include "config.h"

#include <NetworkManager.h>
#include <stdio.h>
#include <string.h>

#define MAX_IN_FLIGHT 16

typedef struct {
	GMainLoop *loop;
	GPtrArray *todo; /* NMRemoteConnection */
	guint next;
	guint in_flight;
	guint failed;
} Writer;

static void write_next(Writer *w);

static void
written(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Writer *w = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) ret =
	    nm_remote_connection_update2_finish(NM_REMOTE_CONNECTION(source), result, &error);

	if (ret == NULL) {
		fprintf(stderr, "nm-bare-writer: %s\n", error->message);
		w->failed++;
	}
	w->in_flight--;
	write_next(w);
	if (w->in_flight == 0 && w->next == w->todo->len)
		g_main_loop_quit(w->loop);
}

static void
write_next(Writer *w)
{
	while (w->in_flight < MAX_IN_FLIGHT && w->next < w->todo->len) {
		NMRemoteConnection *rc = g_ptr_array_index(w->todo, w->next);
		g_autoptr(NMConnection) copy = nm_simple_connection_new_clone(NM_CONNECTION(rc));
		NMSettingWired *s = nm_connection_get_setting_wired(copy);
		char mac[18];

		/* One address per profile from a block of Intel's, as macguise
		 * would draw. */
		g_snprintf(mac,
			   sizeof(mac),
			   "00:1b:21:%02x:%02x:%02x",
			   (w->next >> 16) & 0xff,
			   (w->next >> 8) & 0xff,
			   w->next & 0xff);
		if (s == NULL) {
			s = NM_SETTING_WIRED(nm_setting_wired_new());
			nm_connection_add_setting(copy, NM_SETTING(s));
		}
		g_object_set(s, NM_SETTING_WIRED_CLONED_MAC_ADDRESS, mac, NULL);
		nm_remote_connection_update2(
		    rc,
		    nm_connection_to_dbus(copy, NM_CONNECTION_SERIALIZE_ALL),
		    NM_SETTINGS_UPDATE2_FLAG_TO_DISK,
		    NULL,
		    NULL,
		    written,
		    w);
		w->in_flight++;
		w->next++;
	}
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(NMClient) client = NULL;
	g_autoptr(GMainLoop) loop = g_main_loop_new(NULL, FALSE);
	g_autoptr(GPtrArray) todo = g_ptr_array_new();
	const GPtrArray *all;
	Writer w = { loop, todo, 0, 0, 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: nm-bare-writer PREFIX\n");
		return 2;
	}
	client = nm_client_new(NULL, &error);
	if (client == NULL) {
		fprintf(stderr, "nm-bare-writer: %s\n", error->message);
		return 1;
	}
	all = nm_client_get_connections(client);
	for (guint i = 0; i < all->len; i++) {
		NMConnection *c = g_ptr_array_index(all, i);
		if (g_str_has_prefix(nm_connection_get_id(c), argv[1]) &&
		    g_strcmp0(nm_connection_get_connection_type(c), "802-3-ethernet") == 0)
			g_ptr_array_add(todo, c);
	}
	write_next(&w);
	if (w.in_flight > 0)
		g_main_loop_run(loop);
	printf("%u profiles written, %u failed, of %u profiles\n", todo->len, w.failed, all->len);
	return w.failed == 0 ? 0 : 1;
}
