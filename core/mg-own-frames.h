/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The machine's own broadcast and multicast frames of the last two
 * seconds, as far as they are compared, to tell a copy of one from another
 * station's frame: a Wi-Fi access point repeats a station's group-addressed
 * frames to every station, the sender too, with the sender's address. Both
 * the pre-up check and macguised's watch after it read the link through a
 * packet socket that lets the machine's own frames through, note them here
 * and ask here about each frame received with the watched address. */

#define MG_OWN_FRAMES_KEPT 64
#define MG_OWN_FRAME_BYTES 64
#define MG_OWN_FRAMES_FOR_US (2 * G_USEC_PER_SEC)

typedef struct {
	guint8 frame[MG_OWN_FRAME_BYTES];
	gsize len;
	gint64 at;
} MgOwnFrame;

typedef struct {
	MgOwnFrame kept[MG_OWN_FRAMES_KEPT];
	guint next;
} MgOwnFrames;

/* Notes a frame the machine sent at @now (g_get_monotonic_time()): only a
 * group-addressed one is ever repeated back. */
void mg_own_frames_note(MgOwnFrames *own, const guint8 *frame, gsize len, gint64 now);
/* Whether @frame, received at @now, is a copy of one noted within
 * MG_OWN_FRAMES_FOR_US: the same bytes as far as both go (an access point
 * may pad a short frame), and at least the Ethernet header. */
gboolean mg_own_frames_is_copy(const MgOwnFrames *own, const guint8 *frame, gsize len, gint64 now);

G_END_DECLS
