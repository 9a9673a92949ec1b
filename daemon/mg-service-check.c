/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The pre-up hook's calls: what to check on a profile's link, what the
 * check found, and the passive watch that follows a clean check. The
 * decisions are core's (mg-verdict-report.h); this file carries them out. */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include <net/if.h>
#include <unistd.h>

#include "mg-link-watch.h"

#include "mg-service-check.h"

#include "mg-service-assign.h"
#include "mg-service-decide.h"
#include "mg-service-nm.h"
#include "mg-service-policy.h"
#include "mg-service-core.h"
#include "mg-paths.h"
#include "mg-probe.h"
#include "mg-verdict-report.h"

gboolean
mg_service_manages(MgService *self, NMConnection *c)
{
	MgDeviceClass device_class = mg_profile_class(c);
	MgSnapshot snap;

	if (device_class == MG_DEVICE_CLASS_NONE)
		return FALSE;
	mg_service_snapshot(self, c, device_class, mg_service_policy(self, c, device_class), &snap);
	return mg_snapshot_manages(&snap);
}

GVariant *
mg_service_get_link_check(MgService *self, const char *profile)
{
	NMRemoteConnection *rc =
	    self->client != NULL ? nm_client_get_connection_by_uuid(self->client, profile) : NULL;
	gboolean managed = rc != NULL && mg_service_manages(self, NM_CONNECTION(rc));
	const MgProfileState *p = managed ? mg_state_get_profile(self->rt.state, profile) : NULL;
	g_autofree char *probes = NULL;
	char address[MG_MAC_STRLEN] = "";

	if (managed)
		mg_mac_format(&p->address, address);
	probes = mg_probe_kinds_to_string(mg_probe_kinds_for_link(
	    self->rt.config.probes,
	    rc != NULL && mg_profile_link_local_is_eui64(NM_CONNECTION(rc))));
	return g_variant_new("(bsus)", managed, address, self->rt.config.probe_window_ms, probes);
}

/* A conflict: the address is burned, so the history keeps it from ever
 * being handed out again. */
static void
mg_service_burn(MgService *self, NMConnection *c, MgProfileState *p, const char *iface, gint64 now)
{
	g_autofree char *digest = mg_state_log_digest(self->rt.state, &p->address);

	p->conflicts++;
	mg_state_remember(self->rt.state, &p->address, now);
	g_message("profile '%s' on %s: another station uses address #%s: %s",
		  nm_connection_get_id(c),
		  iface,
		  digest,
		  p->evidence);
}

/* @policy: the profile's, as the decision saw it. */
static MgReportOutcome
mg_service_carry_out_report(MgService *self,
			    NMRemoteConnection *rc,
			    const MgPolicy *policy,
			    MgProfileState *p,
			    MgReport r,
			    const char *iface)
{
	NMConnection *c = NM_CONNECTION(rc);
	gboolean assigned;

	if ((r.actions & MG_DO_BURN) != 0)
		mg_service_burn(self, c, p, iface, p->checked_at);
	if ((r.actions & MG_DO_GIVE_UP) != 0) {
		p->recovery_failed = TRUE;
		g_warning(
		    "profile '%s': still in conflict after %u new address(es); macguise stops "
		    "and leaves the connection as it is",
		    nm_connection_get_id(c),
		    p->recovery_attempts);
	}
	if ((r.actions & MG_DO_ASSIGN) != 0)
		p->recovery_attempts++;
	mg_write_pipeline_save_soon(self->pipeline);
	if ((r.actions & MG_DO_ASSIGN) == 0)
		return r.outcome;
	assigned = mg_service_assign(self,
				     rc,
				     mg_profile_class(c),
				     policy,
				     TRUE,
				     (r.actions & MG_DO_REACTIVATE) != 0 ? iface : NULL);
	/* No address to draw, or no save: the verdict is recorded all the same. */
	return assigned ? r.outcome : MG_REPORT_RECORDED;
}

static gboolean
mg_service_watching_after_check(MgService *self)
{
	return self->rt.config.passive_watch_s > 0 && (self->rt.config.probes & MG_PROBE_PASSIVE);
}

typedef struct _MgServiceWatch MgServiceWatch;
static MgServiceWatch *
mg_service_watch_prepare(MgService *self, const char *uuid, guint run_attempts);

