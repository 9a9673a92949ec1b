/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-profile.h"
#include "mg-state-store.h"

#include <glib/gi18n.h>
#include <sodium.h>
#include <string.h>

#include "mg-generator.h"

/* Candidates refused before a draw gives up. */
#define MG_PROFILE_MAX_ATTEMPTS 1000

MgDeviceClass
mg_profile_class(NMConnection *connection)
{
	const char *type = nm_connection_get_connection_type(connection);

	/* What NetworkManager made up for a link configured outside it
	 * (external, volatile) is not anyone's profile: writing it to disk
	 * would make it one. Its automatic "Wired connection 1" (generated,
	 * in memory, neither of those) is the profile a new adapter meets its
	 * first network with: that one is ours. */
	if (NM_IS_REMOTE_CONNECTION(connection) &&
	    (nm_remote_connection_get_flags(NM_REMOTE_CONNECTION(connection)) &
	     (NM_SETTINGS_CONNECTION_FLAG_VOLATILE | NM_SETTINGS_CONNECTION_FLAG_EXTERNAL)) != 0)
		return MG_DEVICE_CLASS_NONE;
	if (g_strcmp0(type, NM_SETTING_WIRED_SETTING_NAME) == 0)
		return MG_DEVICE_CLASS_ETHERNET;
	if (g_strcmp0(type, NM_SETTING_WIRELESS_SETTING_NAME) == 0) {
		/* A hotspot's address is its BSSID: a router's, not a laptop's. */
		NMSettingWireless *s = nm_connection_get_setting_wireless(connection);
		if (s != NULL &&
		    g_strcmp0(nm_setting_wireless_get_mode(s), NM_SETTING_WIRELESS_MODE_AP) == 0)
			return MG_DEVICE_CLASS_AP;
		return MG_DEVICE_CLASS_WIFI;
	}
	return MG_DEVICE_CLASS_NONE;
}

const char *
mg_profile_cloned_mac(NMConnection *connection, MgDeviceClass device_class)
{
	if ((device_class & MG_DEVICE_CLASS_WIRELESS) != 0) {
		NMSettingWireless *s = nm_connection_get_setting_wireless(connection);
		return s != NULL ? nm_setting_wireless_get_cloned_mac_address(s) : NULL;
	} else {
		NMSettingWired *s = nm_connection_get_setting_wired(connection);
		return s != NULL ? nm_setting_wired_get_cloned_mac_address(s) : NULL;
	}
}

static const char *
mg_or_empty(const char *s)
{
	return s != NULL ? s : "";
}

char *
mg_profile_basis(NMConnection *connection)
{
	NMSettingWireless *wifi = nm_connection_get_setting_wireless(connection);
	NMSettingWired *wired = nm_connection_get_setting_wired(connection);
	NMSettingUser *user = NM_SETTING_USER(
	    nm_connection_get_setting_by_name(connection, NM_SETTING_USER_SETTING_NAME));
	const char *const *keys = NULL;
	GString *basis = g_string_new(NULL);
	guint n = 0;

	g_string_append_printf(
	    basis,
	    "%s\n%s\n%s\n%s\n%d",
	    mg_or_empty(nm_connection_get_connection_type(connection)),
	    mg_or_empty(wifi != NULL ? nm_setting_wireless_get_mode(wifi) : NULL),
	    mg_or_empty(wifi != NULL ? nm_setting_wireless_get_cloned_mac_address(wifi) : NULL),
	    mg_or_empty(wired != NULL ? nm_setting_wired_get_cloned_mac_address(wired) : NULL),
	    /* which defaults apply ([ethernet] or [ethernet-shared]) */
	    mg_profile_shares_connection(connection));
	if (user != NULL)
		keys = nm_setting_user_get_keys(user, &n);
	for (guint i = 0; i < n; i++)
		g_string_append_printf(
		    basis, "\n%s=%s", keys[i], nm_setting_user_get_data(user, keys[i]));
	return g_string_free(basis, FALSE);
}

