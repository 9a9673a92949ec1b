/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A peer that floods a link as fast as the kernel takes frames, for the test
 * that a flooded link neither stalls nor burdens the link check. KIND is
 * "noise" (IPv4 broadcasts, which the checker's socket filter drops) or "arp"
 * (ARP requests for other hosts, which the checker must read). Frames leave
 * in batches of one sendmmsg call each: a sender one frame per call is slower
 * than the checker's budget rate on a loaded machine, and the test would then
 * measure the sender rather than the checker.
 *
 * READY is created once the flood has run at least RATE frames a second for
 * a tenth of a second, so a test that waits for it knows the flood is faster
 * than what it asserts about. Runs until SIGTERM.
 *
 *   mg-flood IFACE noise|arp RATE READY */
#ifndef _GNU_SOURCE /* the build gives it; a testbed's gcc alone does not */
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FRAMES 254
#define FRAME_LEN 60

static uint8_t frames[FRAMES][FRAME_LEN];

static int
open_link(const char *iface, uint8_t mac[6])
{
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0)
		return -1;
	struct ifreq ifr = { 0 };
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", iface);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0 || ioctl(fd, SIOCGIFINDEX, &ifr) < 0)
		return -1;
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = ifr.ifr_ifindex,
	};
	if (bind(fd, (struct sockaddr *)&sll, sizeof sll) < 0)
		return -1;
	/* Straight to the device: the flood does not wait on a queue discipline. */
	int one = 1;
	setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof one);
	return fd;
}

/* One frame to 10.77.1.I (ARP) or one IPv4 UDP broadcast, from MAC. */
static void
build_frame(uint8_t *f, const uint8_t mac[6], int arp, int i)
{
	static const uint8_t from_ip[4] = { 10, 77, 0, 1 };
	memset(f, 0xff, 6);
	memcpy(f + 6, mac, 6);
	if (arp) {
		static const uint8_t header[10] = { 0x08, 0x06, 0, 1, 0x08, 0, 6, 4, 0, 1 };
		memcpy(f + 12, header, sizeof header);
		memcpy(f + 22, mac, 6);
		memcpy(f + 28, from_ip, 4);
		memset(f + 32, 0, 6);
		const uint8_t to_ip[4] = { 10, 77, 1, (uint8_t)i };
		memcpy(f + 38, to_ip, 4);
	} else {
		static const uint8_t header[14] = { 0x08, 0x00, 0x45, 0,  0,  28, 0,
						    0,    0,    0,    64, 17, 0,  0 };
		memcpy(f + 12, header, sizeof header);
		memcpy(f + 26, from_ip, 4);
		const uint8_t to_ip[4] = { 10, 77, 0, 255 };
		memcpy(f + 30, to_ip, 4);
		const uint8_t udp[8] = { 0, 9, 0, 9, 0, 8, 0, 0 };
		memcpy(f + 34, udp, sizeof udp);
	}
}

static double
now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	if (argc != 5 || (strcmp(argv[2], "noise") != 0 && strcmp(argv[2], "arp") != 0)) {
		fprintf(stderr, "usage: mg-flood IFACE noise|arp RATE READY\n");
		return 2;
	}
	uint8_t mac[6];
	int fd = open_link(argv[1], mac);
	if (fd < 0) {
		fprintf(stderr, "mg-flood: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	double rate = strtod(argv[3], NULL);
	struct mmsghdr msgs[FRAMES];
	struct iovec iov[FRAMES];
	for (int i = 0; i < FRAMES; i++) {
		build_frame(frames[i], mac, strcmp(argv[2], "arp") == 0, i + 1);
		iov[i] = (struct iovec){ .iov_base = frames[i], .iov_len = FRAME_LEN };
		msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[i], .msg_iovlen = 1 } };
	}
	int ready = 0;
	double since = now_seconds();
	long sent_since = 0;
	for (;;) {
		int n = sendmmsg(fd, msgs, FRAMES, 0);
		if (n > 0)
			sent_since += n;
		if (ready)
			continue;
		double t = now_seconds();
		if (t - since < 0.1)
			continue;
		if ((double)sent_since / (t - since) >= rate) {
			int r = open(argv[4], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
			if (r >= 0)
				close(r);
			ready = 1;
			printf("mg-flood: %.0f frames a second\n",
			       (double)sent_since / (t - since));
			fflush(stdout);
		}
		since = t;
		sent_since = 0;
	}
}