static void
mg_service_record_verdict(MgService *self,
			  MgProfileState *p,
			  MgVerdict verdict,
			  const char *evidence)
{
	guint attempts = p->recovery_attempts;

	mg_state_record_verdict(p, verdict, evidence, g_get_real_time() / G_USEC_PER_SEC);
	if (verdict == MG_VERDICT_CLEAN && mg_service_watching_after_check(self))
		mg_service_watch_prepare(self, p->uuid, attempts);
}

const char *
mg_service_report_verdict(MgService *self,
			  const char *profile,
			  const char *iface,
			  const char *address,
			  const char *verdict_text,
			  const char *evidence,
			  guint duration_ms,
			  GError **error)
{
	NMRemoteConnection *rc;
	NMConnection *c;
	MgProfileState *p;
	MgDeviceClass device_class;
	MgVerdict verdict;
	MgSnapshot snap;
	const MgPolicy *policy;
	MgReport r;
	MgMac mac;
	g_autofree char *digest = NULL;

	if (!mg_verdict_report_check(iface, address, verdict_text, evidence, &verdict, &mac, error))
		return NULL;
	rc = mg_service_lookup_profile(self, profile, error);
	if (rc == NULL)
		return NULL;
	c = NM_CONNECTION(rc);
	device_class = mg_profile_class(c);
	p = mg_state_get_profile(self->rt.state, nm_connection_get_uuid(c));
	policy = mg_service_policy(self, c, device_class);
	mg_service_snapshot(self, c, device_class, policy, &snap);
	r = mg_report_decide(&snap,
			     p != NULL && p->has_address && mg_mac_equal(&p->address, &mac),
			     verdict,
			     self->rt.config.conflict_max_attempts);
	if ((r.actions & MG_DO_RECORD_VERDICT) == 0)
		return mg_report_outcome_to_string(r.outcome);

	mg_service_record_verdict(self, p, verdict, evidence);
	mg_change_notice_add(self->notice, p->uuid);
	if (r.outcome == MG_REPORT_RECORDED) {
		digest = mg_state_log_digest(self->rt.state, &mac);
		g_message("profile '%s' on %s: address #%s: link check %s after %u ms: %s",
			  nm_connection_get_id(c),
			  iface,
			  digest,
			  verdict_text,
			  duration_ms,
			  evidence);
	}
	return mg_report_outcome_to_string(
	    mg_service_carry_out_report(self, rc, policy, p, r, iface));
}

/* A passive watch, and what it is about. */
struct _MgServiceWatch {
	MgService *self;
	char *uuid;
	char *iface;
	MgMac mac;
	/* A clean check ends a run of conflicts; but a finding of the watch
	 * after it goes on with that run, so that a station that copies each
	 * new address a while after its check still meets
	 * conflict-max-attempts. */
	guint run_attempts;
	MgLinkWatch *watch; /* NULL: the clean verdict came, the socket not yet */
};

void
mg_service_watch_free(gpointer watch)
{
	MgServiceWatch *sw = watch;

	mg_link_watch_free(sw->watch);
	g_free(sw->uuid);
	g_free(sw->iface);
	g_free(sw);
}

void
mg_service_watch_over(MgService *self, const char *uuid)
{
	MgProfileRecord *r = mg_profile_records_get(self->records, uuid);

	if (r != NULL)
		mg_profile_records_set_watch(self->records, r, NULL);
}

/* The profile's watch, or NULL. */
static MgServiceWatch *
mg_service_watch_of(MgService *self, const char *uuid)
{
	MgProfileRecord *r = mg_profile_records_get(self->records, uuid);

	return r != NULL ? r->watch : NULL;
}

/* At a clean verdict: the watch to come, and the run of conflicts it may
 * continue. */
static MgServiceWatch *
mg_service_watch_prepare(MgService *self, const char *uuid, guint run_attempts)
{
	MgServiceWatch *sw = g_new0(MgServiceWatch, 1);

	sw->self = self;
	sw->uuid = g_strdup(uuid);
	sw->run_attempts = run_attempts;
	mg_profile_records_set_watch(
	    self->records, mg_profile_records_ensure(self->records, uuid), sw);
	return sw;
}