/* A problem with a profile's settings: into @problems, or the log. */
static void G_GNUC_PRINTF(3, 4)
    mg_profile_problem(GPtrArray *problems, NMConnection *connection, const char *format, ...)
{
	va_list args;
	g_autofree char *msg = NULL;

	va_start(args, format);
	msg = g_strdup_vprintf(format, args);
	va_end(args);
	if (problems != NULL)
		g_ptr_array_add(problems, g_steal_pointer(&msg));
	else
		g_warning("profile '%s': %s", nm_connection_get_id(connection), msg);
}

gboolean
mg_profile_shares_connection(NMConnection *connection)
{
	NMSettingIPConfig *ip4 = nm_connection_get_setting_ip4_config(connection);
	return ip4 != NULL && g_strcmp0(nm_setting_ip_config_get_method(ip4),
					NM_SETTING_IP4_CONFIG_METHOD_SHARED) == 0;
}

MgConfigSection
mg_profile_section(NMConnection *connection, MgDeviceClass device_class)
{
	return mg_config_section_for(device_class, mg_profile_shares_connection(connection));
}

void
mg_profile_policy_full(const MgConfig *config,
		       MgCatalogue *catalogue,
		       NMConnection *connection,
		       MgDeviceClass device_class,
		       MgPolicy *policy,
		       GPtrArray *problems)
{
	NMSetting *setting =
	    nm_connection_get_setting_by_name(connection, NM_SETTING_USER_SETTING_NAME);
	const char *const *keys;
	guint n = 0;

	mg_policy_copy(policy,
		       mg_config_policy_of(config, mg_profile_section(connection, device_class)));
	if (setting == NULL)
		return;
	keys = nm_setting_user_get_keys(NM_SETTING_USER(setting), &n);
	for (guint i = 0; i < n; i++) {
		g_autoptr(GError) error = NULL;
		const char *value = nm_setting_user_get_data(NM_SETTING_USER(setting), keys[i]);
		gboolean handled;
		if (!mg_policy_set_user_data(policy, keys[i], value, &handled, &error))
			mg_profile_problem(
			    problems, connection, _("%s; using the default"), error->message);
	}
	if (policy->vendors != NULL && !mg_policy_check_vendors(policy, catalogue, NULL)) {
		mg_profile_problem(
		    problems,
		    connection,
		    _("macguise.vendors names a vendor not in the catalogue; using any"));
		g_clear_pointer(&policy->vendors, g_strfreev);
	}
	if (policy->quiet_start >= 0 && device_class != MG_DEVICE_CLASS_AP) {
		/* A client's users cannot be counted: never restart it unasked. */
		mg_profile_problem(
		    problems,
		    connection,
		    _("macguise.quiet-hours is for access-point profiles only; ignored"));
		policy->quiet_start = policy->quiet_end = -1;
	}
}

void
mg_profile_policy(const MgConfig *config,
		  MgCatalogue *catalogue,
		  NMConnection *connection,
		  MgDeviceClass device_class,
		  MgPolicy *policy)
{
	mg_profile_policy_full(config, catalogue, connection, device_class, policy, NULL);
}

const char *
mg_profile_mark_of(NMConnection *connection)
{
	NMSetting *setting =
	    nm_connection_get_setting_by_name(connection, NM_SETTING_USER_SETTING_NAME);
	return setting != NULL
		   ? nm_setting_user_get_data(NM_SETTING_USER(setting), MG_PROFILE_MARK_KEY)
		   : NULL;
}

gboolean
mg_profile_marks(NMConnection *connection, const MgMac *mac)
{
	return mg_profile_mark_matches(
	    mg_profile_mark_of(connection), nm_connection_get_uuid(connection), mac);
}

