/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-mld-drain.h"

MgMldDrainStep
mg_mld_drain_step(long elapsed_ms, unsigned sent, long quiet_ms, unsigned qrv)
{
	if (qrv < 1)
		qrv = 2;
	if (sent >= qrv && quiet_ms >= MG_MLD_DRAIN_QUIET_MS)
		return MG_MLD_DRAIN_DONE;
	if (elapsed_ms >= MG_MLD_DRAIN_MAX_MS)
		return MG_MLD_DRAIN_TIMEOUT;
	if (sent == 0 && elapsed_ms >= MG_MLD_DRAIN_SILENT_MS)
		return MG_MLD_DRAIN_NOTHING_SENT;
	return MG_MLD_DRAIN_WAIT;
}