static void
mg_service_watch_ended(const char *evidence, guint after_ms, gpointer user_data)
{
	MgServiceWatch *sw = user_data;
	MgService *self = sw->self;
	g_autofree char *uuid = g_strdup(sw->uuid);
	g_autofree char *iface = g_strdup(sw->iface);
	char address[MG_MAC_STRLEN];
	MgMac mac = sw->mac;
	guint run_attempts = sw->run_attempts;
	g_autoptr(GError) error = NULL;
	const char *outcome;
	const MgProfileRecord *record;
	MgProfileState *p;

	mg_mac_format(&mac, address);
	mg_service_watch_over(self, uuid);
	record = mg_profile_records_get(self->records, uuid);
	/* A watch whose activation is over (its end and the hook's handover
	 * come over different connections, in either order) finds nothing:
	 * macguised never brings up a profile someone took down. */
	if (evidence == NULL || record == NULL || record->active_path == NULL)
		return;
	p = mg_state_get_profile(self->rt.state, uuid);
	if (p != NULL && p->has_address && mg_mac_equal(&p->address, &mac))
		p->recovery_attempts = MAX(p->recovery_attempts, run_attempts);
	outcome = mg_service_report_verdict(
	    self, uuid, iface, address, "conflict", evidence, after_ms, &error);
	if (outcome == NULL)
		g_warning("%s: a finding of the passive watch: %s", iface, error->message);
	else
		g_debug("%s: the passive watch found another station: %s", iface, outcome);
}

/* The watch is for the address the profile has now. (Its activation may
 * not be in libnm's list yet: the hook runs while it activates. A link that
 * goes down ends the watch, and so does the activation's end.) */
static gboolean
mg_service_watch_wanted(MgService *self, NMRemoteConnection *rc, const MgMac *mac)
{
	const char *uuid = nm_connection_get_uuid(NM_CONNECTION(rc));
	const MgProfileState *p = mg_state_get_profile(self->rt.state, uuid);

	return mg_service_watching_after_check(self) &&
	       mg_service_manages(self, NM_CONNECTION(rc)) && p != NULL && p->has_address &&
	       mg_mac_equal(&p->address, mac);
}

gboolean
mg_service_watch_link(MgService *self,
		      const char *profile,
		      const char *iface,
		      const char *address,
		      int fd,
		      GError **error)
{
	NMRemoteConnection *rc;
	MgServiceWatch *sw;
	MgMac mac;
	unsigned ifindex;

	if (!mg_iface_name_is_valid(iface) || !mg_mac_parse(address, &mac, NULL)) {
		g_set_error_literal(error,
				    G_IO_ERROR,
				    G_IO_ERROR_INVALID_ARGUMENT,
				    "the interface name or the address is malformed");
		close(fd);
		return FALSE;
	}
	if ((rc = mg_service_lookup_profile(self, profile, error)) == NULL) {
		close(fd);
		return FALSE;
	}
	ifindex = if_nametoindex(iface);
	if (ifindex == 0 || !mg_service_watch_wanted(self, rc, &mac)) {
		g_debug("profile '%s' on %s: no passive watch (off, or another address now)",
			nm_connection_get_id(NM_CONNECTION(rc)),
			iface);
		close(fd);
		return TRUE;
	}
	sw = mg_service_watch_of(self, nm_connection_get_uuid(NM_CONNECTION(rc)));
	if (sw == NULL || sw->watch != NULL)
		sw = mg_service_watch_prepare(self, nm_connection_get_uuid(NM_CONNECTION(rc)), 0);
	g_free(sw->iface);
	sw->iface = g_strdup(iface);
	sw->mac = mac;
	sw->watch = mg_link_watch_new(fd,
				      (int)ifindex,
				      &mac,
				      self->rt.config.passive_watch_s,
				      mg_service_watch_ended,
				      sw,
				      error);
	if (sw->watch == NULL) {
		mg_service_watch_over(self, sw->uuid);
		return FALSE;
	}
	g_debug("profile '%s' on %s: watching passively for %u s",
		nm_connection_get_id(NM_CONNECTION(rc)),
		iface,
		self->rt.config.passive_watch_s);
	return TRUE;
}