gboolean
mg_profile_is_released(NMConnection *connection, MgDeviceClass device_class)
{
	static const MgMac own = { { 0 } }; /* the mark's stand-in for `permanent` */
	const char *cloned = mg_profile_cloned_mac(connection, device_class);

	return g_strcmp0(cloned, MG_PROFILE_PERMANENT) == 0 && mg_profile_marks(connection, &own);
}

/* A mark that matches nothing in the profile: neither its address nor
 * a release's `permanent` (left by an address set by hand, or copied with
 * the profile under a new UUID). */
gboolean
mg_profile_mark_is_stale(NMConnection *connection, MgDeviceClass device_class)
{
	const char *cloned = mg_profile_cloned_mac(connection, device_class);
	MgMac m;

	if (mg_profile_mark_of(connection) == NULL)
		return FALSE;
	if (cloned != NULL && mg_mac_parse(cloned, &m, NULL))
		return !mg_profile_marks(connection, &m);
	return !mg_profile_is_released(connection, device_class);
}

MgProfileAddress
mg_profile_address_kind(MgState *state,
			const MgProfileState *profile,
			NMConnection *connection,
			MgDeviceClass device_class)
{
	const char *cloned = mg_profile_cloned_mac(connection, device_class);
	gint64 drawn_at;
	MgMac m;

	if (cloned == NULL || cloned[0] == '\0')
		return MG_PROFILE_ADDRESS_UNSET;
	if (mg_profile_is_released(connection, device_class))
		return MG_PROFILE_ADDRESS_RELEASED;
	if (!mg_mac_parse(cloned, &m, NULL))
		return MG_PROFILE_ADDRESS_BY_HAND; /* permanent, preserve, random, stable */
	if (profile != NULL && profile->has_address && mg_mac_equal(&m, &profile->address))
		return MG_PROFILE_ADDRESS_CURRENT;
	drawn_at = mg_state_remembered_at(state, &m);
	/* Every current address is in the history: only then can it be
	 * another profile's. */
	if (drawn_at != 0 &&
	    mg_state_is_current_elsewhere(state, &m, nm_connection_get_uuid(connection)))
		return MG_PROFILE_ADDRESS_COPIED;
	/* The history keeps 20 bits of each address (mg-state-private.h), so
	 * some 1 in 100 addresses set by hand shares an entry with 10,000
	 * others; macguise writes every address with its mark, and an
	 * earlier one of its own comes back with its mark too. */
	if (drawn_at != 0 && !mg_profile_marks(connection, &m))
		return MG_PROFILE_ADDRESS_BY_HAND;
	if (drawn_at == 0) {
		/* A state that knows nothing of the profile may have been lost. */
		if ((profile == NULL || !profile->has_address) && mg_profile_marks(connection, &m))
			return MG_PROFILE_ADDRESS_MARKED;
		return MG_PROFILE_ADDRESS_BY_HAND;
	}
	/* Recorded before it was written: newer than the current one means
	 * the write happened and the state missed it. (An entry shared with a
	 * later draw carries that draw's time: an earlier address put back
	 * whose entry is shared so, some (later draws) / 2^20 of them, is
	 * taken up rather than replaced, and rotates on its schedule.) */
	if (profile == NULL || !profile->has_address || drawn_at > profile->assigned_at)
		return MG_PROFILE_ADDRESS_UNRECORDED;
	return MG_PROFILE_ADDRESS_OLDER;
}

void
mg_profile_snapshot(MgState *state,
		    const MgProfileState *profile,
		    NMConnection *connection,
		    MgDeviceClass device_class,
		    const MgPolicy *policy,
		    MgSnapshot *snap)
{
	memset(snap, 0, sizeof(*snap));
	snap->policy = policy;
	mg_profile_schedule_state(profile, &snap->schedule);
	snap->user_owned = profile != NULL && profile->user_owned;
	snap->recovery_attempts = profile != NULL ? profile->recovery_attempts : 0;
	snap->address = mg_profile_address_kind(state, profile, connection, device_class);
	snap->unmarked = snap->address == MG_PROFILE_ADDRESS_CURRENT &&
			 !mg_profile_marks(connection, &profile->address);
	snap->stale_mark = mg_profile_mark_is_stale(connection, device_class);
}

