/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The floor for the boot step: GKeyFile alone rewriting every keyfile in a
 * directory with a cloned MAC address, as durably as the boot step writes
 * them (a new file renamed over the old, synced), and nothing else: no
 * state, no draw, no decision, no libnm.
 *
 *     keyfile-rewriter DIR */
#include "config.h"

#include <glib.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
	g_autoptr(GDir) dir = NULL;
	g_autoptr(GError) error = NULL;
	const char *name;
	guint n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: keyfile-rewriter DIR\n");
		return 2;
	}
	dir = g_dir_open(argv[1], 0, &error);
	if (dir == NULL) {
		fprintf(stderr, "keyfile-rewriter: %s\n", error->message);
		return 1;
	}
	while ((name = g_dir_read_name(dir)) != NULL) {
		g_autofree char *path = g_build_filename(argv[1], name, NULL);
		g_autoptr(GKeyFile) kf = g_key_file_new();
		g_autofree char *data = NULL;
		gsize len = 0;
		char mac[18];

		if (!g_str_has_suffix(name, ".nmconnection"))
			continue;
		if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_KEEP_COMMENTS, &error))
			return fprintf(stderr, "keyfile-rewriter: %s\n", error->message), 1;
		g_snprintf(mac,
			   sizeof(mac),
			   "00:1b:21:%02x:%02x:%02x",
			   (n >> 16) & 0xff,
			   (n >> 8) & 0xff,
			   n & 0xff);
		g_key_file_set_string(kf, "ethernet", "cloned-mac-address", mac);
		data = g_key_file_to_data(kf, &len, NULL);
		if (!g_file_set_contents_full(path,
					      data,
					      (gssize)len,
					      G_FILE_SET_CONTENTS_CONSISTENT |
						  G_FILE_SET_CONTENTS_DURABLE,
					      0600,
					      &error))
			return fprintf(stderr, "keyfile-rewriter: %s\n", error->message), 1;
		n++;
	}
	printf("%u keyfiles rewritten\n", n);
	return 0;
}
