/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mg-state.h"

G_BEGIN_DECLS

/* The state's directory: the secret key and the state file. */
#define MG_STATE_FILE_NAME "state"
#define MG_STATE_KEY_FILE_NAME "secret.key"
#define MG_STATE_DEFAULT_DIR "/var/lib/macguise"
/* The state's one owner holds this file's lock (mg_state_owner_lock()). */
#define MG_STATE_OWNER_LOCK_FILE "owner.lock"

typedef enum {
	MG_STATE_LOADED,    /* the file was read */
	MG_STATE_CREATED,   /* there was none: a fresh state */
	MG_STATE_RECOVERED, /* it was unusable: moved aside, a fresh state */
} MgStateOrigin;

typedef struct {
	MgStateOrigin origin;
	char *moved_to;        /* for MG_STATE_RECOVERED: where the old file is now */
	char *reason;          /* for MG_STATE_RECOVERED: why it was unusable */
	gboolean made_private; /* the directory was open to others; now 0700 */
} MgStateLoadReport;

void mg_state_load_report_clear(MgStateLoadReport *report);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(MgStateLoadReport, mg_state_load_report_clear)

/* The file edge: $STATE_DIRECTORY (its first entry) or /var/lib/macguise. */
char *mg_state_default_dir(void);
/* The state has one owner at a time: macguised for its whole life, or the
 * boot step while it runs. Each loads the state once, saves over it, and
 * removes the temporaries a killed writer left (which are only stale if no
 * other owner is writing), so a second one would undo the first's changes
 * and could delete its save under way. The owner holds an exclusive flock()
 * on MG_STATE_OWNER_LOCK_FILE in @dir (made 0700 if missing) from before
 * mg_state_load() until its last save; closing the descriptor, or the
 * process ending however it ends, lets it go. Returns the descriptor (close
 * on exec). With @wait, it waits for the holder to let go; without, a held
 * lock is MG_ERROR_BUSY at once. */
int mg_state_owner_lock(const char *dir, gboolean wait, GError **error);
/* Reads (or creates, 0600) the secret key and reads the state file. A missing
 * file gives a fresh state; an unusable one (garbled, truncated, wrongly
 * typed, a newer format, another key) is renamed to
 * "state.broken-YYYYMMDDTHHMMSSZ", reported in @report, and a fresh state is
 * used. A file that cannot be read at all is an error, never a reset. The
 * caller holds mg_state_owner_lock() on @dir. */
MgState *mg_state_load(const char *dir, MgStateLoadReport *report, GError **error);
/* @text with every MAC address in it (pairs of hex digits joined by ':' or
 * '-'), and what a cut left of one (three pairs or more), replaced by
 * "xx:xx:xx:xx:xx:xx": what an unusable state keeps when it is set aside, so
 * that no earlier address stays at rest in plain text. */
char *mg_state_redact(const char *text, gsize len);
/* For readers other than macguised: changes nothing on disk. A missing file
 * is an empty state; an unusable one, or a missing key, is an error. */
MgState *mg_state_read(const char *dir, GError **error);
/* Atomic and durable: temporary file, fsync, rename, fsync of the directory. */
gboolean mg_state_save(MgState *state, const char *dir, GError **error);
/* The same for a state already turned into text (mg_state_to_data()): it
 * touches nothing but its arguments and the disk, so it may run on another
 * thread while the state changes. */
gboolean mg_state_save_data(const char *dir, const char *data, gsize len, GError **error);

G_END_DECLS
