/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What mg-cmd-status.c and mg-status-fields.c share. */
#pragma once

#include <json-glib/json-glib.h>

#include "mg-cli-fields.h"

G_BEGIN_DECLS

/* The columns a bare `macguise status` shows. */
#define MG_STATUS_TABLE_FIELDS "id,type,mode,rotate,address,vendor,next,check"

extern const MgCliField mg_status_fields[];
extern const guint mg_status_n_fields;

/* A profile named on the command line, for people. */
void mg_status_print_detail(JsonObject *o);

G_END_DECLS
