/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include <net/if.h>

#include "mg-harden.h"
#include "mg-stations.h"

#include "mg-service-decide.h"

#include "mg-service-assign.h"
#include "mg-service-nm.h"
#include "mg-service-policy.h"
#include "mg-service-update.h"
#include "mg-service-writes.h"
#include "mg-service-core.h"

/* What quiet hours need to know about an active hotspot: the local time
 * of day and whether any client is associated. Not knowing means busy. */
static void
mg_service_quiet_hours_state(MgService *self, const char *uuid, MgScheduleState *st)
{
	g_autoptr(GDateTime) local = g_date_time_new_now_local();
	g_autoptr(GError) error = NULL;
	const char *iface = mg_service_active_iface(self, uuid);
	unsigned int ifindex = iface != NULL ? if_nametoindex(iface) : 0;
	guint stations = 0;

	st->local_minute = g_date_time_get_hour(local) * 60 + g_date_time_get_minute(local);
	st->idle = FALSE;
	if (ifindex == 0)
		return;
	if (!mg_stations_count((int)ifindex, &stations, &error)) {
		g_debug(
		    "%s: cannot count its clients (%s); taking it as busy", iface, error->message);
		return;
	}
	st->idle = stations == 0;
}

/* A write that returned but that libnm's copy does not show yet (the
 * address and its mark). */
static gboolean
mg_service_settling(MgProfileRecord *r, NMConnection *connection, const char *cloned)
{
	const MgMac *written = r != NULL && r->settling ? &r->settling_mac : NULL;
	MgMac mac;

	if (written == NULL)
		return FALSE;
	if (mg_mac_is_zero(written)
		? g_strcmp0(cloned, MG_PROFILE_PERMANENT) == 0 &&
		      mg_profile_marks(connection, written)
		: cloned != NULL && mg_mac_parse(cloned, &mac, NULL) &&
		      mg_mac_equal(&mac, written) && mg_profile_marks(connection, written)) {
		r->settling = FALSE;
		return FALSE;
	}
	return TRUE;
}

/* What one evaluation saw of an active profile's link: the address its
 * activation set (once it has set one), and whether that activation is
 * still to be checked. */
typedef struct {
	gboolean new_activation;
	MgLinkAddress link;
	MgMac mac;
} MgLinkView;

/* What a decision reads about the profile, but its link. */
gboolean
mg_service_is_up(MgService *self, const MgProfileRecord *r)
{
	return r != NULL &&
	       (r->active_path != NULL || (r->taking_up && nm_client_get_startup(self->client)));
}

void
mg_service_snapshot(MgService *self,
		    NMConnection *connection,
		    MgDeviceClass device_class,
		    const MgPolicy *policy,
		    MgSnapshot *snap)
{
	const char *uuid = nm_connection_get_uuid(connection);
	const char *cloned = mg_profile_cloned_mac(connection, device_class);
	MgProfileRecord *r = mg_profile_records_get(self->records, uuid);

	mg_profile_snapshot(self->rt.state,
			    mg_state_get_profile(self->rt.state, uuid),
			    connection,
			    device_class,
			    policy,
			    snap);
	snap->active = mg_service_is_up(self, r);
	snap->in_flight = (r != NULL && r->in_flight) || mg_service_settling(r, connection, cloned);
	snap->gate_attempts = r != NULL ? r->gate_attempts : 0;
	snap->retry_at = r != NULL ? r->retry_at : 0;
	snap->keeps_hardened = mg_harden_is_kept(connection);
	snap->unhardened = snap->keeps_hardened &&
			   mg_harden_keep(connection, policy, snap->user_owned, FALSE, NULL) > 0;
}

static MgReconcile
mg_service_decide(MgService *self,
		  NMConnection *connection,
		  MgDeviceClass device_class,
		  const MgPolicy *policy,
		  const MgLinkView *view,
		  MgEvent event)
{
	const char *uuid = nm_connection_get_uuid(connection);
	MgSnapshot snap;

	mg_service_snapshot(self, connection, device_class, policy, &snap);
	snap.new_activation = view->new_activation;
	snap.link = view->link;
	if (snap.active && device_class == MG_DEVICE_CLASS_AP && policy->quiet_start >= 0)
		mg_service_quiet_hours_state(self, uuid, &snap.schedule);
	return mg_reconcile(&snap, self->rt.boot_id, g_get_real_time() / G_USEC_PER_SEC, event);
}

