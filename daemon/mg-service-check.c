/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The pre-up hook's two calls: what to check on a profile's link, and what
 * the check found. The decisions are core's (mg-verdict-report.h); this
 * file carries them out. */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-service-private.h"
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
	mg_service_commit_soon(self);
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

	mg_state_record_verdict(p, verdict, evidence, g_get_real_time() / G_USEC_PER_SEC);
	mg_service_note_changed(self, p->uuid);
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
