/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer: the state file loader. Each input is tried as it is, and again
 * as a body with the key-check line and integrity trailer filled in, so the
 * fuzzer reaches the contents and not just the checks in front of them
 * ("@KC@" in an input stands for this install's key-check line). Anything
 * accepted must save and load back to the same text. */
#include "config.h"

#include <glib.h>
#include <sodium.h>
#include <string.h>

#include "mg-state.h"
#include "../mg-test-seal.h"

int LLVMFuzzerTestOneInput(const guint8 *data, size_t size);

static const guint8 fuzz_key[32] = { 'm', 'a', 'c', 'g', 'u', 'i', 's', 'e' };

static void
check_roundtrip(const char *text, gsize len)
{
	g_autoptr(MgState) state =
	    mg_state_new_from_data(fuzz_key, sizeof(fuzz_key), text, len, NULL);
	if (state != NULL) {
		gsize saved_len = 0;
		g_autofree char *saved = mg_state_to_data(state, &saved_len);
		g_autoptr(MgState) again =
		    mg_state_new_from_data(fuzz_key, sizeof(fuzz_key), saved, saved_len, NULL);
		g_autofree char *saved_again = NULL;
		g_assert_nonnull(again);
		saved_again = mg_state_to_data(again, NULL);
		g_assert_cmpstr(saved, ==, saved_again);
	}
}

static char *
key_check_line(void)
{
	g_autoptr(MgState) empty = mg_state_new_empty(fuzz_key, sizeof(fuzz_key));
	g_autofree char *text = mg_state_to_data(empty, NULL);
	const char *kc = strstr(text, "key-check=");
	return g_strndup(kc, strcspn(kc, "\n"));
}

int
LLVMFuzzerTestOneInput(const guint8 *data, size_t size)
{
	static char *kc = NULL;
	g_autofree char *text = g_strndup((const char *)data, size);
	g_auto(GStrv) parts = NULL;
	g_autofree char *body = NULL;
	g_autofree char *sealed = NULL;

	if (kc == NULL)
		kc = key_check_line();
	check_roundtrip((const char *)data, size);
	parts = g_strsplit(text, "@KC@", -1);
	body = g_strjoinv(kc, parts);
	sealed = mg_test_seal(body);
	check_roundtrip(sealed, strlen(sealed));
	return 0;
}
