/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-nm-leases.h"
#include "mg-write-check.h"

#include "mg-service-writes.h"

#include "mg-service-core.h"

void
mg_write_free(MgWrite *w)
{
	g_object_unref(w->self);
	g_clear_object(&w->rc);
	g_free(w->uuid);
	g_free(w->id);
	g_free(w->basis);
	g_free(w->hardened);
	g_free(w);
}

/* @w's profile's record; NULL if the profile left since @w was decided
 * (one added again with the same UUID meanwhile is another profile, whose
 * record @w's end must not touch). */
static MgProfileRecord *
mg_service_write_record(MgService *self, const MgWrite *w)
{
	return mg_profile_records_get_since(self->records, w->uuid, w->departures);
}

/* @w's write is no longer under way. */
static void
mg_service_write_landed(MgService *self, MgWrite *w)
{
	mg_profile_records_landed(self->records, w->uuid);
}

void
mg_service_write_ended(MgService *self, MgWrite *w)
{
	mg_service_write_landed(self, w);
	mg_write_pipeline_finished(self->pipeline);
}

/* A write that did not happen: a new address it carried, recorded already,
 * is the one the next write gives (the history is not filled again). */
void
mg_service_write_superseded(MgService *self, MgWrite *w)
{
	MgProfileRecord *r = mg_service_write_record(self, w);

	if (r == NULL)
		return;
	if (w->assign) {
		r->has_drawn = TRUE;
		r->drawn = w->mac;
	}
	g_clear_pointer(&r->reactivate_iface, g_free);
}

/* NetworkManager 1.44's NM_SETTINGS_ERROR_VERSION_ID_MISMATCH, which
 * Debian 12's libnm headers do not name. */
#define MG_NM_SETTINGS_ERROR_VERSION_ID_MISMATCH 8
#if NM_CHECK_VERSION(1, 44, 0)
G_STATIC_ASSERT(MG_NM_SETTINGS_ERROR_VERSION_ID_MISMATCH == NM_SETTINGS_ERROR_VERSION_ID_MISMATCH);
#endif

/* (libnm maps NetworkManager's D-Bus error to its code; the libnm a
 * NetworkManager of 1.44 or later comes with knows it) */
static gboolean
mg_nm_is_version_mismatch(const GError *error)
{
	return g_error_matches(error, NM_SETTINGS_ERROR, MG_NM_SETTINGS_ERROR_VERSION_ID_MISMATCH);
}

void
mg_service_write_failed(MgService *self, MgWrite *w, const GError *error)
{
	MgProfileRecord *r = mg_service_write_record(self, w);
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;

	if (r == NULL)
		return; /* the profile left NetworkManager */
	mg_write_pipeline_note_failure(r, now);
	mg_service_write_superseded(self, w);
	if (w->harden_only && w->unmark) {
		g_warning("profile '%s': cannot remove the mark of an earlier address (trying "
			  "again in %" G_GINT64_FORMAT " s): %s",
			  w->id,
			  r->retry_at - now,
			  error->message);
		return;
	}
	if (w->harden_only) {
		g_warning("profile '%s': cannot write back harden's fixes (trying again in "
			  "%" G_GINT64_FORMAT " s): %s",
			  w->id,
			  r->retry_at - now,
			  error->message);
		return;
	}
	g_warning("profile '%s': cannot write its address (trying again in %" G_GINT64_FORMAT
		  " s): %s",
		  w->id,
		  r->retry_at - now,
		  error->message);
}

static void mg_service_write_settles(MgService *self, MgWrite *w);

/* mode=off: the profile carries `permanent` in place of a macguise
 * address; the address stays in the history, never handed out again. */
static void
mg_service_release_succeeded(MgService *self, MgWrite *w)
{
	MgProfileState *p = mg_state_get_profile(self->rt.state, w->uuid);

	mg_service_write_settles(self, w);
	mg_change_notice_add(self->notice, w->uuid);
	if (p != NULL) {
		p->has_address = FALSE;
		p->pending = FALSE;
		mg_write_pipeline_save_soon(self->pipeline);
	}
	g_message("profile '%s': mode off: the card's own address from its next activation", w->id);
}