/* What changes the state alone; the decision is then made again. */
static void
mg_service_apply_state(MgService *self,
		       NMConnection *connection,
		       MgDeviceClass device_class,
		       const MgPolicy *policy,
		       guint actions)
{
	const char *uuid = nm_connection_get_uuid(connection);
	const char *id = nm_connection_get_id(connection);
	MgProfileState *p = mg_state_ensure_profile(self->rt.state, uuid);

	mg_change_notice_add(self->notice, uuid);
	if ((actions & MG_DO_HAND_BACK) != 0) {
		p->user_owned = FALSE;
		p->has_address = FALSE;
		g_message("profile '%s': handed back to macguise", id);
	}
	if ((actions & MG_DO_ADOPT_UNRECORDED) != 0) {
		MgMac mac;
		gint64 drawn_at;
		/* The decision rested on a parsed address, so this parse does
		 * not fail; it is no assertion, which a build may leave out. */
		if (!mg_mac_parse(mg_profile_cloned_mac(connection, device_class), &mac, NULL)) {
			g_warning("profile '%s': its address is no longer one", id);
			return;
		}
		drawn_at = mg_state_remembered_at(self->rt.state, &mac);
		if (drawn_at != 0) {
			mg_state_assign(self->rt.state,
					p,
					&mac,
					drawn_at,
					mg_schedule_due_at(policy, drawn_at, G_MAXUINT32 / 2),
					self->rt.boot_id);
			g_message("profile '%s': took up the address it was given before a restart",
				  id);
		} else {
			/* Known by its mark only: the state was lost. Its age is
			 * unknown, so it is due now. */
			gint64 now = g_get_real_time() / G_USEC_PER_SEC;
			mg_state_assign(self->rt.state, p, &mac, now, now, self->rt.boot_id);
			p->recognised_at = now;
			g_warning(
			    "profile '%s': macguise's state was lost, but the profile carries its "
			    "mark: it stays managed and gets a new address at the first chance",
			    id);
		}
	}
	if ((actions & MG_DO_MARK_USER_OWNED) != 0) {
		/* macguise's address is an earlier one now: the history keeps its
		 * digest, the state no plain text of it. */
		p->user_owned = TRUE;
		p->has_address = FALSE;
		g_message("profile '%s': its MAC address was set by hand; macguise leaves it alone",
			  id);
	}
	if ((actions & MG_DO_MARK_USED) != 0)
		p->used = TRUE;
	if ((actions & MG_DO_MARK_PENDING) != 0)
		p->pending = TRUE;
	mg_link_index_check(self->index,
			    nm_connection_get_uuid(connection),
			    mg_service_leaves_alone(self, connection));
	mg_write_pipeline_save_soon(self->pipeline);
}

/* First contact: the address NetworkManager drew from macguise's defaults
 * becomes the profile's; the write that makes it the profile's own waits for
 * the save that records it. */
static void
mg_service_adopt_link(MgService *self,
		      NMConnection *connection,
		      const MgPolicy *policy,
		      const MgMac *mac)
{
	MgProfileState *p =
	    mg_state_ensure_profile(self->rt.state, nm_connection_get_uuid(connection));
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	g_autofree char *digest = NULL;
	guint32 jitter;

	mg_random_fill(self->rt.rng, &jitter, sizeof(jitter));
	mg_state_assign(
	    self->rt.state, p, mac, now, mg_schedule_due_at(policy, now, jitter), self->rt.boot_id);
	p->used = TRUE;
	mg_change_notice_add(self->notice, nm_connection_get_uuid(connection));
	digest = mg_state_log_digest(self->rt.state, mac);
	g_message("profile '%s': first contact with address #%s from macguise's defaults; kept",
		  nm_connection_get_id(connection),
		  digest);
}

/* A write waits while mg_service_max_ahead() are under way. */
static gboolean
mg_service_defer(MgService *self, NMRemoteConnection *rc)
{
	const char *uuid = nm_connection_get_uuid(NM_CONNECTION(rc));

	if (mg_profile_records_in_flight(self->records) < mg_service_max_ahead(self))
		return FALSE;
	mg_profile_records_defer(
	    self->records, mg_profile_records_ensure(self->records, uuid), G_OBJECT(rc));
	return TRUE;
}

/* The profile's address is right but its link's is not: up again, so the
 * link takes the profile's. Counted, so that a driver that keeps its own
 * address is not re-activated forever. */
