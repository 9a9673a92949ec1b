/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Plain C, for the dispatcher hook's libc-only front (pre-down): the
 * interface's IPv6 addresses removed while its link is still up, so that
 * the kernel's MLDv2 "left group" reports for their solicited-node groups
 * go out now, from this session's address, and none is left for the
 * kernel to send when the link comes up again with the next one. */

#include "mg-mld-drain.h"

typedef struct {
	unsigned removed;   /* IPv6 addresses removed */
	unsigned sent;      /* MLDv2 reports the kernel sent meanwhile */
	int v1;             /* MLDv1 set until mg_mld_restore() */
	long waited_ms;     /* from the first removal to the end of the wait */
	MgMldDrainStep end; /* how the wait ended */
} MgMldLeave;

/* 0, or -1 with errno: @iface unknown, or no netlink socket. The
 * interface's report interval is lowered to 1 ms for the wait and always
 * put back; then the interface is set to MLDv1 (force_mld_version 1, if
 * it was 0), so that the groups NetworkManager's next link-local address
 * joins meanwhile leave no record behind either. */
int mg_mld_leave(const char *iface, MgMldLeave *out);

/* After the link went down (down event), or at the latest at the next
 * pre-up: MLDv2 again (force_mld_version 1 back to 0). */
void mg_mld_restore(const char *iface);
