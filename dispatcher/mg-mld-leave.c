/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-mld-leave.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* More addresses than a link carries; any beyond are left to NetworkManager. */
#define MG_MLD_ADDRESSES_MAX 64

typedef struct {
	unsigned char addr[16];
	unsigned char prefixlen;
	unsigned char scope;
} MgMldAddress;

static long
mg_mld_now_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)now.tv_sec * 1000L + now.tv_nsec / 1000000L;
}

/* The whole of a small file in @buf, or -1. */
static ssize_t
mg_mld_read_file(const char *path, char *buf, size_t size)
{
	ssize_t n, got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((size_t)got < size - 1 && (n = read(fd, buf + got, size - 1 - (size_t)got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return -1;
		}
		got += n;
	}
	close(fd);
	buf[got] = '\0';
	return got;
}

static int
mg_mld_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The MLDv2 reports the kernel has sent on @iface, or -1. */
static long
mg_mld_reports_sent(const char *iface)
{
	static char text[8192];
	char path[64];
	const char *line;

	snprintf(path, sizeof(path), "/proc/net/dev_snmp6/%s", iface);
	if (mg_mld_read_file(path, text, sizeof(text)) <= 0)
		return -1;
	line = strstr(text, "Icmp6OutMLDv2Reports");
	return line != NULL ? strtol(line + strlen("Icmp6OutMLDv2Reports"), NULL, 10) : -1;
}

/* One netlink request; 0 once the kernel acknowledged it. */
static int
mg_mld_request(int fd, struct nlmsghdr *req)
{
	char buf[4096];
	ssize_t n;

	if (send(fd, req, req->nlmsg_len, 0) < 0)
		return -1;
	while ((n = recv(fd, buf, sizeof(buf), 0)) < 0 && errno == EINTR)
		;
	if (n < (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)))
		return -1;
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	if (h->nlmsg_type != NLMSG_ERROR)
		return -1;
	errno = -((struct nlmsgerr *)NLMSG_DATA(h))->error;
	return errno == 0 ? 0 : -1;
}

/* The netlink macros walk the (aligned) buffer through char pointers,
 * which clang's -Wcast-align takes for a loss of alignment. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-align"
/* The IPv6 addresses of @ifindex, at most @max into @out: their count. */
static unsigned
mg_mld_addresses(int fd, int ifindex, MgMldAddress *out, unsigned max)
{
	struct {
		struct nlmsghdr h;
		struct ifaddrmsg a;
	} req = { .h = { .nlmsg_len = sizeof(req),
			 .nlmsg_type = RTM_GETADDR,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			 .nlmsg_seq = 1 },
		  .a = { .ifa_family = AF_INET6 } };
	static char buf[32768] __attribute__((aligned(NLMSG_ALIGNTO)));
	unsigned count = 0;

	if (send(fd, &req, sizeof(req), 0) < 0)
		return 0;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return count;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR)
				return count;
			struct ifaddrmsg *a = NLMSG_DATA(h);
			if (h->nlmsg_type != RTM_NEWADDR || (int)a->ifa_index != ifindex ||
			    count >= max)
				continue;
			int len = (int)IFA_PAYLOAD(h);
			for (struct rtattr *rta = IFA_RTA(a); RTA_OK(rta, len);
			     rta = RTA_NEXT(rta, len)) {
				if (rta->rta_type == IFA_ADDRESS && RTA_PAYLOAD(rta) == 16) {
					memcpy(out[count].addr, RTA_DATA(rta), 16);
					out[count].prefixlen = a->ifa_prefixlen;
					out[count].scope = a->ifa_scope;
					count++;
					break;
				}
			}
		}
	}
}
#pragma GCC diagnostic pop

static int
mg_mld_remove(int fd, int ifindex, const MgMldAddress *address)
{
	struct {
		struct nlmsghdr h;
		struct ifaddrmsg a;
		struct rtattr rta;
		unsigned char addr[16];
	} req = { .h = { .nlmsg_len = sizeof(req),
			 .nlmsg_type = RTM_DELADDR,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
			 .nlmsg_seq = 2 },
		  .a = { .ifa_family = AF_INET6,
			 .ifa_prefixlen = address->prefixlen,
			 .ifa_scope = address->scope,
			 .ifa_index = (unsigned)ifindex },
		  .rta = { .rta_len = RTA_LENGTH(16), .rta_type = IFA_LOCAL } };

	memcpy(req.addr, address->addr, 16);
	return mg_mld_request(fd, &req.h);
}

