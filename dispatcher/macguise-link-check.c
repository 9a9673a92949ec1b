/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise-link-check: the pre-up hook's checker. NetworkManager's
 * dispatcher runs the hook (macguise-pre-up, which hands over to this) when a
 * link is up with its new address, before the connection counts as
 * activated, and waits for it. For a profile macguised manages, it checks for a bounded
 * window that no other station on the link uses the address and reports
 * the verdict to macguised, which re-assigns on a conflict. It never fails
 * the activation (NetworkManager ignores the exit status anyway) and never
 * logs an address at the default level. */
#define G_LOG_DOMAIN "macguise-pre-up"

#include "config.h"

#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <sodium.h>
#include <string.h>
#include <unistd.h> /* environ, with _GNU_SOURCE */

#include "mg-hook-env.h"
#include "mg-link-check.h"
#include "mg-link.h"
#include "mg-probe.h"
#include "mg-verdict.h"

/* Each D-Bus call may take this long: macguised answers from memory, so
 * a slower answer means it is stuck, and activation must not wait on it. */
#define MG_HOOK_CALL_TIMEOUT_MS 250

typedef struct {
	GDBusConnection *bus;
	const MgHookRequest *request;
	char *address;
	gint64 started;
	guint frames_read;
	/* Read, and watched, before macguised is asked: the window runs while
	 * the question does. */
	MgLinkInfo before;
	GError *link_error;    /* the link could not be read */
	MgLinkCheck *watching; /* NULL: see watch_error */
	GError *watch_error;
} MgHook;

/* After a clean verdict, the packet socket goes to macguised, which keeps
 * watching with it (passive-watch-s): no gap between the window and the
 * watch, and macguised needs no right to open one. */
static gboolean
mg_hook_hand_over(MgHook *hook, GError **error)
{
	g_autoptr(GDBusMessage) message = NULL;
	g_autoptr(GUnixFDList) fds = NULL;
	MgMac mac;
	int fd;

	if (hook->watching == NULL) {
		g_set_error_literal(
		    error, G_IO_ERROR, G_IO_ERROR_CLOSED, "the link was not watched");
		return FALSE;
	}
	if (!mg_mac_parse(hook->address, &mac, error))
		return FALSE;
	fd = mg_link_check_steal_socket(hook->watching, &mac, error);
	if (fd < 0)
		return FALSE;
	fds = g_unix_fd_list_new_from_array(&fd, 1); /* takes the socket */
	message = g_dbus_message_new_method_call(
	    MG_DBUS_NAME, MG_DBUS_PATH, MG_DBUS_INTERFACE, "WatchLink");
	g_dbus_message_set_body(
	    message,
	    g_variant_new("(sssh)", hook->request->uuid, hook->request->iface, hook->address, 0));
	g_dbus_message_set_unix_fd_list(message, fds);
	g_dbus_message_set_flags(
	    message, G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED | G_DBUS_MESSAGE_FLAGS_NO_AUTO_START);
	return g_dbus_connection_send_message(
	    hook->bus, message, G_DBUS_SEND_MESSAGE_FLAGS_NONE, NULL, error);
}

/* A clean verdict is sent without waiting for macguised's answer (it
 * only records it): NetworkManager waits for this process, and a round
 * trip to macguised would add to every activation. The messages are flushed
 * to the bus before the process ends. Any other verdict waits for what
 * macguised does about it, for the log. */
static gboolean
mg_hook_send(MgHook *hook, GVariant *parameters, MgVerdict verdict, char **outcome, GError **error)
{
	g_autoptr(GDBusMessage) message = NULL;
	g_autoptr(GVariant) ret = NULL;
	g_autoptr(GError) handover_error = NULL;

	if (verdict != MG_VERDICT_CLEAN) {
		ret = g_dbus_connection_call_sync(hook->bus,
						  MG_DBUS_NAME,
						  MG_DBUS_PATH,
						  MG_DBUS_INTERFACE,
						  "ReportVerdict",
						  parameters,
						  G_VARIANT_TYPE("(s)"),
						  G_DBUS_CALL_FLAGS_NO_AUTO_START,
						  MG_HOOK_CALL_TIMEOUT_MS,
						  NULL,
						  error);
		if (ret != NULL)
			g_variant_get(ret, "(s)", outcome);
		return ret != NULL;
	}
	message = g_dbus_message_new_method_call(
	    MG_DBUS_NAME, MG_DBUS_PATH, MG_DBUS_INTERFACE, "ReportVerdict");
	g_dbus_message_set_body(message, parameters);
	g_dbus_message_set_flags(
	    message, G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED | G_DBUS_MESSAGE_FLAGS_NO_AUTO_START);
	if (!g_dbus_connection_send_message(
		hook->bus, message, G_DBUS_SEND_MESSAGE_FLAGS_NONE, NULL, error))
		return FALSE;
	/* The verdict goes out whatever becomes of the watch after it. */
	if (!mg_hook_hand_over(hook, &handover_error))
		g_debug("%s: no passive watch after the check: %s",
			hook->request->iface,
			handover_error->message);
	if (!g_dbus_connection_flush_sync(hook->bus, NULL, error))
		return FALSE;
	/* TRANSLATORS: what macguised did with a clean verdict: it was sent,
	 * no answer awaited */
	*outcome = g_strdup(_("told"));
	return TRUE;
}

