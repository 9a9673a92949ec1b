/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <NetworkManager.h>

#include "mg-catalogue.h"
#include "mg-generator.h"
#include "mg-profile-mark.h"
#include "mg-config.h"
#include "mg-random.h"
#include "mg-reconcile.h"
#include "mg-schedule.h"
#include "mg-state.h"

G_BEGIN_DECLS

/* What the running service and the boot step both load at start. */
typedef struct {
	MgConfig config;
	MgCatalogue *catalogue;
	MgRandom *rng;
	MgState *state;
	char *state_dir;
	char *boot_id;
} MgRuntime;

/* A bad macguise.conf is reported and the defaults used; an unusable state
 * file is reported (it was moved aside); an unreadable one is an error. */
gboolean
mg_runtime_init(MgRuntime *rt, const char *state_dir, const char *config_path, GError **error);
void mg_runtime_clear(MgRuntime *rt);
/* rt->config from the configuration files; each line that cannot be used is
 * named in the journal and skipped. */
void mg_runtime_load_config(MgRuntime *rt, const char *config_path);
/* Prunes the history to its bounds and saves; a failure is logged, the old
 * file stays intact and the next change tries again. */
gboolean mg_runtime_save(MgRuntime *rt);
/* What a save writes: the history pruned to its bounds, then the state as
 * text (for a save on another thread: mg_state_save_data()). */
char *mg_runtime_state_text(MgRuntime *rt, gsize *len);

/* What the running service and the boot step both decide about a profile. */

/* The part of a profile's state the schedule reads; @p may be NULL. */
void mg_profile_schedule_state(const MgProfileState *p, MgScheduleState *st);

/* MG_DEVICE_CLASS_ETHERNET, MG_DEVICE_CLASS_WIFI or MG_DEVICE_CLASS_AP by the profile type and
 * Wi-Fi mode; NONE: not ours (another type, or one NetworkManager generated
 * or keeps only in memory). */
MgDeviceClass mg_profile_class(NMConnection *connection);
/* Whether the profile shares its connection (IPv4 method "shared": the
 * machine routes and serves DHCP on that network). */
gboolean mg_profile_shares_connection(NMConnection *connection);
/* The macguise.conf section of defaults a profile of @device_class takes. */
MgConfigSection mg_profile_section(NMConnection *connection, MgDeviceClass device_class);
const char *mg_profile_cloned_mac(NMConnection *connection, MgDeviceClass device_class);

/* What a decision about @connection rests on, as one string to compare:
 * its type, Wi-Fi mode, cloned MAC address and user data (macguise's
 * policy and the address's mark). A write decided on one copy of a profile
 * is written into another only if their bases are equal. */
char *mg_profile_basis(NMConnection *connection);
/* The defaults for the profile's type, then its own macguise.* user data;
 * a bad value is logged and that one setting keeps its default. */
void mg_profile_policy(const MgConfig *config,
		       MgCatalogue *catalogue,
		       NMConnection *connection,
		       MgDeviceClass device_class,
		       MgPolicy *policy);
/* The same, with the problems collected into @problems (strings) instead. */
void mg_profile_policy_full(const MgConfig *config,
			    MgCatalogue *catalogue,
			    NMConnection *connection,
			    MgDeviceClass device_class,
			    MgPolicy *policy,
			    GPtrArray *problems);
/* The mark macguise wrote into the profile with its address (see
 * mg-profile-mark.h), or NULL. */
const char *mg_profile_mark_of(NMConnection *connection);
/* Whether the profile's mark is that of @mac. */
gboolean mg_profile_marks(NMConnection *connection, const MgMac *mac);
/* Whether the profile carries the `permanent` mode=off's release wrote, with
 * macguise's mark of it (mg-profile-mark.h): macguise's, not set by hand. */
gboolean mg_profile_is_released(NMConnection *connection, MgDeviceClass device_class);
/* Whether @connection carries a mark that matches no address in it
 * (neither its cloned address nor a release's `permanent`). */
gboolean mg_profile_mark_is_stale(NMConnection *connection, MgDeviceClass device_class);
/* What the profile's cloned-mac-address is to macguise (see MgProfileAddress). */
MgProfileAddress mg_profile_address_kind(MgState *state,
					 const MgProfileState *profile,
					 NMConnection *connection,
					 MgDeviceClass device_class);
/* The part of mg_reconcile()'s snapshot that the state and the profile's
 * settings give; the caller adds what NetworkManager says (active, link). */
void mg_profile_snapshot(MgState *state,
			 const MgProfileState *profile,
			 NMConnection *connection,
			 MgDeviceClass device_class,
			 const MgPolicy *policy,
			 MgSnapshot *snap);
/* A fresh connection.stable-id epoch, so that IPv6 stable-privacy
 * addresses and DHCP identifiers change with the MAC. */
char *mg_profile_new_stable_id(void);
/* A candidate for the profile: not used before here, not another profile's,
 * not in @taken (addresses local interfaces use or were made with). With
 * mode keep-vendor and a @hardware address (the device's own, else the
 * profile's current one), from that address's registry block, as Tails
 * does; otherwise from the catalogue. */
gboolean mg_profile_draw(MgCatalogue *catalogue,
			 MgState *state,
			 MgRandom *rng,
			 MgDeviceClass device_class,
			 const MgPolicy *policy,
			 const MgMac *hardware,
			 GArray *taken,
			 MgMac *mac,
			 GError **error);
/* Draws from @gen an address never used here (mg_state_was_used()) and none
 * of @taken's. */
gboolean mg_profile_draw_from(
    MgGenerator *gen, MgState *state, MgRandom *rng, GArray *taken, MgMac *mac, GError **error);

/* The kernel's id of this boot (a UUID), or "" where it cannot be read. */
char *mg_boot_id_read(void);

/* Whether the profile's IPv6 link-local address is its EUI-64 one (IPv6 on,
 * ipv6.addr-gen-mode eui64 or default-or-eui64): the address the link
 * check's IPv6 probe asks about, which only such a host probes for. */
gboolean mg_profile_link_local_is_eui64(NMConnection *connection);

G_END_DECLS
