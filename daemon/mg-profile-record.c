/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-profile-record.h"

#include <string.h>

#include "mg-reconcile.h"

struct _MgProfileRecords {
	GHashTable *by_uuid; /* UUID -> MgProfileRecord (the key is its uuid) */
	GDestroyNotify watch_free;
	guint in_flight; /* records with in_flight set */
	GQueue deferred; /* UUIDs of records whose write waits, oldest first */
};

static void
mg_profile_record_free(MgProfileRecords *records, MgProfileRecord *r)
{
	if (r->watch != NULL && records->watch_free != NULL)
		records->watch_free(r->watch);
	g_free(r->active_path);
	g_free(r->reactivate_iface);
	mg_policy_clear(&r->policy);
	g_free(r->policy_problems);
	g_clear_object(&r->deferred);
	g_free(r->uuid);
	g_free(r);
}

MgProfileRecords *
mg_profile_records_new(GDestroyNotify watch_free)
{
	MgProfileRecords *records = g_new0(MgProfileRecords, 1);

	records->by_uuid = g_hash_table_new(g_str_hash, g_str_equal);
	records->watch_free = watch_free;
	g_queue_init(&records->deferred);
	return records;
}

void
mg_profile_records_free(MgProfileRecords *records)
{
	GHashTableIter iter;
	MgProfileRecord *r;

	if (records == NULL)
		return;
	g_hash_table_iter_init(&iter, records->by_uuid);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&r))
		mg_profile_record_free(records, r);
	g_hash_table_unref(records->by_uuid);
	g_queue_clear_full(&records->deferred, g_free);
	g_free(records);
}

MgProfileRecord *
mg_profile_records_get(MgProfileRecords *records, const char *uuid)
{
	return uuid != NULL ? g_hash_table_lookup(records->by_uuid, uuid) : NULL;
}

MgProfileRecord *
mg_profile_records_get_since(MgProfileRecords *records, const char *uuid, guint departures)
{
	MgProfileRecord *r = mg_profile_records_get(records, uuid);

	return r != NULL && r->departures == departures ? r : NULL;
}

MgProfileRecord *
mg_profile_records_ensure(MgProfileRecords *records, const char *uuid)
{
	MgProfileRecord *r = g_hash_table_lookup(records->by_uuid, uuid);

	if (r != NULL) {
		r->leaving = FALSE; /* the profile is back */
		return r;
	}
	r = g_new0(MgProfileRecord, 1);
	r->uuid = g_strdup(uuid);
	r->policy_stale = TRUE;
	mg_policy_init_default(&r->policy);
	g_hash_table_insert(records->by_uuid, r->uuid, r);
	return r;
}

/* Everything but its identity and its write under way, as new. */
static void
mg_profile_record_empty(MgProfileRecords *records, MgProfileRecord *r)
{
	mg_profile_records_set_watch(records, r, NULL);
	g_clear_pointer(&r->active_path, g_free);
	g_clear_pointer(&r->reactivate_iface, g_free);
	g_clear_pointer(&r->policy_problems, g_free);
	g_clear_object(&r->deferred);
	mg_policy_clear(&r->policy);
	mg_policy_init_default(&r->policy);
	r->unchecked = r->unsettled = r->settling = r->has_drawn = r->published = FALSE;
	r->gate_attempts = r->failures = 0;
	r->retry_at = r->wake_at = 0;
	r->policy_stale = TRUE;
}

void
mg_profile_records_remove(MgProfileRecords *records, const char *uuid)
{
	MgProfileRecord *r = mg_profile_records_get(records, uuid);

	if (r == NULL)
		return;
	if (r->in_flight) {
		mg_profile_record_empty(records, r);
		r->leaving = TRUE;
		r->departures++;
		return;
	}
	/* (its queue entry, if any, finds no record and is dropped) */
	g_hash_table_remove(records->by_uuid, uuid);
	mg_profile_record_free(records, r);
}

void
mg_profile_records_iter_init(MgProfileRecords *records, GHashTableIter *iter)
{
	g_hash_table_iter_init(iter, records->by_uuid);
}

guint
mg_profile_records_in_flight(MgProfileRecords *records)
{
	return records->in_flight;
}

void
mg_profile_records_set_in_flight(MgProfileRecords *records, MgProfileRecord *r, gboolean in_flight)
{
	if (r->in_flight == in_flight)
		return;
	r->in_flight = in_flight;
	if (in_flight)
		records->in_flight++;
	else
		records->in_flight--;
}

void
mg_profile_records_landed(MgProfileRecords *records, const char *uuid)
{
	MgProfileRecord *r = mg_profile_records_get(records, uuid);

	if (r == NULL)
		return;
	mg_profile_records_set_in_flight(records, r, FALSE);
	if (r->leaving)
		mg_profile_records_remove(records, uuid);
}

