/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <sodium.h>
#include <string.h>

/* Seals a state-file body the way the store does (an unkeyed BLAKE2b-256
 * trailer), written out again here so that tests and fuzzers can make
 * well-sealed files with bad contents without trusting the code under test. */
static inline char *
mg_test_seal(const char *body)
{
	guint8 out[32];
	char hex[65];
	crypto_generichash(out, sizeof(out), (const guint8 *)body, strlen(body), NULL, 0);
	sodium_bin2hex(hex, sizeof(hex), out, sizeof(out));
	return g_strdup_printf("%s\n[integrity]\nblake2b=%s\n", body, hex);
}
