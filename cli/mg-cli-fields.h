/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nmcli's output conventions for scripts: -f FIELDS picks and orders the
 * columns, -t prints them terse (no header, values separated by ':', with
 * ':' and '\' escaped by '\' unless -e no), -g FIELDS is -t -f FIELDS for one value or
 * a few, without field names in a record view. Rows are the JSON objects
 * the command builds for --json, so every form says the same. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* A field's value in @row: with @terse as a script reads it (stable words,
 * ISO 8601 times, "" for none), else as people read it. */
typedef char *(*MgCliFieldGet)(JsonObject *row, gboolean terse);

typedef struct {
	const char *name;   /* as -f names it */
	const char *header; /* untranslated; N_() marks it */
	const char *member; /* the row's string member it shows, or NULL: */
	MgCliFieldGet get;  /* what makes its value */
} MgCliField;

typedef struct {
	gboolean terse;   /* -t */
	char *fields;     /* -f: names separated by commas, or "all" */
	char *get_values; /* -g */
	char *escape;     /* -e: "yes" (the default) or "no" */
} MgCliOutput;

/* The four options, for a command's GOptionEntry list. */
#define MG_CLI_OUTPUT_OPTIONS(out)                                                                 \
	{ "terse",                                                                                 \
	  't',                                                                                     \
	  0,                                                                                       \
	  G_OPTION_ARG_NONE,                                                                       \
	  &(out)->terse,                                                                           \
	  N_("Terse output for scripts: no header, values separated by ':'"),                      \
	  NULL },                                                                                  \
	    { "fields",                                                                            \
	      'f',                                                                                 \
	      0,                                                                                   \
	      G_OPTION_ARG_STRING,                                                                 \
	      &(out)->fields,                                                                      \
	      N_("The fields to print, separated by commas, or all"),                              \
	      N_("FIELDS") },                                                                      \
	    { "get-values",                                                                        \
	      'g',                                                                                 \
	      0,                                                                                   \
	      G_OPTION_ARG_STRING,                                                                 \
	      &(out)->get_values,                                                                  \
	      N_("Print only these fields' values, terse (as -t -f FIELDS)"),                      \
	      N_("FIELDS") },                                                                      \
	{                                                                                          \
		"escape", 'e', 0, G_OPTION_ARG_STRING, &(out)->escape,                             \
		    N_("Escape ':' and '\\' in terse values (yes, the default, or no)"),           \
		    N_("yes|no")                                                                   \
	}

/* After parsing: -g with -f, or any of them with @json, is a usage error
 * (printed; FALSE). */
gboolean mg_cli_output_check(const char *command, MgCliOutput *out, gboolean json);
void mg_cli_output_clear(MgCliOutput *out);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(MgCliOutput, mg_cli_output_clear)
/* -t, -f or -g was given. */
gboolean mg_cli_output_chosen(const MgCliOutput *out);

/* The fields @out names ("all": every one; none named: @defaults, names
 * separated by commas), in that order; NULL, with an error listing the
 * fields there are, for an unknown name. */
GPtrArray *mg_cli_fields_select(const MgCliField *fields,
				guint n_fields,
				const char *defaults,
				const MgCliOutput *out,
				GError **error);
/* @rows (JSON objects) as a table, or one terse line each. */
void mg_cli_fields_print_table(GPtrArray *chosen, JsonArray *rows, const MgCliOutput *out);
/* One row as a record: "NAME: value" lines, "name:value" terse, or the
 * values alone with -g. */
void mg_cli_fields_print_record(GPtrArray *chosen, JsonObject *row, const MgCliOutput *out);
/* @o's string member @member, or NULL (none, or null). */
const char *mg_cli_member_string(JsonObject *o, const char *member);

G_END_DECLS
