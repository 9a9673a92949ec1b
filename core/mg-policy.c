/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mg-policy"

#include "config.h"

#include "mg-policy.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mg-error.h"

static const char *const mg_policy_setting_names[] = {
	"mode", "rotate", "class", "vendors", "harden", "quiet-hours", NULL,
};

const char *const *
mg_policy_names(void)
{
	return mg_policy_setting_names;
}

void
mg_policy_init_default(MgPolicy *policy)
{
	memset(policy, 0, sizeof(*policy));
	policy->mode = MG_MODE_PLAUSIBLE;
	policy->rotate = MG_ROTATE_INTERVAL;
	policy->interval = 86400;
	policy->device_class = MG_DEVICE_CLASS_NONE;
	policy->vendors = NULL;
	policy->harden = TRUE;
	policy->quiet_start = -1;
	policy->quiet_end = -1;
}

void
mg_policy_clear(MgPolicy *policy)
{
	g_clear_pointer(&policy->vendors, g_strfreev);
}

void
mg_policy_copy(MgPolicy *dest, const MgPolicy *src)
{
	*dest = *src;
	dest->vendors = g_strdupv(src->vendors);
}

static gboolean G_GNUC_PRINTF(4, 5)
    mg_policy_fail(GError **error, const char *name, const char *value, const char *allowed, ...)
{
	va_list args;
	g_autofree char *what = NULL;

	va_start(args, allowed);
	what = g_strdup_vprintf(allowed, args);
	va_end(args);
	/* TRANSLATORS: macguise.KEY: 'VALUE' is not ...; expected WHAT */
	g_set_error(error,
		    MG_ERROR,
		    MG_ERROR_POLICY,
		    _("macguise.%s: '%s' is not allowed; expected %s"),
		    name,
		    value,
		    what);
	return FALSE;
}

char *
mg_duration_format(gint64 seconds)
{
	if (seconds % (7 * 86400) == 0)
		return g_strdup_printf("%" G_GINT64_FORMAT "w", seconds / (7 * 86400));
	if (seconds % 86400 == 0)
		return g_strdup_printf("%" G_GINT64_FORMAT "d", seconds / 86400);
	if (seconds % 3600 == 0)
		return g_strdup_printf("%" G_GINT64_FORMAT "h", seconds / 3600);
	if (seconds % 60 == 0)
		return g_strdup_printf("%" G_GINT64_FORMAT "m", seconds / 60);
	return g_strdup_printf("%" G_GINT64_FORMAT "s", seconds);
}

gboolean
mg_duration_parse(const char *text, gint64 min, gint64 max, gint64 *seconds, GError **error)
{
	static const struct {
		char unit;
		gint64 seconds;
	} units[] = { { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 }, { 'w', 7 * 86400 } };
	gsize len = strlen(text);

	for (guint i = 0; len >= 2 && i < G_N_ELEMENTS(units); i++) {
		g_autofree char *number = NULL;
		guint64 n;

		if (text[len - 1] != units[i].unit)
			continue;
		number = g_strndup(text, len - 1);
		/* g_ascii_string_to_unsigned refuses signs, spaces and overflow. */
		if (!g_ascii_string_to_unsigned(
			number, 10, 1, (guint64)(max / units[i].seconds), &n, NULL))
			break;
		if ((gint64)n * units[i].seconds < min)
			break;
		*seconds = (gint64)n * units[i].seconds;
		return TRUE;
	}
	{
		g_autofree char *lo = mg_duration_format(min);
		g_autofree char *hi = mg_duration_format(max);
		g_set_error(error,
			    MG_ERROR,
			    MG_ERROR_POLICY,
			    _("'%s' is not a duration from %s to %s: a whole number and a unit "
			      "(m, h, d or w), such as 36h or 3d"),
			    text,
			    lo,
			    hi);
	}
	return FALSE;
}

static gboolean
mg_parse_bool(const char *value, gboolean *out)
{
	if (g_strcmp0(value, "yes") == 0 || g_strcmp0(value, "true") == 0) {
		*out = TRUE;
		return TRUE;
	}
	if (g_strcmp0(value, "no") == 0 || g_strcmp0(value, "false") == 0) {
		*out = FALSE;
		return TRUE;
	}
	return FALSE;
}

/* A comma-separated list of vendor names; spaces around names are allowed
 * because names such as "Hon Hai (Foxconn)" have them inside. */
static GStrv
mg_parse_vendor_list(const char *value)
{
	g_auto(GStrv) parts = g_strsplit(value, ",", -1);
	g_autoptr(GStrvBuilder) builder = g_strv_builder_new();

	if (parts[0] == NULL)
		return NULL;
	for (guint i = 0; parts[i] != NULL; i++) {
		char *name = g_strstrip(parts[i]);
		if (name[0] == '\0')
			return NULL;
		g_strv_builder_add(builder, name);
	}
	return g_strv_builder_end(builder);
}

