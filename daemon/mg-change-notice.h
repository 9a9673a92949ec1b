/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which profiles' status changed, told once the main loop is idle: a burst
 * of changes is one notice ("profiles-changed" on D-Bus). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Tells @owner the UUIDs of the profiles that changed. */
typedef void (*MgChangeNoticeFunc)(const char *const *uuids, gpointer owner);

typedef struct _MgChangeNotice MgChangeNotice;

MgChangeNotice *mg_change_notice_new(MgChangeNoticeFunc tell, gpointer owner);
/* A notice not yet told is dropped. */
void mg_change_notice_free(MgChangeNotice *n);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgChangeNotice, mg_change_notice_free)

/* The status of @uuid changed: told once the main loop is idle, with every
 * profile that changed meanwhile. */
void mg_change_notice_add(MgChangeNotice *n, const char *uuid);

G_END_DECLS
