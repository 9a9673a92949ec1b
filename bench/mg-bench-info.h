/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <string.h>

/* What every benchmark prints first: the CPU and the commit measured. */
static inline void
mg_bench_print_info(void)
{
	g_autofree char *cpuinfo = NULL;
	g_autofree char *commit = NULL;
	g_autofree char *cmd = NULL;
	const char *src = g_getenv("MG_SOURCE_ROOT");
	char *cpu = NULL;

	if (g_file_get_contents("/proc/cpuinfo", &cpuinfo, NULL, NULL)) {
		char *line = strstr(cpuinfo, "model name");
		char *colon = line != NULL ? strchr(line, ':') : NULL;
		if (colon != NULL) {
			cpu = colon + 1;
			cpu[strcspn(cpu, "\n")] = '\0';
			g_strstrip(cpu);
		}
	}
	if (src != NULL) {
		g_autofree char *quoted = g_shell_quote(src);
		cmd = g_strdup_printf("git -C %s rev-parse --short HEAD", quoted);
		if (g_spawn_command_line_sync(cmd, &commit, NULL, NULL, NULL) && commit != NULL)
			g_strstrip(commit);
	}
	g_print("machine: %s, %u cores; commit %s\n",
		cpu != NULL ? cpu : "unknown",
		g_get_num_processors(),
		commit != NULL && commit[0] != '\0' ? commit : "unknown");
}