char *
mg_profile_new_stable_id(void)
{
	guint8 epoch[12];
	char hex[2 * sizeof(epoch) + 1];

	randombytes_buf(epoch, sizeof(epoch));
	sodium_bin2hex(hex, sizeof(hex), epoch, sizeof(epoch));
	return g_strdup_printf("macguise-%s", hex);
}

typedef struct {
	MgState *state;
	GArray *taken;
} MgDrawData;

static gboolean
mg_profile_accept(const MgMac *candidate, gpointer user_data)
{
	MgDrawData *d = user_data;

	if (mg_state_was_used(d->state, candidate))
		return FALSE;
	for (guint i = 0; d->taken != NULL && i < d->taken->len; i++) {
		if (mg_mac_equal(&g_array_index(d->taken, MgMac, i), candidate))
			return FALSE;
	}
	return TRUE;
}

gboolean
mg_profile_draw(MgCatalogue *catalogue,
		MgState *state,
		MgRandom *rng,
		MgDeviceClass device_class,
		const MgPolicy *policy,
		const MgMac *hardware,
		GArray *taken,
		MgMac *mac,
		GError **error)
{
	MgDrawData d = { state, taken };
	MgDeviceClass want =
	    policy->device_class != MG_DEVICE_CLASS_NONE ? policy->device_class : device_class;
	g_autoptr(MgGenerator) gen = NULL;
	MgPrefix block;

	if (policy->mode == MG_MODE_KEEP_VENDOR && hardware != NULL &&
	    mg_generator_vendor_block(catalogue, hardware, &block))
		return mg_generator_next_in_block(
		    &block, rng, mg_profile_accept, &d, MG_PROFILE_MAX_ATTEMPTS, mac, error);
	/* The block-age rule reads the machine's clock, as the issue of blocks
	 * does: a block too new to be filled today may be drawn next year. */
	gen = mg_generator_new(catalogue,
			       want,
			       (const char *const *)policy->vendors,
			       g_get_real_time() / G_USEC_PER_SEC,
			       error);
	if (gen == NULL)
		return FALSE;
	return mg_profile_draw_from(gen, state, rng, taken, mac, error);
}

gboolean
mg_profile_draw_from(
    MgGenerator *gen, MgState *state, MgRandom *rng, GArray *taken, MgMac *mac, GError **error)
{
	MgDrawData d = { state, taken };

	return mg_generator_next(
	    gen, rng, mg_profile_accept, &d, MG_PROFILE_MAX_ATTEMPTS, mac, NULL, error);
}

char *
mg_boot_id_read(void)
{
	g_autofree char *text = NULL;
	if (!g_file_get_contents("/proc/sys/kernel/random/boot_id", &text, NULL, NULL))
		return g_strdup("");
	return g_strdup(g_strstrip(text));
}

void
mg_runtime_load_config(MgRuntime *rt, const char *config_path)
{
	g_autoptr(GPtrArray) problems = mg_config_problems_new();

	mg_config_clear(&rt->config);
	mg_config_init_default(&rt->config);
	mg_config_load_files(&rt->config, config_path, problems);
	for (guint i = 0; i < problems->len; i++) {
		g_autofree char *text = mg_config_problem_format(g_ptr_array_index(problems, i));
		/* TRANSLATORS: %s is FILE:LINE: what is wrong with that line */
		g_warning(_("%s (the rest of the configuration applies)"), text);
	}
}