static void
mg_hook_report(MgHook *hook, MgVerdict verdict, const char *evidence)
{
	g_autofree char *clean = mg_evidence_sanitize(evidence);
	guint elapsed_ms = (guint)((g_get_monotonic_time() - hook->started) / 1000);
	g_autoptr(GError) error = NULL;
	g_autofree char *outcome = NULL;
	g_autofree char *read = NULL;
	GVariant *parameters = g_variant_new("(sssssu)",
					     hook->request->uuid,
					     hook->request->iface,
					     hook->address,
					     mg_verdict_to_string(verdict),
					     clean,
					     elapsed_ms);

	if (!mg_hook_send(hook, parameters, verdict, &outcome, &error)) {
		g_warning(_("%s: cannot tell macguised the verdict (%s): %s"),
			  hook->request->iface,
			  mg_verdict_to_string(verdict),
			  error->message);
		return;
	}
	read = g_strdup_printf(
	    g_dngettext(GETTEXT_PACKAGE, "%u frame read", "%u frames read", hook->frames_read),
	    hook->frames_read);
	g_message(_("%s: link check %s after %u ms, %s (%s); macguised: %s"),
		  hook->request->iface,
		  mg_verdict_to_string(verdict),
		  elapsed_ms,
		  read,
		  clean,
		  outcome);
}

/* Asks macguised whether it manages the profile, and with which address,
 * window and probes. FALSE: nothing to do. */
static gboolean
mg_hook_ask(MgHook *hook, guint *window_ms, MgProbeKinds *kinds)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) ret = NULL;
	gboolean managed = FALSE;
	const char *probes = NULL;

	ret = g_dbus_connection_call_sync(hook->bus,
					  MG_DBUS_NAME,
					  MG_DBUS_PATH,
					  MG_DBUS_INTERFACE,
					  "GetLinkCheck",
					  g_variant_new("(s)", hook->request->uuid),
					  G_VARIANT_TYPE("(bsus)"),
					  G_DBUS_CALL_FLAGS_NO_AUTO_START,
					  MG_HOOK_CALL_TIMEOUT_MS,
					  NULL,
					  &error);
	if (ret == NULL) {
		if (g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
		    g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER))
			g_message(_("%s: macguised is not running; the link is not checked"),
				  hook->request->iface);
		else
			g_warning(_("%s: cannot ask macguised about the profile: %s"),
				  hook->request->iface,
				  error->message);
		return FALSE;
	}
	g_variant_get(ret, "(b&su&s)", &managed, &hook->address, window_ms, &probes);
	hook->address = g_strdup(hook->address);
	if (!managed)
		return FALSE;
	if (!mg_probe_kinds_parse(probes, kinds, &error)) {
		g_warning("%s: macguised: %s", hook->request->iface, error->message);
		return FALSE;
	}
	return TRUE;
}

/* The link as it is, and a packet socket watching for its address. */
static void
mg_hook_start_watching(MgHook *hook)
{
	if (!mg_link_read(hook->request->iface, &hook->before, &hook->link_error))
		return;
	hook->watching = mg_link_check_open(
	    hook->before.ifindex, &hook->before.mac, hook->started, &hook->watch_error);
}

