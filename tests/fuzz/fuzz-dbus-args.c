/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer: macguised's D-Bus arguments. The input is taken as the
 * serialised body of a ReportVerdict call, (sssssu), as GDBus hands it over
 * from the wire (untrusted, possibly not in normal form), and each string
 * goes through the checks macguised makes before it acts; the profile names
 * of Rotate and GetLinkCheck, (s), are taken the same way. */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "mg-state.h"
#include "mg-paths.h"
#include "mg-verdict.h"

int LLVMFuzzerTestOneInput(const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput(const guint8 *data, size_t size)
{
	g_autoptr(GBytes) bytes = g_bytes_new(data, size);
	g_autoptr(GVariant) report =
	    g_variant_ref_sink(g_variant_new_from_bytes(G_VARIANT_TYPE("(sssssu)"), bytes, FALSE));
	g_autoptr(GVariant) name =
	    g_variant_ref_sink(g_variant_new_from_bytes(G_VARIANT_TYPE("(s)"), bytes, FALSE));
	const char *profile, *iface, *address, *verdict_text, *evidence, *uuid;
	g_autoptr(GError) error = NULL;
	MgVerdict verdict;
	guint duration;
	MgMac mac;

	/* Whatever the bytes, GVariant gives well-typed values (defaults for
	 * what does not parse); the checks must hold for all of them. */
	g_variant_get(report,
		      "(&s&s&s&s&su)",
		      &profile,
		      &iface,
		      &address,
		      &verdict_text,
		      &evidence,
		      &duration);
	if (mg_verdict_report_check(
		iface, address, verdict_text, evidence, &verdict, &mac, &error)) {
		char text[MG_MAC_STRLEN];
		if (verdict == MG_VERDICT_NONE || !mg_evidence_is_valid(evidence) ||
		    strchr(iface, '/') != NULL)
			__builtin_trap();
		mg_mac_format(&mac, text);
	} else if (error == NULL ||
		   !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT)) {
		__builtin_trap();
	}
	g_variant_get(name, "(&s)", &uuid);
	(void)mg_uuid_is_valid(uuid);
	return 0;
}
