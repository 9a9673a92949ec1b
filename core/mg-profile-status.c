/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-profile-status.h"

#include <string.h>

#include "mg-error.h"

static void
mg_status_add(GVariantBuilder *d, const char *key, GVariant *value)
{
	g_variant_builder_add(d, "{sv}", key, value);
}

/* The link checks' part: the last verdict, the last conflict, recovery. */
static void
mg_status_add_checks(GVariantBuilder *d, const MgProfileState *p)
{
	if (p->verdict != MG_VERDICT_NONE) {
		mg_status_add(d, "verdict", g_variant_new_string(mg_verdict_to_string(p->verdict)));
		mg_status_add(d, "evidence", g_variant_new_string(p->evidence));
		mg_status_add(d, "checked-at", g_variant_new_int64(p->checked_at));
	}
	if (p->conflict_at != 0) {
		mg_status_add(d, "conflict-at", g_variant_new_int64(p->conflict_at));
		mg_status_add(d, "conflict-evidence", g_variant_new_string(p->conflict_evidence));
	}
	if (p->recovery_attempts != 0 || p->recovery_failed) {
		mg_status_add(d, "recovery-attempts", g_variant_new_uint32(p->recovery_attempts));
		mg_status_add(d, "recovery-failed", g_variant_new_boolean(p->recovery_failed));
	}
	if (p->recognised_at != 0)
		mg_status_add(d, "recognised-at", g_variant_new_int64(p->recognised_at));
}

GVariant *
mg_profile_status_to_variant(const MgProfileStatus *status, const MgProfileState *p)
{
	GVariantBuilder d;

	g_variant_builder_init(&d, G_VARIANT_TYPE("a{sv}"));
	mg_status_add(&d, "uuid", g_variant_new_string(status->uuid));
	mg_status_add(&d, "id", g_variant_new_string(status->id));
	mg_status_add(
	    &d, "class", g_variant_new_string(mg_device_class_to_string(status->device_class)));
	mg_status_add(&d, "mode", g_variant_new_string(status->mode));
	mg_status_add(&d, "rotate", g_variant_new_string(status->rotate));
	mg_status_add(&d, "active", g_variant_new_boolean(status->active));
	mg_status_add(&d, "user-owned", g_variant_new_boolean(p != NULL && p->user_owned));
	mg_status_add(&d, "pending", g_variant_new_boolean(p != NULL && p->pending));
	if (p != NULL && p->has_address) {
		char mac[MG_MAC_STRLEN];
		mg_mac_format(&p->address, mac);
		mg_status_add(&d, "address", g_variant_new_string(mac));
		mg_status_add(&d, "assigned-at", g_variant_new_int64(p->assigned_at));
		mg_status_add(&d, "due-at", g_variant_new_int64(p->due_at));
		mg_status_add(&d, "generation", g_variant_new_uint64(p->generation));
		mg_status_add(&d, "conflicts", g_variant_new_uint32(p->conflicts));
	}
	if (p != NULL)
		mg_status_add_checks(&d, p);
	return g_variant_builder_end(&d);
}

/* @key's value in @value when it is there with @type, NULL when it is
 * absent; FALSE with @error when it is there with another type. */
static gboolean
mg_status_lookup(
    GVariantDict *d, const char *key, const GVariantType *type, GVariant **value, GError **error)
{
	*value = g_variant_dict_lookup_value(d, key, NULL);
	if (*value == NULL || g_variant_is_of_type(*value, type))
		return TRUE;
	g_set_error(error,
		    MG_ERROR,
		    MG_ERROR_STATE,
		    "status key '%s' is of type '%s', not '%s'",
		    key,
		    g_variant_get_type_string(*value),
		    g_variant_type_peek_string(type));
	g_clear_pointer(value, g_variant_unref);
	return FALSE;
}

/* Sets *@out from @key where it is there; returns FALSE from the calling
 * function when it is there with another type. */
#define MG_STATUS_GET(d, key, type, getter, out, error)                                            \
	G_STMT_START                                                                               \
	{                                                                                          \
		g_autoptr(GVariant) v_ = NULL;                                                     \
		if (!mg_status_lookup((d), (key), G_VARIANT_TYPE(type), &v_, (error)))             \
			return FALSE;                                                              \
		if (v_ != NULL)                                                                    \
			*(out) = getter(v_);                                                       \
	}                                                                                          \
	G_STMT_END

