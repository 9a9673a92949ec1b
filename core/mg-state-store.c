/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The state's directory: its key, the file written atomically and durably,
 * and what an unusable file leaves behind (redacted, set aside). */
#define G_LOG_DOMAIN "mg-state"

#include "config.h"

#include "mg-state-store.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sodium.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mg-error.h"
#include "mg-paths.h"
#include "mg-state-private.h"

void
mg_state_load_report_clear(MgStateLoadReport *report)
{
	g_clear_pointer(&report->moved_to, g_free);
	g_clear_pointer(&report->reason, g_free);
}

char *
mg_state_default_dir(void)
{
	return mg_systemd_directory("STATE_DIRECTORY", MG_STATE_DEFAULT_DIR);
}

static gboolean
mg_fsync_dir(const char *dir, GError **error)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int saved;

	if (fd < 0 || fsync(fd) < 0) {
		saved = errno;
		if (fd >= 0)
			close(fd);
		g_set_error(error,
			    G_FILE_ERROR,
			    g_file_error_from_errno(saved),
			    _("cannot sync directory %s: %s"),
			    dir,
			    g_strerror(saved));
		return FALSE;
	}
	close(fd);
	return TRUE;
}

static gboolean
mg_write_durably(const char *dir, const char *name, const char *data, gsize len, GError **error)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	if (!g_file_set_contents_full(path,
				      data,
				      (gssize)len,
				      G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
				      0600,
				      error))
		return FALSE;
	/* The rename itself is durable only once the directory is on disk. */
	return mg_fsync_dir(dir, error);
}

/* With @create, a missing key is made; without, it is G_FILE_ERROR_NOENT. */
static gboolean
mg_state_read_key(const char *dir, guint8 key[MG_STATE_KEY_BYTES], gboolean create, GError **error)
{
	g_autofree char *path = g_build_filename(dir, MG_STATE_KEY_FILE_NAME, NULL);
	g_autofree char *data = NULL;
	g_autoptr(GError) local = NULL;
	gsize len = 0;

	if (g_file_get_contents(path, &data, &len, &local)) {
		if (len != MG_STATE_KEY_BYTES) {
			sodium_memzero(data, len);
			g_set_error(error,
				    MG_ERROR,
				    MG_ERROR_STATE,
				    _("the secret key %s has %u bytes, not %d; it is left "
				      "as it is, because the reuse history depends on it"),
				    path,
				    (guint)MIN(len, G_MAXUINT),
				    MG_STATE_KEY_BYTES);
			return FALSE;
		}
		memcpy(key, data, MG_STATE_KEY_BYTES);
		sodium_memzero(data, len);
		return TRUE;
	}
	if (!create || !g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
		g_propagate_prefixed_error(
		    error, g_steal_pointer(&local), _("cannot read the secret key: "));
		return FALSE;
	}
	/* First start: a key of our own, from libsodium, readable by root only. */
	if (sodium_init() < 0) {
		g_set_error_literal(
		    error, MG_ERROR, MG_ERROR_RANDOMNESS, _("libsodium could not be initialised"));
		return FALSE;
	}
	randombytes_buf(key, MG_STATE_KEY_BYTES);
	if (!mg_write_durably(
		dir, MG_STATE_KEY_FILE_NAME, (const char *)key, MG_STATE_KEY_BYTES, error)) {
		g_prefix_error(error, _("cannot create the secret key: "));
		return FALSE;
	}
	return TRUE;
}

static int
mg_state_owner_lock_fail(int fd, const char *path, int err, GError **error)
{
	if (fd >= 0)
		(void)close(fd);
	g_set_error(error,
		    G_FILE_ERROR,
		    g_file_error_from_errno(err),
		    _("cannot lock %s: %s"),
		    path,
		    g_strerror(err));
	return -1;
}

int
mg_state_owner_lock(const char *dir, gboolean wait, GError **error)
{
	g_autofree char *path = g_build_filename(dir, MG_STATE_OWNER_LOCK_FILE, NULL);
	int fd;

	if (g_mkdir_with_parents(dir, 0700) < 0)
		return mg_state_owner_lock_fail(-1, dir, errno, error);
	/* Read-only is enough for flock(), and an existing file opens on a
	 * read-only mount too. flock(), not fcntl(): a lock of the open file,
	 * not of the process, so nothing else the owner opens and closes on
	 * this file can drop it. */
	fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return mg_state_owner_lock_fail(-1, path, errno, error);
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return fd;
	if (errno != EWOULDBLOCK)
		return mg_state_owner_lock_fail(fd, path, errno, error);
	if (!wait) {
		(void)close(fd);
		g_set_error(error,
			    MG_ERROR,
			    MG_ERROR_BUSY,
			    _("another process owns the state in %s (it holds %s)"),
			    dir,
			    path);
		return -1;
	}
	g_message("waiting for the state in %s: another process owns it (it holds %s)", dir, path);
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR)
			return mg_state_owner_lock_fail(fd, path, errno, error);
	}
	return fd;
}