/* "HH:MM" into minutes since midnight. */
static gboolean
mg_parse_clock(const char *text, int *minutes)
{
	guint64 h, m;
	g_auto(GStrv) parts = g_strsplit(text, ":", 3);

	if (g_strv_length(parts) != 2 || strlen(parts[0]) != 2 || strlen(parts[1]) != 2 ||
	    !g_ascii_string_to_unsigned(parts[0], 10, 0, 23, &h, NULL) ||
	    !g_ascii_string_to_unsigned(parts[1], 10, 0, 59, &m, NULL))
		return FALSE;
	*minutes = (int)(h * 60 + m);
	return TRUE;
}

/* "03:00-05:00": a non-empty span shorter than a day, which may wrap. */
static gboolean
mg_parse_quiet_hours(const char *text, int *start, int *end)
{
	g_auto(GStrv) parts = g_strsplit(text, "-", 3);
	return g_strv_length(parts) == 2 && mg_parse_clock(parts[0], start) &&
	       mg_parse_clock(parts[1], end) && *start != *end;
}

static gboolean
mg_policy_set_mode(MgPolicy *policy, const char *name, const char *value, GError **error)
{
	if (g_strcmp0(value, "off") == 0)
		policy->mode = MG_MODE_OFF;
	else if (g_strcmp0(value, "plausible") == 0)
		policy->mode = MG_MODE_PLAUSIBLE;
	else if (g_strcmp0(value, "keep-vendor") == 0)
		policy->mode = MG_MODE_KEEP_VENDOR;
	else
		return mg_policy_fail(error, name, value, "off, plausible or keep-vendor");
	return TRUE;
}

static gboolean
mg_policy_set_rotate(MgPolicy *policy, const char *name, const char *value, GError **error)
{
	gint64 interval = 0;

	if (g_strcmp0(value, "never") == 0) {
		policy->rotate = MG_ROTATE_NEVER;
	} else if (g_strcmp0(value, "activation") == 0) {
		policy->rotate = MG_ROTATE_ACTIVATION;
	} else if (g_strcmp0(value, "boot") == 0) {
		policy->rotate = MG_ROTATE_BOOT;
	} else if (g_strcmp0(value, "daily") == 0) {
		policy->rotate = MG_ROTATE_INTERVAL;
		policy->interval = 86400;
	} else if (g_strcmp0(value, "weekly") == 0) {
		policy->rotate = MG_ROTATE_INTERVAL;
		policy->interval = 7 * 86400;
	} else if (mg_duration_parse(
		       value, MG_ROTATE_INTERVAL_MIN, MG_ROTATE_INTERVAL_MAX, &interval, NULL)) {
		policy->rotate = MG_ROTATE_INTERVAL;
		policy->interval = interval;
	} else {
		return mg_policy_fail(
		    error,
		    name,
		    value,
		    "never, activation, boot, daily, weekly or a duration from 1h "
		    "to 366d such as 36h or 3d");
	}
	return TRUE;
}

static gboolean
mg_policy_set_class(MgPolicy *policy, const char *name, const char *value, GError **error)
{
	if (g_strcmp0(value, "auto") == 0)
		policy->device_class = MG_DEVICE_CLASS_NONE;
	else if (g_strcmp0(value, "wifi") == 0)
		policy->device_class = MG_DEVICE_CLASS_WIFI;
	else if (g_strcmp0(value, "ethernet") == 0)
		policy->device_class = MG_DEVICE_CLASS_ETHERNET;
	else if (g_strcmp0(value, "ap") == 0)
		policy->device_class = MG_DEVICE_CLASS_AP;
	else
		return mg_policy_fail(error, name, value, "auto, wifi, ethernet or ap");
	return TRUE;
}

static gboolean
mg_policy_set_vendors(MgPolicy *policy, const char *name, const char *value, GError **error)
{
	GStrv list;

	if (g_strcmp0(value, "any") == 0) {
		g_clear_pointer(&policy->vendors, g_strfreev);
		return TRUE;
	}
	list = mg_parse_vendor_list(value);
	if (list == NULL)
		return mg_policy_fail(error,
				      name,
				      value,
				      "any, or a comma-separated list of vendors from "
				      "'macguise vendors'");
	g_strfreev(policy->vendors);
	policy->vendors = list;
	return TRUE;
}

static gboolean
mg_policy_set_harden(MgPolicy *policy, const char *name, const char *value, GError **error)
{
	if (!mg_parse_bool(value, &policy->harden))
		return mg_policy_fail(error, name, value, "yes or no");
	return TRUE;
}

static gboolean
mg_policy_set_quiet_hours(MgPolicy *policy, const char *name, const char *value, GError **error)
{
	int start, end;

	if (g_strcmp0(value, "none") == 0) {
		policy->quiet_start = policy->quiet_end = -1;
		return TRUE;
	}
	if (!mg_parse_quiet_hours(value, &start, &end))
		return mg_policy_fail(
		    error, name, value, "none, or a span of local time such as 03:00-05:00");
	policy->quiet_start = start;
	policy->quiet_end = end;
	return TRUE;
}

