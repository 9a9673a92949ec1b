/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-boot.h"

#include <NetworkManager.h>
#include <string.h>

#include "mg-neighbours.h"
#include "mg-profile.h"
#include "mg-schedule.h"

/* Addresses the machine's interfaces have now, and its neighbours': never a
 * candidate. */
static GArray *
mg_boot_local_macs(void)
{
	GArray *taken = g_array_new(FALSE, FALSE, sizeof(MgMac));
	g_autoptr(GDir) dir = g_dir_open("/sys/class/net", 0, NULL);
	g_autoptr(GArray) neighbours = NULL;
	const char *name;

	while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
		g_autofree char *path = g_build_filename("/sys/class/net", name, "address", NULL);
		g_autofree char *text = NULL;
		MgMac m;
		if (g_file_get_contents(path, &text, NULL, NULL) &&
		    mg_mac_parse(g_strstrip(text), &m, NULL))
			g_array_append_val(taken, m);
	}
	neighbours = mg_neighbours_read(NULL);
	if (neighbours != NULL)
		g_array_append_vals(taken, neighbours->data, neighbours->len);
	return taken;
}

/* The group a keyfile keeps a setting in: its own name, or the alias
 * NetworkManager writes ("ethernet", "wifi"). */
static const char *
mg_boot_group(GKeyFile *kf, const char *name, const char *alias)
{
	return g_key_file_has_group(kf, name) ? name : alias;
}

typedef struct {
	MgRuntime rt;
	GArray *taken;
	gint64 now;
} MgBoot;

static void
mg_boot_clear(MgBoot *b)
{
	mg_runtime_clear(&b->rt);
	g_clear_pointer(&b->taken, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(MgBoot, mg_boot_clear)

/* Returns TRUE when the file was rewritten. */
static gboolean
mg_boot_profile(MgBoot *b, const char *dir, const char *path)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) error = NULL;
	g_autoptr(NMConnection) connection = NULL;
	g_autofree char *data = NULL;
	g_autofree char *stable_id = NULL;
	MgScheduleState st;
	MgProfileState *p;
	MgPolicy policy;
	MgDecision d;
	MgClass klass;
	char text[MG_MAC_STRLEN];
	guint32 jitter;
	gsize len = 0;
	MgMac mac;

	if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_KEEP_COMMENTS, &error) ||
	    (connection = nm_keyfile_read(
		 kf, dir, NM_KEYFILE_HANDLER_FLAGS_NONE, NULL, NULL, &error)) == NULL) {
		g_warning("%s: skipped: %s", path, error->message);
		return FALSE;
	}
	klass = mg_profile_class(connection);
	if (klass == MG_CLASS_NONE || nm_connection_get_uuid(connection) == NULL)
		return FALSE;
	p = mg_state_get_profile(b->rt.state, nm_connection_get_uuid(connection));
	if (p != NULL && p->user_owned)
		return FALSE;
	if (mg_profile_set_by_hand(b->rt.state, p, mg_profile_cloned_mac(connection, klass)))
		return FALSE; /* the running service marks and reports it */
	mg_profile_policy(&b->rt.config, b->rt.catalogue, connection, klass, &policy);
	mg_profile_schedule_state(p, &st);
	d = mg_schedule_decide(&policy, &st, FALSE, b->rt.boot_id, b->now, MG_EVENT_BOOT);
	if (d.action != MG_ACTION_ASSIGN_NOW) {
		mg_policy_clear(&policy);
		return FALSE;
	}
	/* No devices before NetworkManager: keep-vendor keeps the block of the
	 * profile's current address, which came from the device's. */
	if (!mg_profile_draw(b->rt.catalogue,
			     b->rt.state,
			     b->rt.rng,
			     klass,
			     &policy,
			     p != NULL && p->has_address ? &p->address : NULL,
			     b->taken,
			     &mac,
			     &error)) {
		g_warning("profile '%s': no address to give it: %s",
			  nm_connection_get_id(connection),
			  error->message);
		mg_policy_clear(&policy);
		return FALSE;
	}
	mg_mac_format(&mac, text);
	if ((klass & MG_CLASS_WIRELESS) != 0)
		g_key_file_set_string(
		    kf, mg_boot_group(kf, "802-11-wireless", "wifi"), "cloned-mac-address", text);
	else
		g_key_file_set_string(kf,
				      mg_boot_group(kf, "802-3-ethernet", "ethernet"),
				      "cloned-mac-address",
				      text);
	if (policy.harden) {
		stable_id = mg_profile_new_stable_id();
		g_key_file_set_string(kf, "connection", "stable-id", stable_id);
	}
	mg_random_fill(b->rt.rng, &jitter, sizeof(jitter));
	/* The state first: if the keyfile write is then lost, the profile keeps
	 * an address the history knows, never one macguise would hand out again. */
	p = mg_state_ensure_profile(b->rt.state, nm_connection_get_uuid(connection));
	mg_state_assign(b->rt.state,
			p,
			&mac,
			b->now,
			mg_schedule_due_at(&policy, b->now, jitter),
			b->rt.boot_id);
	mg_policy_clear(&policy);
	if (!mg_runtime_save(&b->rt))
		return FALSE; /* logged; the profile keeps its address */
	data = g_key_file_to_data(kf, &len, NULL);
	if (!g_file_set_contents_full(path,
				      data,
				      (gssize)len,
				      G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
				      0600,
				      &error)) {
		g_warning("%s: cannot write its new address: %s", path, error->message);
		return FALSE;
	}
	{
		g_autofree char *digest = mg_state_log_digest(b->rt.state, &mac);
		g_message("profile '%s': new address #%s at boot (%s)",
			  nm_connection_get_id(connection),
			  digest,
			  d.reason);
		g_debug(
		    "profile '%s': new address %s at boot", nm_connection_get_id(connection), text);
	}
	return TRUE;
}

gboolean
mg_boot_run(const char *keyfile_dir,
	    const char *state_dir,
	    const char *config_path,
	    guint *rewritten,
	    GError **error)
{
	g_auto(MgBoot) b = { 0 };
	g_autoptr(GDir) dir = NULL;
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	*rewritten = 0;
	if (!mg_runtime_init(&b.rt, state_dir, config_path, error))
		return FALSE;
	b.taken = mg_boot_local_macs();
	b.now = g_get_real_time() / G_USEC_PER_SEC;

	dir = g_dir_open(keyfile_dir, 0, error);
	if (dir == NULL)
		return FALSE;
	while ((name = g_dir_read_name(dir)) != NULL) {
		if (g_str_has_suffix(name, ".nmconnection"))
			g_ptr_array_add(names, g_build_filename(keyfile_dir, name, NULL));
	}
	for (guint i = 0; i < names->len; i++) {
		if (mg_boot_profile(&b, keyfile_dir, g_ptr_array_index(names, i)))
			(*rewritten)++;
	}
	return TRUE;
}
