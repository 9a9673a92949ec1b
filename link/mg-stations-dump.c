/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Prints what mg_stations_count() says about an interface, for tests. */
#include <net/if.h>
#include <stdio.h>

#include "mg-stations.h"

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	guint count = 0;
	unsigned int ifindex;

	if (argc != 2) {
		fprintf(stderr, "usage: %s IFACE\n", argv[0]);
		return 2;
	}
	ifindex = if_nametoindex(argv[1]);
	if (ifindex == 0) {
		fprintf(stderr, "%s: no such interface\n", argv[1]);
		return 1;
	}
	if (!mg_stations_count((int)ifindex, &count, &error)) {
		printf("unknown: %s\n", error->message);
		return 1;
	}
	printf("%u\n", count);
	return 0;
}
