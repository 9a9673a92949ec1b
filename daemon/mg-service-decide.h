/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Each profile's decision, carried out (mg-service-decide.c). */
#pragma once

#include <NetworkManager.h>

#include "mg-profile-record.h"
#include "mg-reconcile.h"
#include "mg-service-type.h"

G_BEGIN_DECLS

/* Profiles with a write decided and not yet made, at most: the addresses
 * of those beyond MG_WRITE_PIPELINE_SLOTS are drawn and recorded ahead, so
 * that one state save serves many writes. At least MG_SERVICE_MAX_AHEAD,
 * and an eighth of the profiles: a save writes the whole state, so with a
 * fixed number per save a large fleet's saves would cost in proportion to
 * the square of its size. */
#define MG_SERVICE_MAX_AHEAD 64
guint mg_service_max_ahead(MgService *self);

/* What a decision reads about the profile, but its link. */
/* Whether the profile of @r counts as up: it is, or a restarted
 * NetworkManager may be taking it up again (taking_up, while it starts). */
gboolean mg_service_is_up(MgService *self, const MgProfileRecord *r);
void mg_service_snapshot(MgService *self,
			 NMConnection *connection,
			 MgDeviceClass device_class,
			 const MgPolicy *policy,
			 MgSnapshot *snap);
void mg_service_evaluate(MgService *self, NMRemoteConnection *rc, MgEvent event);
void mg_service_evaluate_all(MgService *self, MgEvent event);
/* The wall-clock timer's callback (mg-wall-timer.h). */
void mg_service_timer_fired(gboolean clock_set, gpointer user_data);
/* A write is over (the service's write_over): @rc (if given) is decided
 * again, then the profiles whose writes waited for room. */
void mg_service_write_over(MgService *self, NMRemoteConnection *rc);

G_END_DECLS
