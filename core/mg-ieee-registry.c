/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-ieee-registry"

#include "config.h"

#include "mg-ieee-registry.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-error.h"

struct _MgIeeeRegistry {
	GHashTable *blocks; /* "bits:HEX" -> organisation */
	GHashTable *counts; /* organisation -> number of blocks */
};

MgIeeeRegistry *
mg_ieee_registry_new(void)
{
	MgIeeeRegistry *reg = g_new0(MgIeeeRegistry, 1);
	reg->blocks = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	reg->counts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	return reg;
}

void
mg_ieee_registry_free(MgIeeeRegistry *reg)
{
	if (reg == NULL)
		return;
	g_hash_table_unref(reg->blocks);
	g_hash_table_unref(reg->counts);
	g_free(reg);
}

static char *
mg_ieee_key(const MgPrefix *prefix)
{
	g_autofree char *hex = mg_prefix_to_string(prefix);
	return g_strdup_printf("%u:%s", (guint)prefix->bits, hex);
}

/* Reads one RFC 4180 field starting at *p; leaves *p after its separator. */
static char *
mg_csv_field(const char **p, const char *end, gboolean *last)
{
	GString *out = g_string_new(NULL);
	const char *s = *p;

	if (s < end && *s == '"') {
		s++;
		while (s < end) {
			if (*s == '"' && s + 1 < end && s[1] == '"') {
				g_string_append_c(out, '"');
				s += 2;
			} else if (*s == '"') {
				s++;
				break;
			} else {
				g_string_append_c(out, *s++);
			}
		}
	}
	while (s < end && *s != ',' && *s != '\n' && *s != '\r')
		g_string_append_c(out, *s++);
	*last = s >= end || *s != ',';
	if (s < end && *s == ',')
		s++;
	*p = s;
	return g_string_free(out, FALSE);
}

gboolean
mg_ieee_registry_add_csv(
    MgIeeeRegistry *reg, const char *text, gsize len, MgBlockSize bits, GError **error)
{
	const char *p = text;
	const char *end = text + len;
	guint line = 0;

	while (p < end) {
		g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func(g_free);
		gboolean last = FALSE;
		MgPrefix prefix;
		const char *org;

		line++;
		while (!last)
			g_ptr_array_add(fields, mg_csv_field(&p, end, &last));
		while (p < end && (*p == '\r' || *p == '\n'))
			p++;
		if (line == 1)
			continue; /* the header */
		if (fields->len < 3)
			continue; /* a blank line, or a truncated one at the end */
		if (!mg_prefix_parse(g_ptr_array_index(fields, 1), &prefix, NULL) ||
		    (bits != 0 && prefix.bits != bits)) {
			g_set_error(error,
				    MG_ERROR,
				    MG_ERROR_REGISTRY,
				    _("registry line %u: '%s' is not a %u-bit assignment"),
				    line,
				    (const char *)g_ptr_array_index(fields, 1),
				    (guint)bits);
			return FALSE;
		}
		org = g_strstrip((char *)g_ptr_array_index(fields, 2));
		g_hash_table_replace(
		    reg->counts,
		    g_strdup(org),
		    GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(reg->counts, org)) + 1));
		g_hash_table_replace(reg->blocks, mg_ieee_key(&prefix), g_strdup(org));
	}
	return TRUE;
}

MgIeeeRegistry *
mg_ieee_registry_new_from_dir(const char *dir, GError **error)
{
	static const struct {
		const char *file;
		MgBlockSize bits;
	} files[] = {
		{ "oui.csv", MG_BLOCK_MA_L },
		{ "mam.csv", MG_BLOCK_MA_M },
		{ "oui36.csv", MG_BLOCK_MA_S },
	};
	g_autoptr(MgIeeeRegistry) reg = mg_ieee_registry_new();

	for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *path = g_build_filename(dir, files[i].file, NULL);
		g_autofree char *text = NULL;
		gsize len = 0;
		if (!g_file_get_contents(path, &text, &len, error) ||
		    !mg_ieee_registry_add_csv(reg, text, len, files[i].bits, error)) {
			g_prefix_error(error, _("cannot read the IEEE registry %s: "), path);
			return NULL;
		}
	}
	return g_steal_pointer(&reg);
}

MgIeeeRegistry *
mg_ieee_registry_new_from_file(const char *path, GError **error)
{
	g_autoptr(MgIeeeRegistry) reg = mg_ieee_registry_new();
	g_autofree char *text = NULL;
	gsize len = 0;

	if (!g_file_get_contents(path, &text, &len, error) ||
	    !mg_ieee_registry_add_csv(reg, text, len, 0, error)) {
		g_prefix_error(error, _("cannot read the IEEE registry %s: "), path);
		return NULL;
	}
	return g_steal_pointer(&reg);
}

const char *
mg_ieee_registry_lookup_prefix(MgIeeeRegistry *reg, const MgPrefix *prefix)
{
	g_autofree char *key = mg_ieee_key(prefix);
	return g_hash_table_lookup(reg->blocks, key);
}

const char *
mg_ieee_registry_lookup_mac(MgIeeeRegistry *reg, const MgMac *mac, MgPrefix *prefix)
{
	static const MgBlockSize order[] = { MG_BLOCK_MA_S, MG_BLOCK_MA_M, MG_BLOCK_MA_L };

	for (guint i = 0; i < G_N_ELEMENTS(order); i++) {
		MgPrefix p = { mg_mac_to_u64(mac) >> (48 - order[i]), order[i] };
		const char *org = mg_ieee_registry_lookup_prefix(reg, &p);
		if (org != NULL) {
			if (prefix != NULL)
				*prefix = p;
			return org;
		}
	}
	return NULL;
}

guint
mg_ieee_registry_count_blocks(MgIeeeRegistry *reg, const char *organization)
{
	return GPOINTER_TO_UINT(g_hash_table_lookup(reg->counts, organization));
}

guint
mg_ieee_registry_size(MgIeeeRegistry *reg)
{
	return g_hash_table_size(reg->blocks);
}
