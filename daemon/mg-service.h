/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "mg-service-type.h"

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

G_END_DECLS

/* The D-Bus API's operations, and the pre-up hook's. */
#include "mg-service-api.h"
#include "mg-service-check.h"
