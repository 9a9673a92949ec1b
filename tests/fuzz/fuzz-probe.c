/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer: what the pre-up hook makes of a frame off the link. The first
 * 10 bytes choose the address and IPv4 address under test; the rest is the
 * frame. */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "mg-probe.h"

int LLVMFuzzerTestOneInput(const guint8 *data, size_t size);

#define MG_ALL_FINDINGS                                                                            \
	(MG_FINDING_SAME_SOURCE | MG_FINDING_NA | MG_FINDING_NS_DAD | MG_FINDING_ARP_SAME_HW |     \
	 MG_FINDING_ARP_IP_IN_USE)

int
LLVMFuzzerTestOneInput(const guint8 *data, size_t size)
{
	MgProbeTarget target;
	MgProbeTally tally = { 0 };
	g_autofree char *evidence = NULL;
	MgFindings found;
	MgMac mac;

	if (size < 10)
		return 0;
	memcpy(mac.octet, data, MG_MAC_LEN);
	mg_probe_target_init(&target, &mac);
	mg_probe_target_add_ipv4(&target, data + 6);
	found = mg_probe_classify(&target, data + 10, size - 10);
	g_assert_cmpint(found & ~MG_ALL_FINDINGS, ==, 0);
	/* An answer needs a whole header to be one. */
	if (found & (MG_FINDING_NA | MG_FINDING_NS_DAD))
		g_assert_cmpuint(size - 10, >=, 78);
	if (found & (MG_FINDING_ARP_SAME_HW | MG_FINDING_ARP_IP_IN_USE))
		g_assert_cmpuint(size - 10, >=, 42);
	mg_probe_tally_add(&tally, found);
	mg_probe_tally_verdict(&tally, (MgProbeKinds)(data[0] & MG_PROBE_ALL), 1, 200, &evidence);
	g_assert_true(mg_evidence_is_valid(evidence));
	return 0;
}