gboolean
mg_runtime_init(MgRuntime *rt, const char *state_dir, const char *config_path, GError **error)
{
	MgStateLoadReport report;

	memset(rt, 0, sizeof(*rt));
	mg_runtime_load_config(rt, config_path);
	rt->catalogue = mg_catalogue_new_builtin(error);
	if (rt->catalogue == NULL)
		return FALSE;
	rt->rng = mg_random_new_system(error);
	if (rt->rng == NULL)
		return FALSE;
	rt->state = mg_state_load(state_dir, &report, error);
	if (rt->state == NULL)
		return FALSE;
	if (report.made_private)
		g_message("%s was open to other users; it is now private (mode 0700)", state_dir);
	if (report.origin == MG_STATE_RECOVERED)
		g_warning("the state file was unusable (%s); it was kept as %s and macguise starts "
			  "afresh",
			  report.reason,
			  report.moved_to);
	mg_state_load_report_clear(&report);
	rt->state_dir = g_strdup(state_dir);
	rt->boot_id = mg_boot_id_read();
	/* What an earlier version kept and this one does not leaves the disk
	 * now, not at the next change. */
	if (mg_state_loaded_older_form(rt->state) && mg_runtime_save(rt))
		g_message("the state file was in an earlier form; it is written again without the "
			  "earlier addresses that form kept");
	return TRUE;
}

void
mg_runtime_clear(MgRuntime *rt)
{
	mg_config_clear(&rt->config);
	g_clear_pointer(&rt->catalogue, mg_catalogue_free);
	g_clear_pointer(&rt->rng, mg_random_free);
	g_clear_pointer(&rt->state, mg_state_free);
	g_clear_pointer(&rt->state_dir, g_free);
	g_clear_pointer(&rt->boot_id, g_free);
}

char *
mg_runtime_state_text(MgRuntime *rt, gsize *len)
{
	mg_state_prune_history(rt->state,
			       g_get_real_time() / G_USEC_PER_SEC,
			       rt->config.history_max_age,
			       rt->config.history_max_entries);
	return mg_state_to_data(rt->state, len);
}

gboolean
mg_runtime_save(MgRuntime *rt)
{
	g_autoptr(GError) error = NULL;
	gsize len = 0;
	g_autofree char *text = mg_runtime_state_text(rt, &len);

	if (!mg_state_save_data(rt->state_dir, text, len, &error)) {
		g_warning("%s", error->message);
		return FALSE;
	}
	return TRUE;
}

void
mg_profile_schedule_state(const MgProfileState *p, MgScheduleState *st)
{
	memset(st, 0, sizeof(*st));
	st->local_minute = -1;
	if (p == NULL)
		return;
	st->has_address = p->has_address;
	st->assigned_at = p->assigned_at;
	st->due_at = p->due_at;
	st->used = p->used;
	st->pending = p->pending;
	st->boot_id = p->boot_id;
}

gboolean
mg_profile_link_local_is_eui64(NMConnection *connection)
{
	NMSettingIPConfig *ip6 = nm_connection_get_setting_ip6_config(connection);
	const char *method = ip6 != NULL ? nm_setting_ip_config_get_method(ip6) : NULL;
	NMSettingIP6ConfigAddrGenMode mode;

	if (ip6 == NULL || g_strcmp0(method, NM_SETTING_IP6_CONFIG_METHOD_DISABLED) == 0 ||
	    g_strcmp0(method, NM_SETTING_IP6_CONFIG_METHOD_IGNORE) == 0)
		return FALSE;
	mode = nm_setting_ip6_config_get_addr_gen_mode(NM_SETTING_IP6_CONFIG(ip6));
	/* "default-or-eui64" is EUI-64 unless NetworkManager's configuration
	 * says otherwise; "default" is stable-privacy unless it does. */
	return mode == NM_SETTING_IP6_CONFIG_ADDR_GEN_MODE_EUI64 ||
	       mode == NM_SETTING_IP6_CONFIG_ADDR_GEN_MODE_DEFAULT_OR_EUI64;
}
