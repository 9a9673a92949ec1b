/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "mg-catalogue.h"

G_BEGIN_DECLS

/* Exit codes, documented in macguise(1); 8 and 10 are nmcli's, so that a
 * script can tell "NetworkManager is not running" and "no such profile"
 * from other failures the way it does with nmcli. */
enum {
	MG_EXIT_OK = 0,
	MG_EXIT_FAILURE = 1,
	MG_EXIT_USAGE = 2,
	MG_EXIT_NM_NOT_RUNNING = 8,
	MG_EXIT_NOT_FOUND = 10,
};

typedef int (*MgCliCommandFunc)(int argc, char **argv);

typedef struct {
	const char *name;
	MgCliCommandFunc run;
	const char *summary; /* untranslated; N_() marks it */
} MgCliCommand;

int mg_cmd_generate(int argc, char **argv);
int mg_cmd_lookup(int argc, char **argv);
int mg_cmd_vendors(int argc, char **argv);
int mg_cmd_status(int argc, char **argv);
int mg_cmd_policy(int argc, char **argv);
int mg_cmd_rotate(int argc, char **argv);
int mg_cmd_audit(int argc, char **argv);
int mg_cmd_harden(int argc, char **argv);
int mg_cmd_defaults(int argc, char **argv);

/* KEY=VALUE arguments (KEY with or without "macguise."), each checked with
 * the parser macguised uses before anything is written: @keys gets
 * @prefix + KEY, @values the value in its canonical form, or NULL for
 * "KEY=" (back to the default). A bad one is printed as a usage error. */
gboolean mg_cli_parse_assignments(
    const char *command, char **args, const char *prefix, GPtrArray *keys, GPtrArray *values);

/* Parses a command's options; on a usage error prints one line and returns
 * FALSE (the command then exits with MG_EXIT_USAGE). */
gboolean mg_cli_parse_options(const char *command,
			      const char *parameter_string,
			      const char *summary,
			      const GOptionEntry *entries,
			      int *argc,
			      char ***argv);
/* Errors are also printed as JSON on standard output (the command line has
 * --json); see mg_cli_failure. */
void mg_cli_set_json_errors(gboolean json);
int mg_cli_usage_error(const char *command, const char *format, ...) G_GNUC_PRINTF(2, 3);
int mg_cli_failure(const char *command, const GError *error);

/* The built-in catalogue, loaded once per process. */
MgCatalogue *mg_cli_catalogue(GError **error);
gboolean mg_cli_parse_class(const char *command, const char *text, MgDeviceClass *device_class);

void mg_cli_print_json(JsonNode *node);
/* @member is @value, or null where @value is NULL. */
void mg_cli_json_set_string_or_null(JsonObject *o, const char *member, const char *value);
JsonNode *mg_cli_class_json(MgDeviceClass classes);
/* YYYY-MM-DD (UTC) of Unix seconds, as the catalogue dates blocks. */
char *mg_cli_day_text(gint64 when);

G_END_DECLS
