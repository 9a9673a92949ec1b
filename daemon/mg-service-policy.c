/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "macguised"

#include "config.h"

#include "mg-service-private.h"

/* Each profile's policy, resolved once and kept until its settings or
 * macguise.conf change: not at every status request, link check or
 * decision. A bad value is reported when it first shows, not again while the
 * profile keeps it (macguised's own writes change the profile too). */

typedef struct {
	MgDeviceClass device_class; /* the class it was resolved for */
	gboolean stale;             /* the profile or macguise.conf changed since */
	MgPolicy policy;
	char *problems; /* what resolving it reported, one per line, or NULL */
} MgResolvedPolicy;

static void
mg_resolved_policy_free(MgResolvedPolicy *r)
{
	mg_policy_clear(&r->policy);
	g_free(r->problems);
	g_free(r);
}

GHashTable *
mg_service_policies_new(void)
{
	return g_hash_table_new_full(
	    g_str_hash, g_str_equal, g_free, (GDestroyNotify)mg_resolved_policy_free);
}

static void
mg_resolved_policy_fill(MgService *self,
			MgResolvedPolicy *r,
			NMConnection *connection,
			MgDeviceClass device_class)
{
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *text = NULL;

	mg_policy_clear(&r->policy);
	mg_profile_policy_full(
	    &self->rt.config, self->rt.catalogue, connection, device_class, &r->policy, problems);
	g_ptr_array_add(problems, NULL);
	text = problems->len > 1 ? g_strjoinv("\n", (char **)problems->pdata) : NULL;
	if (text != NULL && g_strcmp0(text, r->problems) != 0) {
		for (guint i = 0; i + 1 < problems->len; i++)
			g_warning("profile '%s': %s",
				  nm_connection_get_id(connection),
				  (const char *)g_ptr_array_index(problems, i));
	}
	g_free(r->problems);
	r->problems = g_steal_pointer(&text);
	r->device_class = device_class;
	r->stale = FALSE;
}

const MgPolicy *
mg_service_policy(MgService *self, NMConnection *connection, MgDeviceClass device_class)
{
	const char *uuid = nm_connection_get_uuid(connection);
	MgResolvedPolicy *r;

	/* NetworkManager never sends a profile without one; were it to, the
	 * profile is left alone. */
	if (uuid == NULL)
		return &self->policy_off;
	r = g_hash_table_lookup(self->policies, uuid);
	if (r == NULL) {
		r = g_new0(MgResolvedPolicy, 1);
		r->stale = TRUE;
		g_hash_table_insert(self->policies, g_strdup(uuid), r);
	}
	if (r->stale || r->device_class != device_class)
		mg_resolved_policy_fill(self, r, connection, device_class);
	return &r->policy;
}

void
mg_service_policy_changed(MgService *self, const char *uuid)
{
	GHashTableIter iter;
	MgResolvedPolicy *r;

	if (uuid != NULL) {
		r = g_hash_table_lookup(self->policies, uuid);
		if (r != NULL)
			r->stale = TRUE;
		return;
	}
	g_hash_table_iter_init(&iter, self->policies);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&r))
		r->stale = TRUE;
}

void
mg_service_policy_removed(MgService *self, const char *uuid)
{
	g_hash_table_remove(self->policies, uuid);
}
