/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "mg-config.h"

G_BEGIN_DECLS

/* The configuration files as macguised reads them; @problems (an
 * mg_config_problems_new array) gets the lines left out. */
void mg_cli_config_load(MgConfig *config, GPtrArray *problems);
/* Each line left out, on standard error, for people. */
void mg_cli_config_problems_print(const char *command, GPtrArray *problems);
/* [{file, line, section, key, message}] */
JsonArray *mg_cli_config_problems_json(GPtrArray *problems);

G_END_DECLS
