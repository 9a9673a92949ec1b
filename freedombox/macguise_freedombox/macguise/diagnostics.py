# SPDX-License-Identifier: GPL-3.0-or-later
"""FreedomBox diagnostics for the MAC privacy app: one result per
connection, from `macguise audit`, and their repair.

FreedomBox 25.x and later run every app's diagnostics daily and turn a
warning into a notification that comes back each day, so a warning names
only what the owner has not chosen: settings that `Apply fixes` would mend
on a connection that is to be hardened. A connection that keeps its
identifiers by choice (harden=no, its own or its kind's default, as
FreedomBox's Internet connection has) passes, and so do suggestions that
need the owner's decision. Machine-wide findings (NetworkManager's log
level, avahi, Wi-Fi scans) are settings of other programs that the owner
or FreedomBox made and the app cannot repair: the app's page shows them
with what would change them, and diagnostics leave them out.

Whether macguised.service runs is the Daemon component's check."""

from django.utils.translation import get_language, to_locale

from . import compat, fbx, privileged

# The check of a connection: this prefix and its UUID.
PROFILE_CHECK = 'macguise-profile-'
DAEMON_COMPONENT = 'daemon-macguise'
# The unit, named as FreedomBox names units (its Daemon components, the
# services of backups, its privileged service actions): without .service.
UNIT = 'macguised'


def gettext_noop(message):
    """Marks @message for translation; FreedomBox translates it when it
    shows the result (Django's own needs settings, which FreedomBox's
    privileged-action processes lack when they import this app)."""
    return message


def _language():
    return to_locale(get_language() or 'en')


def _linking(profile, harden):
    """The result of one connection: its findings that harden would fix,
    a warning only where harden is not set to no."""
    check_id = f'{PROFILE_CHECK}{profile["uuid"]}'
    name = profile['id']
    linking = [f for f in profile['findings'] if not f['advice']]
    if not linking:
        return compat.diagnostic(
            check_id,
            gettext_noop('Connection {name}: nothing links it across addresses'),
            'passed', {'name': name})
    if harden == 'no':
        return compat.diagnostic(
            check_id,
            gettext_noop('Connection {name}: keeps its other identifiers, as '
                         'chosen (hide other identifiers: no)'),
            'passed', {'name': name})
    # One message for one setting, another for more: FreedomBox translates
    # a description with gettext, not ngettext.
    if len(linking) == 1:
        text = gettext_noop('Connection {name}: 1 setting links it across addresses')
    else:
        text = gettext_noop('Connection {name}: {count} settings link it across addresses')
    return compat.diagnostic(check_id, text, 'warning', {'name': name, 'count': len(linking)})


def run():
    """Results for FreedomBox's diagnostics page."""
    try:
        found = privileged.diagnose(_language())
    except Exception as exception:  # noqa: BLE001, shown as the result
        return [
            compat.diagnostic('macguise-audit',
                              gettext_noop('macguise checks the connections: {error}'),
                              'failed', {'error': str(exception)})
        ]
    return [
        _linking(profile, found['harden'].get(profile['uuid']))
        for profile in found['audit'].get('profiles', [])
    ]


def _check_id(check):
    """A result's check id (FreedomBox 25 and later give DiagnosticChecks;
    23.6 repairs nothing)."""
    return getattr(check, 'check_id', '') or ''


def repair(failed_checks):
    """Mends what diagnostics found: `macguise harden` for each connection
    with a warning, and a restart of macguised when it was not
    running. Returns whether FreedomBox should run the app's setup again
    (never: it has nothing to set up)."""
    for check in failed_checks:
        check_id = _check_id(check)
        if check_id.startswith(PROFILE_CHECK):
            privileged.harden(check_id[len(PROFILE_CHECK):], _language())
    # last, so that a restart that fails leaves the fixes made
    if any(getattr(check, 'component_id', None) == DAEMON_COMPONENT
           for check in failed_checks):
        fbx.module('privileged.service').restart(UNIT)
    return False
