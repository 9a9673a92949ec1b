/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define MG_TYPE_SERVICE (mg_service_get_type())
G_DECLARE_FINAL_TYPE(MgService, mg_service, MG, SERVICE, GObject)

/* Follows NetworkManager's Ethernet and Wi-Fi profiles and keeps a
 * macguise address in each managed one. @state_dir, @config_path and
 * @runtime_dir (where the link-check index goes; NULL: none) as
 * mg_state_default_dir(), mg_config_default_path() and
 * mg_runtime_default_dir() give them. */
MgService *mg_service_new(const char *state_dir,
			  const char *config_path,
			  const char *runtime_dir,
			  GError **error);
/* Where NetworkManager keeps its DHCP leases (default
 * MG_NM_DEFAULT_STATE_DIR): a profile given a new address forgets its
 * lease there, so the new address does not ask for the old one's. */
void mg_service_set_nm_state_dir(MgService *self, const char *nm_state_dir);
/* Keeps NetworkManager's first-contact defaults in @nm_conf_dir (see
 * mg-first-contact-keeper.h), looked at again at each reload. */
void mg_service_keep_first_contact(MgService *self, const char *nm_conf_dir);
/* Connects to NetworkManager (waiting for it if it is not there yet) and
 * starts following profiles. */
void mg_service_start(MgService *self);
/* Before the end: waits for a save under way and saves what changed since;
 * profile writes not started yet are dropped. */
void mg_service_stop(MgService *self);

/* The D-Bus API's operations (see data/org.macguise.Daemon1.xml). */
/* Every Ethernet and Wi-Fi profile that @user (a user name; NULL: none
 * known) may see, as GetStatus returns them. */
GVariant *mg_service_get_status(MgService *self, const char *user);
/* @profile: a UUID or id, or "" for every managed profile. */
/* Each profile's outcome, as a(sss): its UUID, the outcome
 * (mg_rotation_outcome_to_string) and the reason's word. */
GVariant *mg_service_rotate(MgService *self, const char *profile, gboolean now, GError **error);
gboolean mg_service_reload(MgService *self, GError **error);
/* Whether every local user may see the profile (no connection.permissions):
 * only such profiles are named in ProfilesChanged. */
gboolean mg_service_profile_is_public(MgService *self, const char *uuid);
/* For the pre-up hook: (managed, address, window_ms, probes). */
GVariant *mg_service_get_link_check(MgService *self, const char *profile);
/* Records the hook's verdict and, on a conflict, recovers; returns the
 * outcome (see the XML) or NULL with @error for a malformed report. */
const char *mg_service_report_verdict(MgService *self,
				      const char *profile,
				      const char *iface,
				      const char *address,
				      const char *verdict,
				      const char *evidence,
				      guint duration_ms,
				      GError **error);
/* After a clean verdict: goes on watching the link with the hook's @fd
 * (taken) for passive-watch-s (see WatchLink in the XML). FALSE with
 * @error for a malformed call; an unmanaged or stale one is ignored. */
gboolean mg_service_watch_link(MgService *self,
			       const char *profile,
			       const char *iface,
			       const char *address,
			       int fd,
			       GError **error);

G_END_DECLS