static const char *
mg_status_string(GVariant *v)
{
	return g_variant_get_string(v, NULL);
}

static gboolean
mg_status_read_checks(GVariantDict *d, MgProfileState *p, GError **error)
{
	const char *verdict = NULL, *evidence = NULL, *conflict_evidence = NULL;

	MG_STATUS_GET(d, "verdict", "s", mg_status_string, &verdict, error);
	MG_STATUS_GET(d, "evidence", "s", mg_status_string, &evidence, error);
	MG_STATUS_GET(d, "checked-at", "x", g_variant_get_int64, &p->checked_at, error);
	MG_STATUS_GET(d, "conflict-at", "x", g_variant_get_int64, &p->conflict_at, error);
	MG_STATUS_GET(d, "conflict-evidence", "s", mg_status_string, &conflict_evidence, error);
	MG_STATUS_GET(
	    d, "recovery-attempts", "u", g_variant_get_uint32, &p->recovery_attempts, error);
	MG_STATUS_GET(d, "recovery-failed", "b", g_variant_get_boolean, &p->recovery_failed, error);
	MG_STATUS_GET(d, "recognised-at", "x", g_variant_get_int64, &p->recognised_at, error);
	if (verdict != NULL && !mg_verdict_parse(verdict, &p->verdict)) {
		g_set_error(error, MG_ERROR, MG_ERROR_STATE, "unknown verdict '%s'", verdict);
		return FALSE;
	}
	g_free(p->evidence);
	p->evidence = g_strdup(evidence);
	g_free(p->conflict_evidence);
	p->conflict_evidence = g_strdup(conflict_evidence);
	return TRUE;
}

static gboolean
mg_status_read_state(GVariantDict *d, MgProfileState *p, GError **error)
{
	const char *address = NULL;

	MG_STATUS_GET(d, "user-owned", "b", g_variant_get_boolean, &p->user_owned, error);
	MG_STATUS_GET(d, "pending", "b", g_variant_get_boolean, &p->pending, error);
	MG_STATUS_GET(d, "address", "s", mg_status_string, &address, error);
	MG_STATUS_GET(d, "assigned-at", "x", g_variant_get_int64, &p->assigned_at, error);
	MG_STATUS_GET(d, "due-at", "x", g_variant_get_int64, &p->due_at, error);
	MG_STATUS_GET(d, "generation", "t", g_variant_get_uint64, &p->generation, error);
	MG_STATUS_GET(d, "conflicts", "u", g_variant_get_uint32, &p->conflicts, error);
	if (address != NULL) {
		if (!mg_mac_parse(address, &p->address, error))
			return FALSE;
		p->has_address = TRUE;
	}
	return mg_status_read_checks(d, p, error);
}

static gboolean
mg_status_read_identity(GVariantDict *d, MgProfileStatus *status, GError **error)
{
	const char *device_class = NULL;

	memset(status, 0, sizeof(*status));
	MG_STATUS_GET(d, "uuid", "s", mg_status_string, &status->uuid, error);
	MG_STATUS_GET(d, "id", "s", mg_status_string, &status->id, error);
	MG_STATUS_GET(d, "class", "s", mg_status_string, &device_class, error);
	MG_STATUS_GET(d, "mode", "s", mg_status_string, &status->mode, error);
	MG_STATUS_GET(d, "rotate", "s", mg_status_string, &status->rotate, error);
	MG_STATUS_GET(d, "active", "b", g_variant_get_boolean, &status->active, error);
	if (status->uuid == NULL || status->id == NULL || device_class == NULL ||
	    status->mode == NULL || status->rotate == NULL) {
		g_set_error_literal(
		    error, MG_ERROR, MG_ERROR_STATE, "a profile's status lacks its identity");
		return FALSE;
	}
	return mg_device_class_parse(device_class, &status->device_class, error);
}

gboolean
mg_profile_status_from_variant(GVariant *entry,
			       MgProfileStatus *status,
			       MgState *into,
			       GError **error)
{
	GVariantDict d;
	gboolean ok;

	g_return_val_if_fail(g_variant_is_of_type(entry, G_VARIANT_TYPE_VARDICT), FALSE);
	g_variant_dict_init(&d, entry);
	ok = mg_status_read_identity(&d, status, error) &&
	     mg_status_read_state(&d, mg_state_ensure_profile(into, status->uuid), error);
	g_variant_dict_clear(&d);
	return ok;
}
