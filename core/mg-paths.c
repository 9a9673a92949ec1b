/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mg-paths.h"

#include <string.h>

gboolean
mg_uuid_is_valid(const char *uuid)
{
	gsize len = strlen(uuid);
	return len > 0 && len <= 64 && strspn(uuid, "0123456789abcdefABCDEF-") == len;
}

char *
mg_systemd_directory(const char *variable, const char *fallback)
{
	const char *dirs = g_getenv(variable);
	if (dirs != NULL && dirs[0] != '\0') {
		g_auto(GStrv) list = g_strsplit(dirs, ":", 2);
		return g_strdup(list[0]);
	}
	return g_strdup(fallback);
}

#define MG_IFACE_MAX 15

gboolean
mg_iface_name_is_valid(const char *name)
{
	gsize len = name != NULL ? strlen(name) : 0;

	if (len == 0 || len > MG_IFACE_MAX || g_strcmp0(name, ".") == 0 ||
	    g_strcmp0(name, "..") == 0)
		return FALSE;
	for (gsize i = 0; i < len; i++) {
		guchar c = (guchar)name[i];
		if (c <= ' ' || c >= 0x7f || c == '/' || c == ':')
			return FALSE;
	}
	return TRUE;
}