/* Until every record the kernel keeps was sent as often as it keeps it. */
static void
mg_mld_wait(const char *iface, long started, long before, MgMldLeave *out)
{
	char text[32];
	long last = mg_mld_now_ms();
	long count = before;
	unsigned qrv = 0;

	if (mg_mld_read_file("/proc/sys/net/ipv6/mld_qrv", text, sizeof(text)) > 0)
		qrv = (unsigned)strtoul(text, NULL, 10);
	for (;;) {
		long now = mg_mld_now_ms();
		long sent = mg_mld_reports_sent(iface);
		if (sent < 0) { /* the interface went: nothing is kept for it */
			out->end = MG_MLD_DRAIN_DONE;
			break;
		}
		if (sent != count) {
			count = sent;
			last = now;
		}
		out->sent = (unsigned)(count - before);
		out->end = mg_mld_drain_step(now - started, out->sent, now - last, qrv);
		if (out->end != MG_MLD_DRAIN_WAIT)
			break;
		struct timespec tick = { 0, 1000000L };
		nanosleep(&tick, NULL);
	}
	out->waited_ms = mg_mld_now_ms() - started;
}

/* Removes @ifindex's IPv6 addresses, link-local last (the other groups'
 * reports go from it meanwhile): how many. */
static unsigned
mg_mld_remove_all(int fd, int ifindex)
{
	static MgMldAddress addresses[MG_MLD_ADDRESSES_MAX];
	unsigned n = mg_mld_addresses(fd, ifindex, addresses, MG_MLD_ADDRESSES_MAX);
	unsigned removed = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < n; i++) {
			if ((addresses[i].scope == RT_SCOPE_LINK) != (pass == 1))
				continue;
			if (mg_mld_remove(fd, ifindex, &addresses[i]) == 0)
				removed++;
		}
	}
	return removed;
}

int
mg_mld_leave(const char *iface, MgMldLeave *out)
{
	char path[128], interval[32];
	int ifindex, fd, lowered;
	long started, before;

	memset(out, 0, sizeof(*out));
	if (iface == NULL || iface[0] == '\0' || strchr(iface, '/') != NULL ||
	    strlen(iface) >= IFNAMSIZ || (ifindex = (int)if_nametoindex(iface)) == 0) {
		errno = ENODEV;
		return -1;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -1;
	snprintf(path,
		 sizeof(path),
		 "/proc/sys/net/ipv6/conf/%s/mldv2_unsolicited_report_interval",
		 iface);
	lowered = mg_mld_read_file(path, interval, sizeof(interval)) > 0 &&
		  mg_mld_write_file(path, "1") == 0;
	started = mg_mld_now_ms();
	out->removed = mg_mld_remove_all(fd, ifindex);
	close(fd);
	/* Counted from here: each removal puts the kernel's next report off
	 * to at least two jiffies later (mld_ifc_start_work()), so every
	 * report from now on carries every record still kept. */
	before = mg_mld_reports_sent(iface);
	if (out->removed > 0 && before >= 0)
		mg_mld_wait(iface, started, before, out);
	if (lowered)
		mg_mld_write_file(path, interval);
	/* NetworkManager puts a new link-local address in place of the one
	 * removed at once (its IPv6LL), and removes that one only as it
	 * takes the link down, too late for its leave: under MLDv1 the
	 * kernel keeps no record of a group left (igmp6_leave_group()). */
	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/force_mld_version", iface);
	if (out->removed > 0 && mg_mld_read_file(path, interval, sizeof(interval)) > 0 &&
	    interval[0] == '0')
		out->v1 = mg_mld_write_file(path, "1") == 0;
	return 0;
}

void
mg_mld_restore(const char *iface)
{
	char path[128], text[32];

	if (iface == NULL || strchr(iface, '/') != NULL || strlen(iface) >= IFNAMSIZ)
		return;
	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/force_mld_version", iface);
	if (mg_mld_read_file(path, text, sizeof(text)) > 0 && text[0] == '1')
		mg_mld_write_file(path, "0");
}
