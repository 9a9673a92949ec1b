/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Plain C, for the libc-only front of the dispatcher hook: when the
 * pre-down step has waited long enough for the kernel's MLDv2 "left group"
 * reports. Linux keeps such a record until it has been sent as often as
 * the robustness variable says (2 unless a querier said more); a record
 * still kept when the link goes down is sent when it comes up again, by
 * then from the next session's address. The hook removes the interface's
 * IPv6 addresses while the link is up and waits here, counting the reports
 * the kernel says it sent (Icmp6OutMLDv2Reports) since the last removal. */

/* Quiet this long after the last report: no record is left to send (the
 * hook sets the interval between reports to 1 ms meanwhile). */
#define MG_MLD_DRAIN_QUIET_MS 20
/* Nothing sent this long after the removal: the interface speaks MLDv1
 * (a querier, or force_mld_version), which says "done" at once and keeps
 * no record. */
#define MG_MLD_DRAIN_SILENT_MS 60
/* The bound on what a deactivation waits. */
#define MG_MLD_DRAIN_MAX_MS 300

typedef enum {
	MG_MLD_DRAIN_WAIT = 0,
	MG_MLD_DRAIN_DONE,         /* every record sent as often as it is kept */
	MG_MLD_DRAIN_NOTHING_SENT, /* nothing was kept to send */
	MG_MLD_DRAIN_TIMEOUT       /* the bound: go on regardless */
} MgMldDrainStep;

/* @elapsed_ms since the last address was removed, @sent reports since
 * then, @quiet_ms since the last of them (or since the removal), @qrv the
 * robustness variable (net.ipv6.mld_qrv; below 1 counts as the default 2). */
MgMldDrainStep mg_mld_drain_step(long elapsed_ms, unsigned sent, long quiet_ms, unsigned qrv);
