/* SPDX-License-Identifier: GPL-3.0-or-later */
/* macguise.conf's files: the packaged defaults under the administrator's
 * file, read line by line so that a bad line costs that line alone. A
 * FreedomBox's packaged [ethernet] rotate=never must not give way to the
 * built-in weekly rotation because of a typo under [wifi]: the router's
 * address reservation would break over a line about something else. */
#define G_LOG_DOMAIN "mg-config"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdarg.h>
#include <string.h>

#include "mg-config-private.h"
#include "mg-config.h"

void
mg_config_problem_free(MgConfigProblem *problem)
{
	if (problem == NULL)
		return;
	g_free(problem->path);
	g_free(problem->section);
	g_free(problem->key);
	g_free(problem->message);
	g_free(problem);
}

GPtrArray *
mg_config_problems_new(void)
{
	return g_ptr_array_new_with_free_func((GDestroyNotify)mg_config_problem_free);
}

char *
mg_config_problem_format(const MgConfigProblem *problem)
{
	if (problem->line == 0)
		return g_strdup_printf("%s: %s", problem->path, problem->message);
	return g_strdup_printf("%s:%u: %s", problem->path, problem->line, problem->message);
}

G_GNUC_PRINTF(6, 7)
static void
mg_config_problem_add(GPtrArray *problems,
		      const char *path,
		      guint line,
		      const char *section,
		      const char *key,
		      const char *format,
		      ...)
{
	MgConfigProblem *problem = g_new0(MgConfigProblem, 1);
	va_list args;

	problem->path = g_strdup(path);
	problem->line = line;
	problem->section = g_strdup(section);
	problem->key = g_strdup(key);
	va_start(args, format);
	problem->message = g_strdup_vprintf(format, args);
	va_end(args);
	g_ptr_array_add(problems, problem);
}

static gint
mg_config_path_compare(gconstpointer a, gconstpointer b)
{
	return g_strcmp0(*(char *const *)a, *(char *const *)b);
}

GPtrArray *
mg_config_packaged_files(void)
{
	const char *override = g_getenv(MG_PACKAGED_CONF_ENV);
	const char *dir_path = override != NULL ? override : MG_PACKAGED_CONF_DIR;
	g_autoptr(GDir) dir = g_dir_open(dir_path, 0, NULL);
	GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
		if (g_str_has_suffix(name, ".conf") && name[0] != '.')
			g_ptr_array_add(files, g_build_filename(dir_path, name, NULL));
	}
	g_ptr_array_sort(files, mg_config_path_compare);
	return files;
}

/* What the file's lines have said so far. */
typedef struct {
	const char *path;
	char *section;     /* the current [section], or NULL */
	gboolean skipping; /* under a section that is not one of ours */
	GKeyFile *merged;
	GPtrArray *problems;
} MgConfigReader;

/* A "[section]" line: GKeyFile's own reading, so that the rules are its. */
static void
mg_config_read_section(MgConfigReader *r, const char *text, guint line)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_auto(GStrv) groups = NULL;
	g_autofree char *data = g_strconcat(text, "\n", NULL);
	g_autoptr(GError) error = NULL;
	MgConfigSection section;

	g_clear_pointer(&r->section, g_free);
	r->skipping = TRUE;
	if (!g_key_file_load_from_data(kf, data, -1, G_KEY_FILE_NONE, NULL) ||
	    (groups = g_key_file_get_groups(kf, NULL)) == NULL || groups[0] == NULL) {
		mg_config_problem_add(r->problems,
				      r->path,
				      line,
				      NULL,
				      NULL,
				      _("'%s' is not a [section] line; the lines under it are "
					"skipped"),
				      text);
		return;
	}
	if (!g_str_equal(groups[0], "global") &&
	    !mg_config_section_parse(groups[0], &section, &error)) {
		mg_config_problem_add(r->problems,
				      r->path,
				      line,
				      groups[0],
				      NULL,
				      _("[%s] is not a section; the sections are [global], [wifi], "
					"[ethernet], [ethernet-shared] and [ap]"),
				      groups[0]);
		return;
	}
	r->section = g_strdup(groups[0]);
	r->skipping = FALSE;
}