/* g_file_set_contents() writes "state.XXXXXX" first; a writer killed in
 * between leaves one behind. Only the state's owner writes here (it holds
 * mg_state_owner_lock()), and only after loading, so any such file at load
 * time is stale: no other process can be writing it. */
static void
mg_state_remove_stale_temporaries(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;
	gsize base = strlen(MG_STATE_FILE_NAME ".");

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		if (g_str_has_prefix(name, MG_STATE_FILE_NAME ".") && strlen(name) == base + 6 &&
		    strchr(name + base, '-') == NULL) {
			g_autofree char *path = g_build_filename(dir, name, NULL);
			g_unlink(path);
		}
	}
}

/* How many characters from @p are hex pairs joined by ':' or '-' ("8c:f8"),
 * counting @pairs; the run must not go on into more hex. */
static gsize
mg_hex_pairs_at(const char *p, gsize left, guint *pairs)
{
	gsize n = 0;

	*pairs = 0;
	while (n + 2 <= left && g_ascii_isxdigit(p[n]) && g_ascii_isxdigit(p[n + 1]) &&
	       (n + 2 == left || !g_ascii_isxdigit(p[n + 2]))) {
		(*pairs)++;
		n += 2;
		if (n + 3 <= left && (p[n] == ':' || p[n] == '-') && g_ascii_isxdigit(p[n + 1]))
			n++;
		else
			break;
	}
	return n;
}

/* How many hex digits in a row start at @p. */
static gsize
mg_hex_run_at(const char *p, gsize left)
{
	gsize n = 0;

	while (n < left && g_ascii_isxdigit(p[n]))
		n++;
	return n;
}

/* A digest this long or longer (a history entry of an earlier version kept
 * 32 digits) keeps the 20 bits a history entry keeps now: with the key
 * beside it, the whole digest would give its address away. A boot id's
 * longest run is 12. */
#define MG_REDACT_DIGEST_RUN 16

char *
mg_state_redact(const char *text, gsize len)
{
	GString *out = g_string_sized_new(len);

	for (gsize i = 0; i < len;) {
		guint pairs = 0;
		gboolean starts = i == 0 || !g_ascii_isxdigit(text[i - 1]);
		gsize n = starts ? mg_hex_pairs_at(text + i, len - i, &pairs) : 0;
		gsize run = starts ? mg_hex_run_at(text + i, len - i) : 0;
		/* three pairs or more: an address, or what a cut left of one */
		if (pairs >= 3) {
			g_string_append(out, "xx:xx:xx:xx:xx:xx");
			i += n;
		} else if (run >= MG_REDACT_DIGEST_RUN) {
			g_string_append_len(out, text + i, MG_HISTORY_ENTRY_HEX);
			for (gsize k = MG_HISTORY_ENTRY_HEX; k < run; k++)
				g_string_append_c(out, 'x');
			i += run;
		} else {
			g_string_append_c(out, text[i] != '\0' ? text[i] : '?');
			i++;
		}
	}
	return g_string_free(out, FALSE);
}

/* Keeps an unusable state for the administrator as @moved_to, its MAC
 * addresses redacted, and removes it. */
static gboolean
mg_state_set_aside(const char *dir,
		   const char *path,
		   const char *text,
		   gsize len,
		   const char *moved_to,
		   GError **error)
{
	g_autofree char *redacted = mg_state_redact(text, len);
	g_autofree char *name = g_path_get_basename(moved_to);

	if (!mg_write_durably(dir, name, redacted, strlen(redacted), error))
		return FALSE;
	if (g_unlink(path) < 0) {
		int saved = errno;
		g_set_error(
		    error, G_FILE_ERROR, g_file_error_from_errno(saved), "%s", g_strerror(saved));
		return FALSE;
	}
	return TRUE;
}

/* Files set aside by an earlier version kept whole digests: they are
 * redacted again, as a file set aside now is. */
static void
mg_state_redact_set_aside(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		g_autofree char *path = NULL;
		g_autofree char *text = NULL;
		g_autofree char *redacted = NULL;
		gsize len = 0;

		if (!g_str_has_prefix(name, MG_STATE_FILE_NAME ".broken-"))
			continue;
		path = g_build_filename(dir, name, NULL);
		if (!g_file_get_contents(path, &text, &len, NULL))
			continue;
		redacted = mg_state_redact(text, len);
		if (strlen(redacted) != len || memcmp(redacted, text, len) != 0)
			(void)mg_write_durably(dir, name, redacted, strlen(redacted), NULL);
	}
}