static void
mg_hook_check(MgHook *hook, guint window_ms, MgProbeKinds kinds)
{
	const MgHookRequest *req = hook->request;
	const MgLinkInfo *before = &hook->before;
	g_autoptr(GError) error = NULL;
	g_autofree char *evidence = NULL;
	MgProbeTarget target;
	MgProbeTally tally = { 0 };
	MgLinkInfo after;
	MgVerdict verdict;
	MgMac expected;

	if (window_ms == 0 || kinds == 0) {
		mg_hook_report(
		    hook, MG_VERDICT_UNCHECKED, _("the link check is off in macguise.conf"));
		return;
	}
	if (!mg_mac_parse(hook->address, &expected, &error)) {
		mg_hook_report(hook, MG_VERDICT_UNCHECKED, error->message);
		return;
	}
	if (hook->link_error != NULL) {
		mg_hook_report(hook, MG_VERDICT_UNCHECKED, hook->link_error->message);
		return;
	}
	if (!mg_mac_equal(&before->mac, &expected)) {
		mg_hook_report(
		    hook, MG_VERDICT_UNCHECKED, _("the link does not use the profile's address"));
		return;
	}
	if (hook->watching == NULL) {
		mg_hook_report(hook, MG_VERDICT_UNCHECKED, hook->watch_error->message);
		return;
	}
	if (sodium_init() < 0) {
		mg_hook_report(hook, MG_VERDICT_UNCHECKED, _("no source of randomness"));
		return;
	}
	mg_probe_target_init(&target, &expected);
	randombytes_buf(target.nonce, sizeof(target.nonce));
	for (guint i = 0; i < req->n_ipv4; i++)
		mg_probe_target_add_ipv4(&target, req->ipv4[i]);
	for (guint i = 0; i < before->n_ipv4; i++)
		mg_probe_target_add_ipv4(&target, before->ipv4[i]);
	g_debug("%s: checking %s, %u IPv4 address(es), for %u ms",
		req->iface,
		hook->address,
		target.n_ipv4,
		window_ms);
	if (!mg_link_check_finish(hook->watching, &target, kinds, window_ms, &tally, &error)) {
		mg_hook_report(hook, MG_VERDICT_UNCHECKED, error->message);
		return;
	}
	/* The kernel's own duplicate address detection, as far as it got. */
	if (mg_link_read(req->iface, &after, NULL)) {
		tally.kernel_dad_failed = before->dad_failed_eui64 || after.dad_failed_eui64;
		tally.kernel_dad_failed_other = before->dad_failed_other || after.dad_failed_other;
	}
	hook->frames_read = tally.frames_read;
	verdict = mg_probe_tally_verdict(&tally, kinds, target.n_ipv4, window_ms, &evidence);
	mg_hook_report(hook, verdict, evidence);
}

/* The verdict's log line needs the locale's character set and the time
 * zone: loaded now, while the window has time to spare, not after it while
 * NetworkManager waits. */
static void
mg_hook_warm_up_logging(void)
{
	GDateTime *now = g_date_time_new_now_local();

	g_date_time_unref(now);
	(void)g_get_charset(NULL);
}

int
main(int argc, char **argv)
{
	MgHookRequest request;
	MgHook hook = { .started = g_get_monotonic_time(), .request = &request };
	g_autoptr(GError) error = NULL;
	guint window_ms = 0;
	MgProbeKinds kinds = 0;

	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE, LOCALEDIR);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		g_print(
		    _("Usage: %s IFACE ACTION\n"
		      "NetworkManager's dispatcher runs this pre-up hook; it is not meant to "
		      "be run by hand.\nFor a profile macguised manages, it checks that no other "
		      "station on IFACE uses the profile's address and tells macguised.\n"),
		    argv[0]);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		g_print("macguise-pre-up %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (!mg_hook_request_parse(
		&request, argc, (const char *const *)argv, (const char *const *)environ, &error)) {
		g_warning(_("ignoring this event: %s"), error->message);
		mg_hook_request_clear(&request);
		return 0;
	}
	/* The fast path: anything but a device's pre-up with a profile. */
	if (!mg_hook_request_wants_check(&request) || request.uuid == NULL) {
		mg_hook_request_clear(&request);
		return 0;
	}
	/* The window counts from the hook's start, when the front noted it
	 * (a note from the future, or over a second old, is not believed). */
	if (request.started_us > 0 && request.started_us <= hook.started &&
	    hook.started - request.started_us < G_USEC_PER_SEC)
		hook.started = request.started_us;
	mg_hook_start_watching(&hook);
	mg_hook_warm_up_logging();
	hook.bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, &error);
	if (hook.bus == NULL) {
		g_message(_("%s: no system bus (%s); the link is not checked"),
			  request.iface,
			  error->message);
	} else if (mg_hook_ask(&hook, &window_ms, &kinds)) {
		/* GIO flushes a D-Bus connection on a pool thread, which the
		 * first flush starts: started now, inside the window, the
		 * verdict's flush after it finds that thread waiting. */
		g_dbus_connection_flush(hook.bus, NULL, NULL, NULL);
		mg_hook_check(&hook, window_ms, kinds);
	}
	g_clear_object(&hook.bus);
	g_clear_pointer(&hook.watching, mg_link_check_free);
	g_clear_error(&hook.link_error);
	g_clear_error(&hook.watch_error);
	g_free(hook.address);
	mg_hook_request_clear(&request);
	return 0;
}
