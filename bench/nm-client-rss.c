/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The baseline for macguised's memory: a process that only holds libnm's
 * cache of NetworkManager's profiles, as macguised does. Prints its
 * resident memory in KiB once the cache is filled, then waits for SIGTERM. */
#include "config.h"

#include <NetworkManager.h>
#include <glib-unix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gboolean
quit(gpointer loop)
{
	g_main_loop_quit(loop);
	return G_SOURCE_REMOVE;
}

int
main(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(NMClient) client = nm_client_new(NULL, &error);
	g_autoptr(GMainLoop) loop = g_main_loop_new(NULL, FALSE);
	g_autofree char *status = NULL;
	const char *rss;

	if (client == NULL) {
		fprintf(stderr, "nm-client-rss: %s\n", error->message);
		return 1;
	}
	if (g_file_get_contents("/proc/self/status", &status, NULL, NULL) &&
	    (rss = strstr(status, "VmRSS:")) != NULL)
		printf("%u profiles, %ld KiB\n",
		       nm_client_get_connections(client)->len,
		       strtol(rss + 6, NULL, 10));
	fflush(stdout);
	g_unix_signal_add(SIGTERM, quit, loop);
	g_main_loop_run(loop);
	return 0;
}
