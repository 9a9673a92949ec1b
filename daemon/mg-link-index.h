/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The link-check index macguised keeps for the pre-up hook: the profiles
 * the hook has nothing to check for, so that it leaves without a D-Bus
 * round trip (the file's form: mg-link-check-index-write.h). It lists only
 * those macguise leaves alone for good: the hook asks about the others, so
 * a profile never misses a check for an index not yet rewritten. It is
 * rewritten when that set can change (a profile added, changed or removed,
 * handed back or found set by hand, a reload), once events settle. */
#pragma once

#include "mg-profile-record.h"

G_BEGIN_DECLS

/* Puts into @uuids the UUIDs of the profiles @owner leaves alone for good
 * (strings that live until the index is written); FALSE: no profile is
 * checked at all (the link check is off), whatever @uuids holds. */
typedef gboolean (*MgLinkIndexListFunc)(gpointer owner, GPtrArray *uuids);

typedef struct _MgLinkIndex MgLinkIndex;

/* Written into @runtime_dir (NULL: never written); which profiles it lists
 * is kept in @records (their `published`), which outlive the index. */
MgLinkIndex *mg_link_index_new(const char *runtime_dir,
			       MgProfileRecords *records,
			       MgLinkIndexListFunc list,
			       gpointer owner);
/* Removes the index: a stale one would outlive macguised (the hook then
 * asks over D-Bus). */
void mg_link_index_free(MgLinkIndex *index);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MgLinkIndex, mg_link_index_free)

/* Rewrites the index once events settle: a burst of changes costs one
 * rewrite. */
void mg_link_index_update_soon(MgLinkIndex *index);
/* Whether @owner leaves profile @uuid alone for good is now @left_alone:
 * the index is rewritten if it no longer lists it right. */
void mg_link_index_check(MgLinkIndex *index, const char *uuid, gboolean left_alone);

G_END_DECLS
