/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-probe-filter.h"

#include <string.h>

#define ETHERTYPE_ARP_ 0x0806
#define ETHERTYPE_IPV6_ 0x86dd
#define IPPROTO_ICMPV6_ 58
#define ICMP6_NS 135
#define ICMP6_NA 136
/* Offsets in an untagged Ethernet frame (the kernel takes VLAN tags off
 * before a packet socket sees the frame). */
#define OFF_DST 0
#define OFF_SRC 6
#define OFF_TYPE 12
#define OFF_IP6_NEXT 20
#define OFF_ICMP6_TYPE 54
/* Everything the classifier reads lies within the first 128 bytes. */
#define KEEP 2048

static void
mg_probe_filter_source_words(const MgMac *mac, guint32 *high, guint32 *low)
{
	const guint8 *o = mac->octet;

	*high = (guint32)o[0] << 24 | (guint32)o[1] << 16 | (guint32)o[2] << 8 | o[3];
	*low = (guint32)o[4] << 8 | o[5];
}

void
mg_probe_filter_build(const MgMac *mac, struct sock_filter prog[MG_PROBE_FILTER_LEN])
{
	guint32 src_high, src_low;

	mg_probe_filter_source_words(mac, &src_high, &src_low);
	/* A jump skips that many instructions after its own ("to": where it lands). */
	const struct sock_filter p[MG_PROBE_FILTER_LEN] = {
		/* 0 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, OFF_TYPE),
		/* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETHERTYPE_ARP_, 10, 0), /* to 12 */
		/* 2 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETHERTYPE_IPV6_, 0, 5), /* to 8 */
		/* 3 */ BPF_STMT(BPF_LD | BPF_B | BPF_ABS, OFF_IP6_NEXT),
		/* 4 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IPPROTO_ICMPV6_, 0, 3), /* to 8 */
		/* 5 */ BPF_STMT(BPF_LD | BPF_B | BPF_ABS, OFF_ICMP6_TYPE),
		/* 6 */ BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, ICMP6_NS, 0, 1),     /* to 8 */
		/* 7 */ BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, ICMP6_NA + 1, 0, 4), /* to 12 */
		/* 8 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_SRC),
		/* 9 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, src_high, 0, 3), /* to 13 */
		/* 10 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, OFF_SRC + 4),
		/* 11 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, src_low, 0, 1), /* to 13 */
		/* 12 */ BPF_STMT(BPF_RET | BPF_K, KEEP),
		/* 13 */ BPF_STMT(BPF_RET | BPF_K, 0),
	};

	memcpy(prog, p, sizeof(p));
}

void
mg_probe_filter_build_source(const MgMac *mac, struct sock_filter prog[MG_SOURCE_FILTER_LEN])
{
	guint32 src_high, src_low;

	mg_probe_filter_source_words(mac, &src_high, &src_low);
	{
		const struct sock_filter p[MG_SOURCE_FILTER_LEN] = {
			/* 0 */ BPF_STMT(BPF_LD | BPF_B | BPF_ABS, OFF_DST),
			/* 1 */ BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 5), /* to 7 */
			/* 2 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_SRC),
			/* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, src_high, 0, 3), /* to 7 */
			/* 4 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, OFF_SRC + 4),
			/* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, src_low, 0, 1), /* to 7 */
			/* 6 */ BPF_STMT(BPF_RET | BPF_K, KEEP),
			/* 7 */ BPF_STMT(BPF_RET | BPF_K, 0),
		};
		memcpy(prog, p, sizeof(p));
	}
}
