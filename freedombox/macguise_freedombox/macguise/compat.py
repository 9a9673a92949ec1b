# SPDX-License-Identifier: GPL-3.0-or-later
"""What differs between FreedomBox 23.6 (Debian 12) and 25.x (Debian 13)
for this app: app information, menus and diagnostic results."""

from plinth import app as app_module

try:
    from plinth.diagnostic_check import DiagnosticCheck, Result
except ImportError:  # FreedomBox 23.6
    DiagnosticCheck = None
    Result = None

# 25.x has tags and system sections; 23.6 short descriptions and one
# System page.
NEW_API = DiagnosticCheck is not None


def app_info(short_description, **kwargs):
    """An app's Info component."""
    if NEW_API:
        return app_module.Info(tags=[short_description], **kwargs)
    return app_module.Info(short_description=short_description, **kwargs)


def menu_item(menu, component_id, info, url_name):
    """The app's entry on the System page (its security section on 25.x)."""
    if NEW_API:
        return menu.Menu(component_id, info.name, info.icon, info.tags,
                         url_name, parent_url_name='system:security',
                         order=30)
    return menu.Menu(component_id, info.name, info.short_description,
                     info.icon, url_name, parent_url_name='system')


def diagnostic(check_id, description, result, parameters):
    """One diagnostic result: @description is untranslated, with
    {placeholders} filled from @parameters; @result is 'passed',
    'warning' or 'failed'."""
    if NEW_API:
        return DiagnosticCheck(check_id, description, Result(result),
                               parameters)
    from django.utils.translation import gettext
    return (gettext(description).format(**parameters), result)
