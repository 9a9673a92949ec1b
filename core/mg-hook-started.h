/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Plain C, for the libc-only front of the pre-up hook too: the environment
 * variable in which the front hands the checker the instant the hook started
 * (CLOCK_MONOTONIC, microseconds), so that the link check's window counts
 * from there. */
#define MG_HOOK_STARTED_ENV "MACGUISE_HOOK_STARTED_US"