static void
mg_service_gate(MgService *self, NMRemoteConnection *rc, const char *iface)
{
	const char *uuid = nm_connection_get_uuid(NM_CONNECTION(rc));
	MgProfileRecord *r = mg_profile_records_ensure(self->records, uuid);
	guint attempts = ++r->gate_attempts;

	g_message("profile '%s': its link came up with another address; up again with its own "
		  "(attempt %u of %u)",
		  nm_connection_get_id(NM_CONNECTION(rc)),
		  attempts,
		  MG_RECONCILE_MAX_GATE);
	mg_profile_record_reactivate_on(r, iface);
	mg_service_reactivate_now(self, rc, uuid);
}

/* A write that gives no address, through the same write path as an
 * address (the profile lock; a write decided on a copy that changed
 * meanwhile is not made): with @release, mode=off's, where `permanent` and
 * its mark take the place of macguise's address and mark; else the fixes a
 * profile kept hardened lost (mg-service-update.c applies them to the
 * current copy) and, with @unmark, the removal of a stale mark. */
static void
mg_service_write_no_address(MgService *self,
			    NMRemoteConnection *rc,
			    MgDeviceClass device_class,
			    gboolean release,
			    gboolean unmark)
{
	static const MgMac none = { { 0 } };
	MgWrite *w;

	if (mg_service_defer(self, rc))
		return;
	w = mg_write_new(self, NM_CONNECTION(rc), &none);
	w->release = release;
	w->harden_only = !release;
	w->unmark = unmark;
	mg_service_write(self, rc, device_class, FALSE, w);
}

/* The writes a decision asks for. */
static void
mg_service_apply_writes(MgService *self,
			NMRemoteConnection *rc,
			MgDeviceClass device_class,
			const MgPolicy *policy,
			const MgLinkView *view,
			guint actions)
{
	NMConnection *connection = NM_CONNECTION(rc);
	const char *uuid = nm_connection_get_uuid(connection);
	const char *iface = NULL;
	MgProfileState *p;
	MgWrite *w;

	if ((actions & MG_DO_RELEASE) != 0) {
		mg_service_write_no_address(self, rc, device_class, TRUE, FALSE);
		return;
	}
	/* (never with an address write: that one carries the fixes and its
	 * own mark) */
	if ((actions & (MG_DO_HARDEN | MG_DO_UNMARK)) != 0)
		mg_service_write_no_address(
		    self, rc, device_class, FALSE, (actions & MG_DO_UNMARK) != 0);
	if ((actions & MG_DO_REACTIVATE) != 0) {
		iface = mg_service_active_iface(self, uuid);
		iface = iface != NULL ? iface : "";
	}
	if ((actions & (MG_DO_ASSIGN | MG_DO_REWRITE | MG_DO_REACTIVATE)) == MG_DO_REACTIVATE) {
		mg_service_gate(self, rc, iface);
		return;
	}
	if ((actions & (MG_DO_ASSIGN | MG_DO_REWRITE)) == 0 || mg_service_defer(self, rc))
		return;
	if ((actions & MG_DO_ASSIGN) != 0) {
		mg_service_assign(self, rc, device_class, policy, FALSE, iface);
		return;
	}
	if ((actions & MG_DO_ADOPT_LINK) != 0)
		mg_service_adopt_link(self, connection, policy, &view->mac);
	p = mg_state_get_profile(self->rt.state, uuid);
	if (iface != NULL)
		mg_profile_record_reactivate_on(mg_profile_records_ensure(self->records, uuid),
						iface);
	w = mg_write_new(self, connection, &p->address);
	if ((actions & MG_DO_ADOPT_LINK) != 0)
		mg_service_write_recorded(self, rc, device_class, FALSE, w);
	else
		mg_service_write(self, rc, device_class, FALSE, w);
}

/* An activation's check is over once a decision no longer waits for it. */
static void
mg_service_note_checked(MgService *self,
			NMConnection *connection,
			const MgLinkView *view,
			const MgReconcile *r)
{
	MgProfileRecord *record =
	    mg_profile_records_ensure(self->records, nm_connection_get_uuid(connection));

	if (!view->new_activation || (r->actions & MG_DO_WATCH_LINK) != 0)
		return;
	record->unchecked = FALSE;
	if (view->link == MG_LINK_CURRENT || view->link == MG_LINK_ADOPTABLE)
		record->gate_attempts = 0;
	else if (g_strcmp0(r->reason, "wrong-address-gave-up") == 0)
		g_warning("profile '%s': its link keeps another address after %u re-activations; "
			  "its driver may not allow a cloned address",
			  nm_connection_get_id(connection),
			  MG_RECONCILE_MAX_GATE);
}

