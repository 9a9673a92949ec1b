/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The link-check index macguised keeps for the pre-up hook
 * (mg-service-index.c, mg-link-check-index-write.h). */
#pragma once

#include <NetworkManager.h>

#include "mg-service-type.h"

G_BEGIN_DECLS

/* Rewrites the index once events settle. */
void mg_service_schedule_publish(MgService *self);
/* @c changed: the index is rewritten if it no longer lists it right. */
void mg_service_index_check(MgService *self, NMConnection *c);

G_END_DECLS
