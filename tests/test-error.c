/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise's errors: one stable id each for `--json`, and a D-Bus name
 * each, so that macguised's errors reach its callers as what they are. */
#include "config.h"

#include <gio/gio.h>

#include "mg-error.h"

static void
test_error_domain(void)
{
	g_assert_cmpstr(g_quark_to_string(MG_ERROR), ==, "macguise-error-quark");
}

static void
test_error_over_dbus(void)
{
	g_autoptr(GError) sent =
	    g_error_new_literal(MG_ERROR, MG_ERROR_NOT_FOUND, "no Ethernet or Wi-Fi profile 'x'");
	g_autofree char *name = g_dbus_error_encode_gerror(sent);
	g_autoptr(GError) received = NULL;

	g_assert_cmpstr(name, ==, "org.macguise.Error.NotFound");
	received = g_dbus_error_new_for_dbus_error(name, sent->message);
	g_assert_error(received, MG_ERROR, MG_ERROR_NOT_FOUND);
	g_assert_true(g_dbus_error_strip_remote_error(received));
	g_assert_cmpstr(received->message, ==, sent->message);
	g_assert_cmpstr(mg_error_id(received), ==, "not-found");
}

static void
test_error_ids(void)
{
	g_autoptr(GError) busy = g_error_new_literal(MG_ERROR, MG_ERROR_BUSY, "");
	g_autoptr(GError) denied =
	    g_error_new_literal(G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, "");
	g_autoptr(GError) file_denied = g_error_new_literal(G_FILE_ERROR, G_FILE_ERROR_ACCES, "");
	g_autoptr(GError) other = g_error_new_literal(G_IO_ERROR, G_IO_ERROR_FAILED, "");
	g_autoptr(GError) out_of_range = g_error_new_literal(MG_ERROR, 999, "");

	g_assert_cmpstr(mg_error_id(busy), ==, "busy");
	g_assert_cmpstr(mg_error_id(denied), ==, "permission-denied");
	g_assert_cmpstr(mg_error_id(file_denied), ==, "permission-denied");
	g_assert_cmpstr(mg_error_id(other), ==, "failed");
	g_assert_cmpstr(mg_error_id(out_of_range), ==, "failed");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/error/domain", test_error_domain);
	g_test_add_func("/error/dbus", test_error_over_dbus);
	g_test_add_func("/error/ids", test_error_ids);
	return g_test_run();
}
