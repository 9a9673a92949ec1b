# SPDX-License-Identifier: GPL-3.0-or-later
"""What differs between the FreedomBox releases this app runs on (23.6 on
Debian 12, 25.x on Debian 13, 26.x from backports) for this app: app
information, menus, icons and diagnostic results. Each is chosen by what
this FreedomBox's interface really takes, not by its version: releases
between these changed them one at a time."""

import inspect

from . import fbx

app_module = fbx.module('app')

try:
    _diagnostic_check = fbx.module('diagnostic_check')
    DiagnosticCheck = _diagnostic_check.DiagnosticCheck
    Result = _diagnostic_check.Result
except ImportError:  # FreedomBox 23.6: (text, result) tuples
    DiagnosticCheck = None
    Result = None

# The Fork Awesome icon the app shows; where FreedomBox draws its 'fa-'
# icons from its theme's SVG files instead of the font and the theme lacks
# this one (26.x raises on a missing file), the app's own copy,
# static/icons/user-secret.svg.
ICON = 'user-secret'


def _takes(callable_, parameter):
    """Whether @callable_ has a parameter named @parameter."""
    return parameter in inspect.signature(callable_).parameters


def app_icon():
    """The icon name for the app's Info and Menu."""
    web_server = fbx.module('web_server')
    resolve = getattr(web_server, 'resolve_static_path', None)
    if resolve is None:  # drawn with the Fork Awesome font
        return f'fa-{ICON}'
    if resolve(f'theme/icons/{ICON}.svg').exists():
        return f'fa-{ICON}'
    return ICON  # FreedomBox looks in <app_id>/icons/ for a name without fa-


def app_info(short_description, **kwargs):
    """An app's Info component: @short_description as its tag where Info
    takes tags (25.x, 26.x), as its short description where it takes that
    (23.6)."""
    if _takes(app_module.Info, 'tags'):
        return app_module.Info(tags=[short_description], **kwargs)
    return app_module.Info(short_description=short_description, **kwargs)


def menu_item(menu, component_id, info, url_name):
    """The app's entry on the System page: in its security section where
    Menu takes tags (25.x, 26.x), else among the System page's entries."""
    if _takes(menu.Menu, 'tags'):
        return menu.Menu(component_id, info.name, info.icon, info.tags,
                         url_name, parent_url_name='system:security',
                         order=30)
    return menu.Menu(component_id, info.name, info.short_description,
                     info.icon, url_name, parent_url_name='system')


def diagnostic(check_id, description, result, parameters):
    """One diagnostic result: @description is untranslated, with
    {placeholders} filled from @parameters; @result is 'passed',
    'warning' or 'failed'."""
    if DiagnosticCheck is not None:
        return DiagnosticCheck(check_id, description, Result(result),
                               parameters)
    from django.utils.translation import gettext
    return (gettext(description).format(**parameters), result)