/* @w was written. libnm's copy of the profile lags the write: until it
 * shows it, the address there before is not a revert. */
static void
mg_service_write_settles(MgService *self, MgWrite *w)
{
	MgProfileRecord *r = mg_service_write_record(self, w);

	if (r == NULL)
		return;
	mg_profile_record_write_ok(r);
	r->settling = TRUE;
	r->settling_mac = w->mac;
}

static void
mg_service_write_succeeded(MgService *self, MgWrite *w)
{
	MgProfileState *p;
	g_autofree char *digest = mg_state_log_digest(self->rt.state, &w->mac);
	g_autofree char *text = mg_mac_to_string(&w->mac);
	MgProfileRecord *r = mg_service_write_record(self, w);
	gboolean replaces;

	/* (the profile left meanwhile: the state keeps nothing of it; the
	 * address stays in the history) */
	if (r == NULL)
		return;
	p = mg_state_ensure_profile(self->rt.state, w->uuid);
	replaces = p->has_address;

	if (w->hardened != NULL)
		g_message("profile '%s': kept hardened: %s written back", w->id, w->hardened);
	if (w->unmark)
		g_message("profile '%s': the mark of its earlier macguise address removed", w->id);
	if (w->harden_only) {
		mg_profile_record_write_ok(r);
		return;
	}
	if (w->release) {
		mg_service_release_succeeded(self, w);
		return;
	}
	mg_change_notice_add(self->notice, w->uuid);
	mg_service_write_settles(self, w);
	if (!w->assign) {
		g_message("profile '%s': address #%s written again", w->id, digest);
		return;
	}
	mg_state_assign(self->rt.state,
			p,
			&w->mac,
			g_get_real_time() / G_USEC_PER_SEC,
			w->due_at,
			self->rt.boot_id);
	if (!w->for_conflict) {
		/* A rotation starts afresh: earlier conflicts were elsewhere. */
		p->recovery_attempts = 0;
		p->recovery_failed = FALSE;
	}
	/* The earlier address leaves the state file at once; a first one can
	 * wait for the next save (MG_WRITE_PIPELINE_RECORD_DELAY_MS). */
	if (replaces)
		mg_write_pipeline_save_soon(self->pipeline);
	else
		mg_write_pipeline_record_soon(self->pipeline);
	g_message("profile '%s': new address #%s (generation %" G_GUINT64_FORMAT ")",
		  w->id,
		  digest,
		  p->generation);
	/* The new address must not ask the DHCP server for the old one's lease. */
	mg_nm_forget_leases(self->nm_state_dir, w->uuid, w->id);
	g_debug("profile '%s': new address %s", w->id, text);
}

static void
mg_service_reactivate_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(NMActiveConnection) ac =
	    nm_client_activate_connection_finish(NM_CLIENT(source), result, &error);
	if (ac == NULL)
		g_warning("cannot re-activate with the new address: %s", error->message);
}

/* Rotated while up (on request, for a conflict, a spent address, a revert):
 * up again on the same device, so the new MAC takes effect now. */
void
mg_service_reactivate_now(MgService *self, NMRemoteConnection *rc, const char *uuid)
{
	MgProfileRecord *r = mg_profile_records_get(self->records, uuid);
	g_autofree char *iface = r != NULL ? g_steal_pointer(&r->reactivate_iface) : NULL;
	NMDevice *device;

	if (iface == NULL)
		return;
	device = iface[0] != '\0' ? nm_client_get_device_by_iface(self->client, iface) : NULL;
	nm_client_activate_connection_async(
	    self->client, NM_CONNECTION(rc), device, NULL, NULL, mg_service_reactivate_done, NULL);
}

static void mg_service_write_mismatched(MgService *self, MgWrite *w);

