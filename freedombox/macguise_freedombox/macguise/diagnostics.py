# SPDX-License-Identifier: GPL-3.0-or-later
"""FreedomBox diagnostics for the MAC privacy app: what `macguise status`
and `macguise audit` report, one result per connection."""

from django.utils.translation import get_language, to_locale

from . import compat, privileged


def gettext_noop(message):
    """Marks @message for translation; FreedomBox translates it when it
    shows the result (Django's own needs settings, which FreedomBox's
    privileged-action processes lack when they import this app)."""
    return message


def run():
    """Results for FreedomBox's diagnostics page."""
    language = to_locale(get_language() or 'en')
    try:
        overview = privileged.overview(language)
    except Exception as exception:  # noqa: BLE001, shown as the result
        return [
            compat.diagnostic('macguise-daemon', gettext_noop('macguised is running'),
                              'failed', {'error': str(exception)})
        ]
    results = [
        compat.diagnostic(
            'macguise-daemon', gettext_noop('macguised is running'), 'passed'
            if overview['status'].get('daemon_running') else 'failed', {})
    ]
    for profile in overview['audit'].get('profiles', []):
        linking = [f for f in profile['findings'] if not f['advice']]
        if linking:
            results.append(
                compat.diagnostic(
                    f'macguise-profile-{profile["uuid"]}',
                    gettext_noop('Connection {name}: {count} settings link it across '
                    'addresses'), 'warning', {
                        'name': profile['id'],
                        'count': len(linking)
                    }))
        else:
            results.append(
                compat.diagnostic(
                    f'macguise-profile-{profile["uuid"]}',
                    gettext_noop('Connection {name}: nothing links it across addresses'),
                    'passed', {'name': profile['id']}))
    for finding in overview['audit'].get('global', []):
        results.append(
            compat.diagnostic(f'macguise-global-{finding["id"]}',
                              gettext_noop('Machine-wide: {message}'), 'warning',
                              {'message': finding['message']}))
    return results