static const struct {
	const char *name;
	gboolean (*set)(MgPolicy *policy, const char *name, const char *value, GError **error);
} mg_policy_setters[] = {
	{ "mode", mg_policy_set_mode },     { "rotate", mg_policy_set_rotate },
	{ "class", mg_policy_set_class },   { "vendors", mg_policy_set_vendors },
	{ "harden", mg_policy_set_harden }, { "quiet-hours", mg_policy_set_quiet_hours },
};

gboolean
mg_policy_set(MgPolicy *policy, const char *name, const char *value, GError **error)
{
	g_return_val_if_fail(name != NULL && value != NULL, FALSE);

	if (!g_utf8_validate(value, -1, NULL))
		return mg_policy_fail(error, name, "?", "%s", _("UTF-8 text"));
	for (guint i = 0; i < G_N_ELEMENTS(mg_policy_setters); i++) {
		if (g_strcmp0(name, mg_policy_setters[i].name) == 0)
			return mg_policy_setters[i].set(policy, name, value, error);
	}
	g_set_error(
	    error,
	    MG_ERROR,
	    MG_ERROR_POLICY,
	    _("macguise.%s is not a macguise setting; the settings are mode, rotate, class, "
	      "vendors, harden and quiet-hours"),
	    name);
	return FALSE;
}

gboolean
mg_policy_set_user_data(
    MgPolicy *policy, const char *key, const char *value, gboolean *handled, GError **error)
{
	*handled = g_str_has_prefix(key, MG_POLICY_KEY_PREFIX);
	if (!*handled)
		return TRUE;
	return mg_policy_set(policy, key + strlen(MG_POLICY_KEY_PREFIX), value, error);
}

gboolean
mg_policy_check_vendors(const MgPolicy *policy, MgCatalogue *catalogue, GError **error)
{
	for (guint i = 0; policy->vendors != NULL && policy->vendors[i] != NULL; i++) {
		if (mg_catalogue_find_vendor(catalogue, policy->vendors[i]) == NULL) {
			g_set_error(error,
				    MG_ERROR,
				    MG_ERROR_POLICY,
				    _("macguise.vendors: '%s' is not a vendor in the catalogue "
				      "(see 'macguise vendors')"),
				    policy->vendors[i]);
			return FALSE;
		}
	}
	return TRUE;
}

char *
mg_policy_get(const MgPolicy *policy, const char *name)
{
	if (g_strcmp0(name, "mode") == 0) {
		switch (policy->mode) {
		case MG_MODE_OFF:
			return g_strdup("off");
		case MG_MODE_PLAUSIBLE:
			return g_strdup("plausible");
		case MG_MODE_KEEP_VENDOR:
			return g_strdup("keep-vendor");
		default:
			g_assert_not_reached();
		}
	}
	if (g_strcmp0(name, "rotate") == 0) {
		switch (policy->rotate) {
		case MG_ROTATE_NEVER:
			return g_strdup("never");
		case MG_ROTATE_ACTIVATION:
			return g_strdup("activation");
		case MG_ROTATE_BOOT:
			return g_strdup("boot");
		case MG_ROTATE_INTERVAL:
			if (policy->interval == 86400)
				return g_strdup("daily");
			if (policy->interval == 7 * 86400)
				return g_strdup("weekly");
			return mg_duration_format(policy->interval);
		default:
			g_assert_not_reached();
		}
	}
	if (g_strcmp0(name, "class") == 0)
		return g_strdup(policy->device_class == MG_DEVICE_CLASS_NONE
				    ? "auto"
				    : mg_device_class_to_string(policy->device_class));
	if (g_strcmp0(name, "vendors") == 0)
		return policy->vendors == NULL ? g_strdup("any") : g_strjoinv(",", policy->vendors);
	if (g_strcmp0(name, "harden") == 0)
		return g_strdup(policy->harden ? "yes" : "no");
	if (g_strcmp0(name, "quiet-hours") == 0) {
		if (policy->quiet_start < 0)
			return g_strdup("none");
		return g_strdup_printf("%02d:%02d-%02d:%02d",
				       policy->quiet_start / 60,
				       policy->quiet_start % 60,
				       policy->quiet_end / 60,
				       policy->quiet_end % 60);
	}
	return NULL;
}

gboolean
mg_policy_in_quiet_hours(const MgPolicy *policy, int minute)
{
	if (policy->quiet_start < 0 || minute < 0)
		return FALSE;
	if (policy->quiet_start < policy->quiet_end)
		return minute >= policy->quiet_start && minute < policy->quiet_end;
	/* Past midnight: 23:00-02:00. */
	return minute >= policy->quiet_start || minute < policy->quiet_end;
}