MgState *
mg_state_load(const char *dir, MgStateLoadReport *report, GError **error)
{
	guint8 key[MG_STATE_KEY_BYTES];
	g_autofree char *path = g_build_filename(dir, MG_STATE_FILE_NAME, NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;
	g_autoptr(GError) aside = NULL;
	g_autoptr(GDateTime) now = NULL;
	g_autofree char *stamp = NULL;
	MgState *state;
	gsize len = 0;

	memset(report, 0, sizeof(*report));
	if (g_mkdir_with_parents(dir, 0700) < 0) {
		int saved = errno;
		g_set_error(error,
			    G_FILE_ERROR,
			    g_file_error_from_errno(saved),
			    _("cannot create %s: %s"),
			    dir,
			    g_strerror(saved));
		return NULL;
	}
	{
		/* The key and the history are root's alone, whoever made the
		 * directory before (a hand-made one, an image builder's). */
		struct stat st;
		if (stat(dir, &st) == 0 && st.st_uid == geteuid() && (st.st_mode & 0077) != 0 &&
		    chmod(dir, 0700) == 0)
			report->made_private = TRUE;
	}
	if (!mg_state_read_key(dir, key, TRUE, error))
		return NULL;
	mg_state_remove_stale_temporaries(dir);
	mg_state_redact_set_aside(dir);

	if (!g_file_get_contents(path, &text, &len, &local)) {
		if (!g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
			sodium_memzero(key, sizeof(key));
			g_propagate_prefixed_error(
			    error, g_steal_pointer(&local), _("cannot read the state: "));
			return NULL;
		}
		report->origin = MG_STATE_CREATED;
		state = mg_state_new_empty(key, sizeof(key));
		sodium_memzero(key, sizeof(key));
		return state;
	}
	state = mg_state_new_from_data(key, sizeof(key), text, len, &local);
	if (state != NULL) {
		sodium_memzero(key, sizeof(key));
		report->origin = MG_STATE_LOADED;
		return state;
	}

	/* Unusable: keep it for the administrator, start afresh, and say so. */
	now = g_date_time_new_now_utc();
	stamp = g_date_time_format(now, "%Y%m%dT%H%M%SZ");
	report->moved_to = g_strdup_printf("%s.broken-%s", path, stamp);
	for (guint i = 1; g_file_test(report->moved_to, G_FILE_TEST_EXISTS); i++) {
		g_free(report->moved_to);
		report->moved_to = g_strdup_printf("%s.broken-%s-%u", path, stamp, i);
	}
	if (!mg_state_set_aside(dir, path, text, len, report->moved_to, &aside)) {
		sodium_memzero(key, sizeof(key));
		g_set_error(error,
			    G_FILE_ERROR,
			    G_FILE_ERROR_FAILED,
			    _("the state %s is unusable (%s) and cannot be moved aside: %s"),
			    path,
			    local->message,
			    aside->message);
		mg_state_load_report_clear(report);
		return NULL;
	}
	report->origin = MG_STATE_RECOVERED;
	report->reason = g_strdup(local->message);
	state = mg_state_new_empty(key, sizeof(key));
	sodium_memzero(key, sizeof(key));
	return state;
}

MgState *
mg_state_read(const char *dir, GError **error)
{
	guint8 key[MG_STATE_KEY_BYTES];
	g_autofree char *path = g_build_filename(dir, MG_STATE_FILE_NAME, NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;
	MgState *state;
	gsize len = 0;

	if (!g_file_get_contents(path, &text, &len, &local)) {
		if (!g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
			g_propagate_prefixed_error(
			    error, g_steal_pointer(&local), _("cannot read the state: "));
			return NULL;
		}
		/* Nothing assigned yet; the key does not matter for an empty state. */
		memset(key, 0, sizeof(key));
		return mg_state_new_empty(key, sizeof(key));
	}
	if (!mg_state_read_key(dir, key, FALSE, error))
		return NULL;
	state = mg_state_new_from_data(key, sizeof(key), text, len, &local);
	sodium_memzero(key, sizeof(key));
	if (state == NULL)
		g_set_error(error,
			    MG_ERROR,
			    MG_ERROR_STATE,
			    _("the state %s is unusable (%s); macguised sets it aside when it "
			      "starts"),
			    path,
			    local->message);
	return state;
}

gboolean
mg_state_save(MgState *state, const char *dir, GError **error)
{
	gsize len = 0;
	g_autofree char *data = mg_state_to_data(state, &len);
	return mg_state_save_data(dir, data, len, error);
}

gboolean
mg_state_save_data(const char *dir, const char *data, gsize len, GError **error)
{
	if (!mg_write_durably(dir, MG_STATE_FILE_NAME, data, len, error)) {
		g_prefix_error(error, _("cannot save the state in %s: "), dir);
		return FALSE;
	}
	return TRUE;
}
