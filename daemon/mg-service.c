/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-service.h"

#include "mg-nm-leases.h"
#include "mg-profile-lock.h"

#include "mg-service-check.h"
#include "mg-service-decide.h"
#include "mg-service-follow.h"
#include "mg-service-policy.h"
#include "mg-service-update.h"
#include "mg-service-writes.h"
#include "mg-service-core.h"

G_DEFINE_TYPE(MgService, mg_service, G_TYPE_OBJECT)

enum { SIGNAL_PROFILES_CHANGED, N_SIGNALS };
static guint mg_service_signals[N_SIGNALS];

static void
mg_service_finalize(GObject *object)
{
	MgService *self = MG_SERVICE(object);

	g_clear_pointer(&self->pipeline, mg_write_pipeline_free);
	g_clear_pointer(&self->follower, mg_follower_free);
	g_clear_pointer(&self->wake, mg_wake_schedule_free);
	g_clear_pointer(&self->index, mg_link_index_free);
	g_clear_pointer(&self->notice, mg_change_notice_free);
	mg_policy_clear(&self->policy_off);
	g_clear_object(&self->client);
	g_clear_pointer(&self->records, mg_profile_records_free);
	/* before the runtime: it draws from its catalogue */
	g_clear_pointer(&self->first_contact, mg_first_contact_keeper_free);
	mg_runtime_clear(&self->rt);
	g_free(self->config_path);
	g_free(self->nm_state_dir);
	G_OBJECT_CLASS(mg_service_parent_class)->finalize(object);
}

static void
mg_service_class_init(MgServiceClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = mg_service_finalize;
	/* The profiles (their UUIDs) whose status changed. */
	mg_service_signals[SIGNAL_PROFILES_CHANGED] = g_signal_new("profiles-changed",
								   G_TYPE_FROM_CLASS(klass),
								   G_SIGNAL_RUN_LAST,
								   0,
								   NULL,
								   NULL,
								   NULL,
								   G_TYPE_NONE,
								   1,
								   G_TYPE_STRV);
}

static void
mg_service_tell_changed(const char *const *uuids, gpointer owner)
{
	g_signal_emit(owner, mg_service_signals[SIGNAL_PROFILES_CHANGED], 0, uuids);
}

static void
mg_service_init(MgService *self)
{
	self->records = mg_profile_records_new(mg_service_watch_free);
	self->follower = mg_follower_new();
	self->notice = mg_change_notice_new(mg_service_tell_changed, self);
	self->write_over = mg_service_write_over;
	mg_policy_init_default(&self->policy_off);
	self->policy_off.mode = MG_MODE_OFF;
}

/* The state directory is writable again: the rotations that waited for a
 * save proceed. */
static void
mg_service_saved_again(gpointer owner)
{
	MgService *self = owner;

	if (self->client != NULL && nm_client_get_nm_running(self->client))
		mg_service_evaluate_all(self, MG_EVENT_TIMER);
}

/* Writes the state could not record: what waited on them goes ahead. */
static void
mg_service_unrecorded_done(gpointer owner)
{
	mg_service_write_over(owner, NULL);
}

static void
mg_service_write_job(gpointer owner, gpointer job)
{
	mg_service_update(job);
}

static const MgWritePipelineOps mg_service_pipeline_ops = {
	.write = mg_service_write_job,
	.unrecorded = mg_service_write_unrecorded,
	.unrecorded_done = mg_service_unrecorded_done,
	.saved_again = mg_service_saved_again,
	.job_free = (GDestroyNotify)mg_write_free,
};

void
mg_service_stop(MgService *self)
{
	/* What waits to be written into profiles stays unwritten: its
	 * addresses are in the history, never given out again. */
	if (!mg_write_pipeline_stop(self->pipeline))
		g_warning("what changed since the last save is lost");
}

void
mg_service_start(MgService *self)
{
	nm_client_new_async(NULL, mg_service_client_ready, g_object_ref(self));
}

MgService *
mg_service_new(const char *state_dir,
	       const char *config_path,
	       const char *runtime_dir,
	       GError **error)
{
	g_autoptr(MgService) self = g_object_new(MG_TYPE_SERVICE, NULL);
	g_autoptr(GError) local = NULL;
	int profile_lock;

	if (!mg_runtime_init(&self->rt, state_dir, config_path, error))
		return NULL;
	self->wake = mg_wake_schedule_new(self->records, mg_service_timer_fired, self, error);
	if (self->wake == NULL)
		return NULL;
	profile_lock = mg_profile_lock_open(state_dir, &local);
	if (profile_lock < 0)
		g_warning("%s; profile writes go ahead without it", local->message);
	self->pipeline =
	    mg_write_pipeline_new(&self->rt, profile_lock, &mg_service_pipeline_ops, self);
	self->config_path = g_strdup(config_path);
	self->index =
	    mg_link_index_new(runtime_dir, self->records, mg_service_list_left_alone, self);
	self->nm_state_dir = g_strdup(MG_NM_DEFAULT_STATE_DIR);
	return g_steal_pointer(&self);
}

void
mg_service_set_nm_state_dir(MgService *self, const char *nm_state_dir)
{
	g_free(self->nm_state_dir);
	self->nm_state_dir = g_strdup(nm_state_dir);
}

void
mg_service_keep_first_contact(MgService *self, const char *nm_conf_dir)
{
	g_clear_pointer(&self->first_contact, mg_first_contact_keeper_free);
	self->first_contact =
	    mg_first_contact_keeper_new(nm_conf_dir, self->rt.catalogue, self->rt.rng);
}
