/* SPDX-License-Identifier: GPL-3.0-or-later */
/* GetStatus's entries: what macguised encodes, the command decodes to the
 * same, and what it cannot use it says so rather than guessing. */
#include "config.h"

#include "mg-error.h"
#include "mg-profile-status.h"

static const guint8 test_key[32] = { 1 };

#define UUID "1b4e28ba-2fa1-11d2-883f-0016d3cca427"

static void
test_status_round_trip(void)
{
	g_autoptr(MgState) sent = mg_state_new_empty(test_key, sizeof(test_key));
	g_autoptr(MgState) got = mg_state_new_empty(test_key, sizeof(test_key));
	MgProfileState *p = mg_state_ensure_profile(sent, UUID);
	MgProfileStatus status = { UUID, "Home", MG_DEVICE_CLASS_WIFI, "random", "daily", TRUE };
	MgProfileStatus back;
	const MgProfileState *q;
	g_autoptr(GVariant) entry = NULL;
	g_autoptr(GError) error = NULL;
	MgMac mac;

	g_assert_true(mg_mac_parse("00:1b:21:0a:0b:0c", &mac, NULL));
	mg_state_assign(sent, p, &mac, 1000, 87400, "b1");
	p->pending = TRUE;
	p->conflicts = 2;
	mg_state_record_verdict(p, MG_VERDICT_CONFLICT, "ARP reply", 1500);
	p->recovery_attempts = 1;
	p->recognised_at = 900;
	entry = g_variant_ref_sink(mg_profile_status_to_variant(&status, p));

	g_assert_true(mg_profile_status_from_variant(entry, &back, got, &error));
	g_assert_no_error(error);
	g_assert_cmpstr(back.uuid, ==, UUID);
	g_assert_cmpstr(back.id, ==, "Home");
	g_assert_cmpint(back.device_class, ==, MG_DEVICE_CLASS_WIFI);
	g_assert_cmpstr(back.mode, ==, "random");
	g_assert_cmpstr(back.rotate, ==, "daily");
	g_assert_true(back.active);
	q = mg_state_get_profile(got, UUID);
	g_assert_nonnull(q);
	g_assert_true(q->has_address && mg_mac_equal(&q->address, &mac));
	g_assert_cmpint(q->assigned_at, ==, 1000);
	g_assert_cmpint(q->due_at, ==, 87400);
	g_assert_cmpuint(q->generation, ==, p->generation);
	g_assert_cmpuint(q->conflicts, ==, 2);
	g_assert_true(q->pending);
	g_assert_false(q->user_owned);
	g_assert_cmpint(q->verdict, ==, MG_VERDICT_CONFLICT);
	g_assert_cmpstr(q->evidence, ==, "ARP reply");
	g_assert_cmpint(q->checked_at, ==, 1500);
	g_assert_cmpint(q->conflict_at, ==, 1500);
	g_assert_cmpstr(q->conflict_evidence, ==, "ARP reply");
	g_assert_cmpuint(q->recovery_attempts, ==, 1);
	g_assert_cmpint(q->recognised_at, ==, 900);
}

static void
test_status_without_state(void)
{
	g_autoptr(MgState) got = mg_state_new_empty(test_key, sizeof(test_key));
	MgProfileStatus status = { UUID, "Wired", MG_DEVICE_CLASS_ETHERNET, "off", "never", FALSE };
	MgProfileStatus back;
	g_autoptr(GVariant) entry = g_variant_ref_sink(mg_profile_status_to_variant(&status, NULL));
	const MgProfileState *q;

	g_assert_true(mg_profile_status_from_variant(entry, &back, got, NULL));
	q = mg_state_get_profile(got, UUID);
	g_assert_false(q->has_address);
	g_assert_cmpint(q->verdict, ==, MG_VERDICT_NONE);
	g_assert_null(q->evidence);
}

static GVariant *
test_status_parse(const char *text)
{
	g_autoptr(GError) error = NULL;
	GVariant *v = g_variant_parse(G_VARIANT_TYPE_VARDICT, text, NULL, NULL, &error);

	g_assert_no_error(error);
	return v; /* g_variant_parse's result is not floating */
}

static void
test_status_unusable(void)
{
	static const char *const bad[] = {
		/* no identity */
		"{'address': <'00:1b:21:0a:0b:0c'>}",
		/* a known key of the wrong type */
		"{'uuid': <'" UUID "'>, 'id': <'x'>, 'class': <'wifi'>, 'mode': <'random'>, "
		"'rotate': <'daily'>, 'due-at': <'tomorrow'>}",
		/* not an address */
		"{'uuid': <'" UUID "'>, 'id': <'x'>, 'class': <'wifi'>, 'mode': <'random'>, "
		"'rotate': <'daily'>, 'address': <'router'>}",
		/* no such class, no such verdict */
		"{'uuid': <'" UUID "'>, 'id': <'x'>, 'class': <'modem'>, 'mode': <'random'>, "
		"'rotate': <'daily'>}",
		"{'uuid': <'" UUID "'>, 'id': <'x'>, 'class': <'wifi'>, 'mode': <'random'>, "
		"'rotate': <'daily'>, 'verdict': <'fine'>}",
	};

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(MgState) got = mg_state_new_empty(test_key, sizeof(test_key));
		g_autoptr(GVariant) entry = test_status_parse(bad[i]);
		g_autoptr(GError) error = NULL;
		MgProfileStatus back;

		g_assert_false(mg_profile_status_from_variant(entry, &back, got, &error));
		g_assert_nonnull(error);
		g_assert_true(error->domain == MG_ERROR);
		/* unusable whether or not the caller wants to know why */
		g_assert_false(mg_profile_status_from_variant(entry, &back, got, NULL));
	}
}

static void
test_status_newer_keys_ignored(void)
{
	g_autoptr(MgState) got = mg_state_new_empty(test_key, sizeof(test_key));
	g_autoptr(GVariant) entry = test_status_parse(
	    "{'uuid': <'" UUID "'>, 'id': <'x'>, 'class': <'ap'>, 'mode': <'stable'>, "
	    "'rotate': <'weekly'>, 'something-new': <uint32 7>}");
	MgProfileStatus back;

	g_assert_true(mg_profile_status_from_variant(entry, &back, got, NULL));
	g_assert_cmpint(back.device_class, ==, MG_DEVICE_CLASS_AP);
	g_assert_false(back.active);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/profile-status/round-trip", test_status_round_trip);
	g_test_add_func("/profile-status/without-state", test_status_without_state);
	g_test_add_func("/profile-status/unusable", test_status_unusable);
	g_test_add_func("/profile-status/newer-keys", test_status_newer_keys_ignored);
	return g_test_run();
}
