/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-own-frames.h"

#include <string.h>

#define MG_ETH_HEADER 14

void
mg_own_frames_note(MgOwnFrames *own, const guint8 *frame, gsize len, gint64 now)
{
	MgOwnFrame *f;

	if (len < MG_ETH_HEADER || (frame[0] & 1) == 0)
		return;
	f = &own->kept[own->next++ % MG_OWN_FRAMES_KEPT];
	f->len = MIN(len, (gsize)MG_OWN_FRAME_BYTES);
	memcpy(f->frame, frame, f->len);
	f->at = now;
}

gboolean
mg_own_frames_is_copy(const MgOwnFrames *own, const guint8 *frame, gsize len, gint64 now)
{
	for (guint i = 0; i < MG_OWN_FRAMES_KEPT; i++) {
		const MgOwnFrame *f = &own->kept[i];
		gsize n = MIN(len, f->len);
		if (f->len > 0 && now - f->at <= MG_OWN_FRAMES_FOR_US && n >= MG_ETH_HEADER &&
		    memcmp(f->frame, frame, n) == 0)
			return TRUE;
	}
	return FALSE;
}
