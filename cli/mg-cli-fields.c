/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguise"

#include "config.h"

#include <glib/gi18n.h>

#include "mg-cli-fields.h"
#include "mg-cli.h"

gboolean
mg_cli_output_check(const char *command, MgCliOutput *out, gboolean json)
{
	if (out->get_values != NULL && out->fields != NULL) {
		mg_cli_usage_error(command, _("-g names its fields itself: not with -f"));
		return FALSE;
	}
	if (json && (mg_cli_output_chosen(out) || out->escape != NULL)) {
		mg_cli_usage_error(command, _("--json does not go with -t, -f, -g or -e"));
		return FALSE;
	}
	if (out->escape != NULL && g_strcmp0(out->escape, "yes") != 0 &&
	    g_strcmp0(out->escape, "no") != 0) {
		mg_cli_usage_error(command, _("-e takes yes or no, not '%s'"), out->escape);
		return FALSE;
	}
	if (out->get_values != NULL)
		out->terse = TRUE;
	return TRUE;
}

void
mg_cli_output_clear(MgCliOutput *out)
{
	g_clear_pointer(&out->fields, g_free);
	g_clear_pointer(&out->get_values, g_free);
	g_clear_pointer(&out->escape, g_free);
}

gboolean
mg_cli_output_chosen(const MgCliOutput *out)
{
	return out->terse || out->fields != NULL || out->get_values != NULL;
}

static char *
mg_cli_fields_known(const MgCliField *fields, guint n_fields)
{
	GString *known = g_string_new(NULL);
	for (guint i = 0; i < n_fields; i++)
		g_string_append_printf(known, "%s%s", i > 0 ? ", " : "", fields[i].name);
	return g_string_free(known, FALSE);
}

GPtrArray *
mg_cli_fields_select(const MgCliField *fields,
		     guint n_fields,
		     const char *defaults,
		     const MgCliOutput *out,
		     GError **error)
{
	const char *list = out->get_values != NULL ? out->get_values
			   : out->fields != NULL   ? out->fields
						   : defaults;
	g_autoptr(GPtrArray) chosen = g_ptr_array_new();
	g_auto(GStrv) names = g_strsplit(list, ",", -1);

	for (guint i = 0; g_strcmp0(list, "all") == 0 && i < n_fields; i++)
		g_ptr_array_add(chosen, (gpointer)&fields[i]);
	for (guint j = 0; g_strcmp0(list, "all") != 0 && names[j] != NULL; j++) {
		const char *name = g_strstrip(names[j]);
		guint i = 0;
		while (i < n_fields && g_ascii_strcasecmp(fields[i].name, name) != 0)
			i++;
		if (i == n_fields) {
			g_autofree char *known = mg_cli_fields_known(fields, n_fields);
			g_set_error(error,
				    G_OPTION_ERROR,
				    G_OPTION_ERROR_BAD_VALUE,
				    _("no field '%s' (the fields: %s, or all)"),
				    name,
				    known);
			return NULL;
		}
		g_ptr_array_add(chosen, (gpointer)&fields[i]);
	}
	return g_steal_pointer(&chosen);
}

/* A terse value: ':' and '\' escaped (unless -e no), and a line break, which
 * would split the record, as "\n". */
static void
mg_cli_append_terse(GString *line, const char *value, const MgCliOutput *out)
{
	gboolean escape = g_strcmp0(out->escape, "no") != 0;

	for (const char *c = value; *c != '\0'; c++) {
		if (*c == '\n')
			g_string_append(line, "\\n");
		else if (escape && (*c == ':' || *c == '\\'))
			g_string_append_printf(line, "\\%c", *c);
		else
			g_string_append_c(line, *c);
	}
}

const char *
mg_cli_member_string(JsonObject *o, const char *member)
{
	JsonNode *n = json_object_get_member(o, member);
	return n != NULL && JSON_NODE_HOLDS_VALUE(n) ? json_node_get_string(n) : NULL;
}