void
mg_profile_records_defer(MgProfileRecords *records, MgProfileRecord *r, GObject *connection)
{
	if (r->deferred != NULL)
		return;
	r->deferred = g_object_ref(connection);
	g_queue_push_tail(&records->deferred, g_strdup(r->uuid));
}

GObject *
mg_profile_records_next_deferred(MgProfileRecords *records)
{
	while (!g_queue_is_empty(&records->deferred)) {
		g_autofree char *uuid = g_queue_pop_head(&records->deferred);
		MgProfileRecord *r = mg_profile_records_get(records, uuid);
		/* (none: the profile left meanwhile) */
		if (r != NULL && r->deferred != NULL)
			return g_steal_pointer(&r->deferred);
	}
	return NULL;
}

void
mg_profile_record_reactivate_on(MgProfileRecord *r, const char *iface)
{
	g_free(r->reactivate_iface);
	r->reactivate_iface = g_strdup(iface);
}

void
mg_profile_record_write_ok(MgProfileRecord *r)
{
	r->failures = 0;
	r->retry_at = 0;
	r->has_drawn = FALSE;
	memset(&r->drawn, 0, sizeof(r->drawn));
}

void
mg_profile_records_set_watch(MgProfileRecords *records, MgProfileRecord *r, gpointer watch)
{
	gpointer old = r->watch;

	r->watch = watch;
	if (old != NULL && old != watch && records->watch_free != NULL)
		records->watch_free(old);
}

void
mg_profile_records_nm_left(MgProfileRecords *records)
{
	GHashTableIter iter;
	MgProfileRecord *r;

	g_hash_table_iter_init(&iter, records->by_uuid);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&r)) {
		/* (one still awaited from an earlier start stays awaited) */
		r->taking_up |= r->active_path != NULL;
		g_clear_pointer(&r->active_path, g_free);
		r->unchecked = FALSE;
		mg_profile_records_set_watch(records, r, NULL);
		/* its successor fetches every profile afresh, and decides
		 * every one, those that waited for room too */
		r->unsettled = FALSE;
		r->settling = FALSE;
		g_clear_object(&r->deferred);
		r->policy_stale = TRUE;
	}
	g_queue_clear_full(&records->deferred, g_free);
}

guint
mg_profile_records_taking_up(MgProfileRecords *records, gboolean release)
{
	GHashTableIter iter;
	MgProfileRecord *r;
	guint n = 0;

	g_hash_table_iter_init(&iter, records->by_uuid);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&r)) {
		n += r->taking_up ? 1 : 0;
		r->taking_up = r->taking_up && !release;
	}
	return n;
}

gboolean
mg_profile_record_is_valid(const MgProfileRecord *r, GString *why)
{
	const char *broken = NULL;

	if (r->uuid == NULL)
		broken = "no UUID";
	else if (r->unchecked && r->active_path == NULL)
		broken = "an activation to check, but none is up";
	else if (r->taking_up && r->active_path != NULL)
		broken = "awaited as being taken up again, though it is up";
	else if ((r->failures == 0) != (r->retry_at == 0))
		broken = "a retry time without failures, or failures without one";
	else if (r->has_drawn &&
		 (!mg_mac_is_global_unicast(&r->drawn) || mg_mac_is_zero(&r->drawn)))
		broken = "a drawn address that is not a globally administered unicast one";
	else if (r->gate_attempts > MG_RECONCILE_MAX_GATE)
		broken = "more re-activations for its link than the gate allows";
	else if (r->wake_at < 0)
		broken = "a wake-up before the epoch";
	else if (r->leaving && !r->in_flight)
		broken = "left, with no write under way to wait for";
	if (broken != NULL && why != NULL)
		g_string_append(why, broken);
	return broken == NULL;
}

gboolean
mg_profile_records_are_valid(MgProfileRecords *records, GString *why)
{
	GHashTableIter iter;
	MgProfileRecord *r;
	guint in_flight = 0, deferred = 0;

	g_hash_table_iter_init(&iter, records->by_uuid);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&r)) {
		if (!mg_profile_record_is_valid(r, why)) {
			if (why != NULL)
				g_string_append_printf(why, " (%s)", r->uuid);
			return FALSE;
		}
		in_flight += r->in_flight ? 1 : 0;
		deferred += r->deferred != NULL ? 1 : 0;
	}
	if (in_flight != records->in_flight) {
		if (why != NULL)
			g_string_append_printf(why,
					       "%u profiles have a write under way, %u counted",
					       in_flight,
					       records->in_flight);
		return FALSE;
	}
	if (deferred > g_queue_get_length(&records->deferred)) {
		if (why != NULL)
			g_string_append_printf(why,
					       "%u profiles wait for room, %u queued",
					       deferred,
					       g_queue_get_length(&records->deferred));
		return FALSE;
	}
	return TRUE;
}