/* A "key=value" line, checked alone: a value that would be an error in a
 * file of its own is one here, and is left out. */
static void
mg_config_read_setting(MgConfigReader *r, const char *text, guint line)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *data = NULL;
	g_auto(GStrv) keys = NULL;
	g_autofree char *value = NULL;
	g_autoptr(GError) error = NULL;
	g_auto(MgConfig) alone = { 0 };

	if (r->skipping)
		return;
	if (r->section == NULL) {
		mg_config_problem_add(r->problems,
				      r->path,
				      line,
				      NULL,
				      NULL,
				      _("'%s' is not under a [section]; it is skipped"),
				      text);
		return;
	}
	data = g_strdup_printf("[%s]\n%s\n", r->section, text);
	if (!g_key_file_load_from_data(kf, data, -1, G_KEY_FILE_NONE, NULL) ||
	    (keys = g_key_file_get_keys(kf, r->section, NULL, NULL)) == NULL || keys[0] == NULL) {
		mg_config_problem_add(r->problems,
				      r->path,
				      line,
				      r->section,
				      NULL,
				      _("'%s' is not a setting (KEY=VALUE) or a [section]; it is "
					"skipped"),
				      text);
		return;
	}
	value = g_key_file_get_value(kf, r->section, keys[0], NULL);
	if (!mg_config_take_keyfile(&alone, kf, &error)) {
		mg_config_problem_add(r->problems,
				      r->path,
				      line,
				      r->section,
				      keys[0],
				      _("%s; the line is skipped"),
				      error->message);
		return;
	}
	g_key_file_set_value(r->merged, r->section, keys[0], value);
}

/* Leading blanks go, as GKeyFile drops them; trailing ones stay, as GKeyFile
 * keeps them in a value, but for a CR (a file written on Windows). */
static void
mg_config_read_text(MgConfigReader *r, const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (guint i = 0; lines[i] != NULL; i++) {
		char *line = g_strchug(lines[i]);
		gsize len = strlen(line);
		if (len > 0 && line[len - 1] == '\r')
			line[len - 1] = '\0';
		if (line[0] == '\0' || line[0] == '#')
			continue;
		if (!g_utf8_validate(line, -1, NULL)) {
			mg_config_problem_add(r->problems,
					      r->path,
					      i + 1,
					      r->section,
					      NULL,
					      _("the line is not UTF-8 text; it is skipped"));
			continue;
		}
		if (line[0] == '[')
			mg_config_read_section(r, line, i + 1);
		else
			mg_config_read_setting(r, line, i + 1);
	}
}

void
mg_config_read_text_into(const char *text, const char *name, GKeyFile *merged, GPtrArray *problems)
{
	MgConfigReader r = { .path = name, .merged = merged, .problems = problems };

	mg_config_read_text(&r, text);
	g_free(r.section);
}

/* @path's good settings into @merged. A missing file adds nothing. */
static void
mg_config_read_file(const char *path, GKeyFile *merged, GPtrArray *problems)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;

	if (!g_file_get_contents(path, &text, &len, &error)) {
		if (!g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			mg_config_problem_add(problems,
					      path,
					      0,
					      NULL,
					      NULL,
					      _("cannot be read (%s); its settings are skipped"),
					      error->message);
		return;
	}
	if (strlen(text) < len)
		mg_config_problem_add(problems,
				      path,
				      0,
				      NULL,
				      NULL,
				      _("holds a NUL byte; what follows it is skipped"));
	mg_config_read_text_into(text, path, merged, problems);
}

void
mg_config_load_files(MgConfig *config, const char *path, GPtrArray *problems)
{
	g_autoptr(GPtrArray) files = mg_config_packaged_files();
	g_autoptr(GKeyFile) merged = g_key_file_new();
	g_autoptr(GError) error = NULL;

	g_ptr_array_add(files, g_strdup(path));
	for (guint i = 0; i < files->len; i++)
		mg_config_read_file(g_ptr_array_index(files, i), merged, problems);
	/* Every setting was taken alone; each key's setter reads only its
	 * own value, so together they are taken too. */
	if (!mg_config_take_keyfile(config, merged, &error))
		g_critical("the configuration's good lines together are refused: %s",
			   error->message);
}