static GPtrArray *
mg_cli_fields_cells(GPtrArray *chosen, JsonObject *row, gboolean terse)
{
	GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < chosen->len; i++) {
		const MgCliField *f = g_ptr_array_index(chosen, i);
		char *value = f->member != NULL ? g_strdup(mg_cli_member_string(row, f->member))
						: f->get(row, terse);
		g_ptr_array_add(cells, value != NULL ? value : g_strdup(terse ? "" : "—"));
	}
	return cells;
}

/* Rows of cells aligned in columns, as people read tables. */
static void
mg_cli_print_aligned(GPtrArray *rows)
{
	g_autofree guint *widths = NULL;
	guint columns = rows->len > 0 ? ((GPtrArray *)g_ptr_array_index(rows, 0))->len : 0;

	widths = g_new0(guint, columns);
	for (guint r = 0; r < rows->len; r++) {
		GPtrArray *row = g_ptr_array_index(rows, r);
		for (guint i = 0; i < row->len; i++)
			widths[i] =
			    MAX(widths[i], (guint)g_utf8_strlen(g_ptr_array_index(row, i), -1));
	}
	for (guint r = 0; r < rows->len; r++) {
		GPtrArray *row = g_ptr_array_index(rows, r);
		g_autoptr(GString) line = g_string_new(NULL);
		for (guint i = 0; i < row->len; i++) {
			const char *cell = g_ptr_array_index(row, i);
			g_string_append(line, cell);
			for (glong pad = (glong)widths[i] + 2 - g_utf8_strlen(cell, -1);
			     i + 1 < row->len && pad > 0;
			     pad--)
				g_string_append_c(line, ' ');
		}
		g_print("%s\n", line->str);
	}
}

void
mg_cli_fields_print_table(GPtrArray *chosen, JsonArray *rows, const MgCliOutput *out)
{
	g_autoptr(GPtrArray) table = NULL;
	GPtrArray *head;

	for (guint r = 0; out->terse && r < json_array_get_length(rows); r++) {
		g_autoptr(GPtrArray) cells =
		    mg_cli_fields_cells(chosen, json_array_get_object_element(rows, r), TRUE);
		g_autoptr(GString) line = g_string_new(NULL);
		for (guint i = 0; i < cells->len; i++) {
			if (i > 0)
				g_string_append_c(line, ':');
			mg_cli_append_terse(line, g_ptr_array_index(cells, i), out);
		}
		g_print("%s\n", line->str);
	}
	if (out->terse)
		return;
	table = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	head = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < chosen->len; i++)
		g_ptr_array_add(head, g_strdup(_(((const MgCliField *)chosen->pdata[i])->header)));
	g_ptr_array_add(table, head);
	for (guint r = 0; r < json_array_get_length(rows); r++)
		g_ptr_array_add(
		    table,
		    mg_cli_fields_cells(chosen, json_array_get_object_element(rows, r), FALSE));
	mg_cli_print_aligned(table);
}

void
mg_cli_fields_print_record(GPtrArray *chosen, JsonObject *row, const MgCliOutput *out)
{
	g_autoptr(GPtrArray) cells = mg_cli_fields_cells(chosen, row, out->terse);

	for (guint i = 0; i < chosen->len; i++) {
		const MgCliField *f = g_ptr_array_index(chosen, i);
		g_autoptr(GString) line = g_string_new(NULL);
		if (!out->terse) {
			g_autofree char *label = g_strdup_printf("%s:", _(f->header));
			g_print("%-15s %s\n", label, (const char *)g_ptr_array_index(cells, i));
			continue;
		}
		if (out->get_values == NULL) /* -g: the values alone */
			g_string_append_printf(line, "%s:", f->name);
		mg_cli_append_terse(line, g_ptr_array_index(cells, i), out);
		g_print("%s\n", line->str);
	}
}
