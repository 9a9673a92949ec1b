# SPDX-License-Identifier: GPL-3.0-or-later
"""The MAC privacy app's privileged actions.

FreedomBox runs each in a process of its own as root (through sudo and its
actions runner); each runs the real macguise command with --json and returns
what it printed, so the web page shows exactly what the command line does.
"""

import json
import re
import subprocess

from . import fbx

privileged = fbx.module('actions').privileged

MACGUISE = '/usr/bin/macguise'

# The keys `macguise policy` and `macguise defaults` take.
SETTING_KEYS = ('mode', 'rotate', 'class', 'vendors', 'harden', 'quiet-hours')
DEVICE_CLASSES = ('wifi', 'ethernet', 'ethernet-shared', 'ap')
# A connection UUID, as the app's URLs take it (urls.py) and every action
# checks it: the whole string, with fullmatch (a `$` would let a trailing
# newline through).
UUID_PATTERN = r'[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}'
_UUID = re.compile(UUID_PATTERN)
_LANGUAGE = re.compile(r'[A-Za-z]{2,3}(_[A-Za-z0-9]{2,4})?(@[a-z]+)?')


class MacguiseError(Exception):
    """macguise refused or failed: args[0] is its stable error id
    (`not-found`, `no-networkmanager`, `invalid`, ...), args[1] its message
    in the page's language."""

    @property
    def error_id(self):
        return self.args[0] if self.args else 'failed'

    @property
    def message(self):
        return self.args[1] if len(self.args) > 1 else str(self)


def _environment(language):
    """The command's environment: its messages in the page's language.
    GNU gettext reads LANGUAGE only when the locale is not C, hence a
    UTF-8 locale FreedomBox's locales-all provides."""
    env = {'PATH': '/usr/sbin:/usr/bin:/sbin:/bin'}
    if language and _LANGUAGE.fullmatch(language):
        env['LANGUAGE'] = language
        env['LC_ALL'] = 'en_US.UTF-8'
    else:
        env['LC_ALL'] = 'C.UTF-8'
    return env


def _run(language, *args):
    """Run `macguise ARGS --json`; its JSON, or MacguiseError."""
    try:
        process = subprocess.run([MACGUISE, *args, '--json'],
                                 capture_output=True, text=True, timeout=120,
                                 env=_environment(language), check=False)
    except FileNotFoundError:
        raise MacguiseError('not-installed', f'{MACGUISE} is not installed')
    try:
        output = json.loads(process.stdout) if process.stdout.strip() else {}
    except json.JSONDecodeError:
        output = {}
    if process.returncode != 0 or 'error' in output:
        error = output.get('error') or {}
        raise MacguiseError(error.get('id', 'failed'),
                            error.get('message') or process.stderr.strip())
    return output


def _check_uuid(uuid):
    if not isinstance(uuid, str) or not _UUID.fullmatch(uuid):
        raise ValueError('not a connection UUID')


def _assignments(settings):
    """KEY=VALUE arguments; an empty value returns a key to its default."""
    arguments = []
    for key, value in settings.items():
        if key not in SETTING_KEYS or not isinstance(value, str):
            raise ValueError(f'unknown setting {key}')
        if '\n' in value:
            raise ValueError(f'invalid value for {key}')
        arguments.append(f'{key}={value}')
    return arguments


@privileged
def overview(language: str) -> dict:
    """Every profile's status and audit, and the per-class defaults."""
    return {
        'status': _run(language, 'status'),
        'audit': _run(language, 'audit'),
        'defaults': _run(language, 'defaults'),
    }


@privileged
def profile(uuid: str, language: str) -> dict:
    """One profile: its status, its settings and the defaults beneath
    them, its findings and what `harden` would change."""
    _check_uuid(uuid)
    return {
        'status': _run(language, 'status', uuid),
        'defaults': _run(language, 'defaults'),
        'policy': _run(language, 'policy', uuid),
        'audit': _run(language, 'audit', uuid),
        'harden': _run(language, 'harden', '--dry-run', uuid),
        'vendors': _run(language, 'vendors'),
    }


@privileged
def status(uuid: str, language: str) -> dict:
    """One profile's status."""
    _check_uuid(uuid)
    return _run(language, 'status', uuid)


@privileged
def set_policy(uuid: str, settings: dict[str, str], language: str) -> dict:
    """Change a profile's macguise settings."""
    _check_uuid(uuid)
    return _run(language, 'policy', uuid, *_assignments(settings))


@privileged
def set_defaults(device_class: str, settings: dict[str, str], language: str) -> dict:
    """Change what every profile of a class inherits."""
    if device_class not in DEVICE_CLASSES:
        raise ValueError('unknown class')
    return _run(language, 'defaults', device_class, *_assignments(settings))


@privileged
def rotate(uuid: str, language: str) -> dict:
    """A new address now; a live connection reconnects with it."""
    _check_uuid(uuid)
    return _run(language, 'rotate', '--now', uuid)


@privileged
def harden(uuid: str, language: str) -> dict:
    """Apply every fix audit names for the profile."""
    _check_uuid(uuid)
    return _run(language, 'harden', uuid)


@privileged
def diagnose(language: str) -> dict:
    """Every finding, for FreedomBox's diagnostics, with each profile's
    harden setting in effect: a profile that keeps its identifiers
    (harden=no, its own or its kind's default) does so by choice."""
    audit = _run(language, 'audit')
    harden = {}
    for entry in audit.get('profiles', []):
        _check_uuid(entry.get('uuid'))
        settings = _run(language, 'policy', entry['uuid']).get('settings', {})
        harden[entry['uuid']] = (settings.get('harden') or {}).get('value')
    return {'audit': audit, 'harden': harden}
