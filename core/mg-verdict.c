/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-verdict.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-error.h"
#include "mg-paths.h"

static const char *const mg_verdict_names[] = { "none", "clean", "conflict", "unchecked" };

static const struct {
	const char *name;
	MgProbeKinds kind;
} mg_probe_names[] = {
	{ "passive", MG_PROBE_PASSIVE },
	{ "ipv6", MG_PROBE_IPV6 },
	{ "arp", MG_PROBE_ARP },
};

const char *
mg_verdict_to_string(MgVerdict verdict)
{
	g_return_val_if_fail((guint)verdict < G_N_ELEMENTS(mg_verdict_names), "none");
	return mg_verdict_names[verdict];
}

gboolean
mg_verdict_parse(const char *text, MgVerdict *verdict)
{
	for (guint i = MG_VERDICT_CLEAN; i < G_N_ELEMENTS(mg_verdict_names); i++) {
		if (g_strcmp0(text, mg_verdict_names[i]) == 0) {
			*verdict = (MgVerdict)i;
			return TRUE;
		}
	}
	return FALSE;
}

gboolean
mg_evidence_is_valid(const char *text)
{
	if (text == NULL || strlen(text) > MG_EVIDENCE_MAX_LEN || !g_utf8_validate(text, -1, NULL))
		return FALSE;
	for (const char *p = text; *p != '\0'; p = g_utf8_next_char(p)) {
		if (g_unichar_iscntrl(g_utf8_get_char(p)))
			return FALSE;
	}
	return TRUE;
}

char *
mg_evidence_sanitize(const char *text)
{
	g_autofree char *valid = g_utf8_make_valid(text != NULL ? text : "", -1);
	GString *s = g_string_new(NULL);

	for (const char *p = valid; *p != '\0'; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);
		char buf[6];
		gint n = g_unichar_to_utf8(g_unichar_iscntrl(c) ? ' ' : c, buf);
		if (s->len + (gsize)n > MG_EVIDENCE_MAX_LEN)
			break;
		g_string_append_len(s, buf, n);
	}
	return g_string_free(s, FALSE);
}

gboolean
mg_probe_kinds_parse(const char *text, MgProbeKinds *kinds, GError **error)
{
	g_autofree char *trimmed = g_strstrip(g_strdup(text != NULL ? text : ""));
	g_auto(GStrv) words = NULL;
	MgProbeKinds found = 0;

	if (g_strcmp0(trimmed, "none") == 0) {
		*kinds = 0;
		return TRUE;
	}
	words = g_strsplit_set(trimmed, ";,", -1);
	for (guint i = 0; words[i] != NULL; i++) {
		const char *w = g_strstrip(words[i]);
		gboolean known = FALSE;
		if (w[0] == '\0')
			continue;
		for (guint j = 0; j < G_N_ELEMENTS(mg_probe_names); j++) {
			if (g_strcmp0(w, mg_probe_names[j].name) == 0) {
				found |= mg_probe_names[j].kind;
				known = TRUE;
			}
		}
		if (!known) {
			g_set_error(error,
				    MG_ERROR,
				    MG_ERROR_CONFIG,
				    _("'%s' is not a probe; the probes are passive, ipv6 and arp, "
				      "or none"),
				    w);
			return FALSE;
		}
	}
	if (found == 0) {
		g_set_error_literal(error,
				    MG_ERROR,
				    MG_ERROR_CONFIG,
				    _("no probe named; say none to turn the link check off"));
		return FALSE;
	}
	*kinds = found;
	return TRUE;
}

char *
mg_probe_kinds_to_string(MgProbeKinds kinds)
{
	GString *s = g_string_new(NULL);

	for (guint j = 0; j < G_N_ELEMENTS(mg_probe_names); j++) {
		if (kinds & mg_probe_names[j].kind) {
			if (s->len > 0)
				g_string_append_c(s, ';');
			g_string_append(s, mg_probe_names[j].name);
		}
	}
	if (s->len == 0)
		g_string_append(s, "none");
	return g_string_free(s, FALSE);
}

gboolean
mg_verdict_report_check(const char *iface,
			const char *address,
			const char *verdict_text,
			const char *evidence,
			MgVerdict *verdict,
			MgMac *mac,
			GError **error)
{
	MgVerdict v;
	MgMac m;

	if (!mg_verdict_parse(verdict_text, &v)) {
		g_set_error_literal(error,
				    G_IO_ERROR,
				    G_IO_ERROR_INVALID_ARGUMENT,
				    "the verdict is not clean, conflict or unchecked");
		return FALSE;
	}
	if (!mg_iface_name_is_valid(iface)) {
		g_set_error_literal(error,
				    G_IO_ERROR,
				    G_IO_ERROR_INVALID_ARGUMENT,
				    "the interface name is malformed");
		return FALSE;
	}
	if (!mg_mac_parse(address, &m, NULL)) {
		g_set_error_literal(error,
				    G_IO_ERROR,
				    G_IO_ERROR_INVALID_ARGUMENT,
				    "the address is not a MAC address");
		return FALSE;
	}
	if (!mg_evidence_is_valid(evidence)) {
		g_set_error_literal(
		    error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "the evidence is malformed");
		return FALSE;
	}
	*verdict = v;
	*mac = m;
	return TRUE;
}