void
mg_service_write_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	MgWrite *w = user_data;
	MgService *self = w->self;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) ret =
	    nm_remote_connection_update2_finish(NM_REMOTE_CONNECTION(source), result, &error);

	if (ret == NULL && mg_service_write_put_off(w))
		return;
	mg_service_write_ended(self, w);
	if (ret == NULL && mg_nm_is_version_mismatch(error)) {
		mg_service_write_mismatched(self, w);
		return;
	}
	if (ret == NULL) {
		mg_service_write_failed(self, w, error);
	} else {
		mg_service_write_succeeded(self, w);
		/* (not a profile added again with the UUID meanwhile) */
		if (mg_service_write_record(self, w) != NULL)
			mg_service_reactivate_now(self, NM_REMOTE_CONNECTION(source), w->uuid);
	}
	self->write_over(self, NM_REMOTE_CONNECTION(source));
	mg_write_free(w);
}

gboolean
mg_service_write_put_off(MgWrite *w)
{
	MgService *self = w->self;

	if (nm_client_get_dbus_name_owner(self->client) != NULL)
		return FALSE;
	g_message("profile '%s': NetworkManager is away; written once it is back", w->id);
	mg_service_write_ended(self, w);
	mg_service_write_superseded(self, w);
	mg_service_write_still_due(self, w);
	self->write_over(self, NULL);
	mg_write_free(w);
	return TRUE;
}

MgWrite *
mg_write_new(MgService *self, NMConnection *connection, const MgMac *mac)
{
	MgWrite *w = g_new0(MgWrite, 1);
	w->self = g_object_ref(self);
	if (NM_IS_REMOTE_CONNECTION(connection))
		w->rc = g_object_ref(NM_REMOTE_CONNECTION(connection));
	w->uuid = g_strdup(nm_connection_get_uuid(connection));
	w->id = g_strdup(nm_connection_get_id(connection));
	w->mac = *mac;
	return w;
}

/* The pipeline's ops->unrecorded: the save that was to record @job's
 * address failed, so it is not written. */
void
mg_service_write_unrecorded(gpointer owner, gpointer job)
{
	MgService *self = owner;
	MgWrite *w = job;
	MgProfileRecord *r = mg_service_write_record(self, w);

	g_warning("profile '%s': keeps its address until a new one can be recorded "
		  "in the state; trying again later",
		  w->id);
	if (r != NULL)
		g_clear_pointer(&r->reactivate_iface, g_free);
	mg_service_write_landed(self, w); /* (may free the record) */
}

void
mg_service_write_still_due(MgService *self, MgWrite *w)
{
	if (w->assign && mg_service_write_record(self, w) != NULL)
		mg_state_ensure_profile(self->rt.state, w->uuid)->pending = TRUE;
}

NMRemoteConnection *
mg_write_known_copy(const MgWrite *w)
{
	return w->rc != NULL && nm_object_get_client(NM_OBJECT(w->rc)) != NULL ? w->rc : NULL;
}

/* Whether NetworkManager changed @w's profile since libnm last fetched it. */
gboolean
mg_service_write_unsettled(const MgWrite *w)
{
	const MgProfileRecord *r = mg_service_write_record(w->self, w);

	return r != NULL && r->unsettled;
}

/* NetworkManager refused the write: the profile changed after its copy was
 * read. Nothing was written; as for a copy found changed, the decision is
 * made again on the new one, now if libnm has it, else when it does. */
static void
mg_service_write_mismatched(MgService *self, MgWrite *w)
{
	NMRemoteConnection *rc = mg_write_known_copy(w);
	MgWriteVerdict verdict = mg_write_after_refusal(rc != NULL, mg_service_write_unsettled(w));

	g_message("profile '%s': changed by another program as macguise wrote it; nothing "
		  "undone, deciding again",
		  w->id);
	mg_service_write_superseded(self, w);
	mg_service_write_still_due(self, w);
	self->write_over(self, verdict == MG_WRITE_DECIDE_NOW ? rc : NULL);
	mg_write_free(w);
}
