# SPDX-License-Identifier: GPL-3.0-or-later
"""FreedomBox's own Python package, under the name this FreedomBox has:
`freedombox` since 26.12, which renamed it, `plinth` before (23.6 on
Debian 12, 25.x on Debian 13). Every module of the app reaches FreedomBox
through here, so that one app serves both.

The name is chosen by which package really holds FreedomBox's app
framework, not by a version number."""

import importlib
import importlib.util


def _holds_freedombox(name):
    """Whether package @name is FreedomBox (has its app framework)."""
    try:
        return importlib.util.find_spec(f'{name}.app') is not None
    except ImportError:  # no package of that name
        return False


NAME = next((name for name in ('freedombox', 'plinth')
             if _holds_freedombox(name)), 'plinth')


def module(path):
    """FreedomBox's module @path ('app', 'actions', 'modules.backups...')."""
    return importlib.import_module(f'{NAME}.{path}')