void
mg_service_evaluate(MgService *self, NMRemoteConnection *rc, MgEvent event)
{
	NMConnection *connection = NM_CONNECTION(rc);
	const char *uuid = nm_connection_get_uuid(connection);
	MgDeviceClass device_class = mg_profile_class(connection);
	guint state_only = MG_DO_HAND_BACK | MG_DO_ADOPT_UNRECORDED | MG_DO_MARK_USER_OWNED |
			   MG_DO_MARK_USED | MG_DO_MARK_PENDING;
	MgLinkView view = { FALSE, MG_LINK_UNKNOWN, { { 0 } } };
	g_autofree char *words = NULL;
	MgProfileRecord *record;
	MgReconcile r;
	const MgPolicy *policy;

	/* (a profile that left NetworkManager has no client: nothing to decide,
	 * and no record to make again) */
	if (!self->following || device_class == MG_DEVICE_CLASS_NONE || uuid == NULL ||
	    nm_object_get_client(NM_OBJECT(rc)) == NULL)
		return;
	record = mg_profile_records_ensure(self->records, uuid);
	if (record->taking_up) {
		if (nm_client_get_startup(self->client))
			return; /* a restarted NetworkManager may be taking it up again */
		record->taking_up = FALSE;
	}
	if (record->active_path != NULL) {
		view.new_activation = record->unchecked;
		view.link = mg_service_link_address(self, uuid, device_class, &view.mac);
	}
	policy = mg_service_policy(self, connection, device_class);
	r = mg_service_decide(self, connection, device_class, policy, &view, event);
	/* A hand-back or an adopted address changes what the profile is: decide
	 * again on the new state (at most once more each). */
	for (guint pass = 0;
	     pass < 2 && (r.actions & (MG_DO_HAND_BACK | MG_DO_ADOPT_UNRECORDED)) != 0;
	     pass++) {
		mg_service_apply_state(
		    self, connection, device_class, policy, r.actions & state_only);
		r = mg_service_decide(self, connection, device_class, policy, &view, event);
	}
	words = mg_reconcile_actions_to_string(r.actions);
	g_debug("profile '%s': %s (%s)", nm_connection_get_id(connection), words, r.reason);
	if ((r.actions & state_only) != 0)
		mg_service_apply_state(
		    self, connection, device_class, policy, r.actions & state_only);
	record->wake_at = r.wake_at;
	mg_service_note_checked(self, connection, &view, &r);
	mg_service_apply_writes(self, rc, device_class, policy, &view, r.actions);
	mg_profile_record_check(record);
}

void
mg_service_timer_fired(gboolean clock_set, gpointer user_data)
{
	MgService *self = user_data;

	if (self->client == NULL || !nm_client_get_nm_running(self->client))
		return;
	if (clock_set)
		g_message("the clock was set; every profile decided again");
	mg_service_evaluate_all(self, MG_EVENT_TIMER);
}

void
mg_service_evaluate_all(MgService *self, MgEvent event)
{
	const GPtrArray *connections = nm_client_get_connections(self->client);
	mg_link_index_update_soon(self->index);
	for (guint i = 0; connections != NULL && i < connections->len; i++)
		mg_service_evaluate(self, g_ptr_array_index(connections, i), event);
	mg_wake_schedule_update_soon(self->wake);
}

guint
mg_service_max_ahead(MgService *self)
{
	const GPtrArray *connections =
	    self->client != NULL ? nm_client_get_connections(self->client) : NULL;
	return MAX(MG_SERVICE_MAX_AHEAD, connections != NULL ? connections->len / 8 : 0);
}

/* A write is over: anything that happened to @rc (if given) while it was
 * under way; then the profiles whose writes waited for room among
 * mg_service_max_ahead(), oldest first. */
void
mg_service_write_over(MgService *self, NMRemoteConnection *rc)
{
	if (rc != NULL)
		mg_service_evaluate(self, rc, MG_EVENT_TIMER);
	while (mg_profile_records_in_flight(self->records) < mg_service_max_ahead(self)) {
		g_autoptr(GObject) next = mg_profile_records_next_deferred(self->records);
		if (next == NULL)
			break;
		/* (one NetworkManager removed meanwhile has no client) */
		if (nm_object_get_client(NM_OBJECT(next)) != NULL)
			mg_service_evaluate(self, NM_REMOTE_CONNECTION(next), MG_EVENT_TIMER);
	}
	mg_wake_schedule_update_soon(self->wake);
}
