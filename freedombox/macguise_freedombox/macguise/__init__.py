# SPDX-License-Identifier: GPL-3.0-or-later
"""FreedomBox app for macguise: every network connection its own plausible
MAC address, changed on a schedule.

Loaded by FreedomBox from its modules-enabled list. The same code runs on
FreedomBox 23.6 (Debian 12), 25.x (Debian 13) and 26.x (backports), whose
Python package is `freedombox` where the others' is `plinth` (fbx.py finds
it); where their interfaces differ (menus, app information, icons,
diagnostics), compat.py chooses.
"""

from django.utils.translation import gettext_lazy as _

from . import compat, diagnostics, fbx, manifest

app_module = fbx.module('app')
menu = fbx.module('menu')
Daemon = fbx.module('daemon').Daemon
BackupRestore = fbx.module('modules.backups.components').BackupRestore

_description = [
    _('Every network this box connects to sees a different, ordinary-looking '
      'network card address (MAC address): one from a common maker\'s '
      'registered range, changed on a schedule you choose. Networks cannot '
      'recognise the box when it comes back, or tell that it is a '
      'FreedomBox.'),
    _('Behind a home router, the box\'s wired Internet connection keeps '
      'one address: your router\'s address reservation and port forwarding '
      'find the box by it. That address is an ordinary maker\'s, not the '
      'card\'s own, so when macguise is installed the router sees the box '
      'as a new device from its next connection on: renew the reservation '
      'and port forwarding for the address the connection\'s page shows. '
      'The app asks before it changes that address again.'),
]


class MacguiseApp(app_module.App):
    """FreedomBox app for MAC address privacy."""

    app_id = 'macguise'

    _version = 1

    can_be_disabled = False

    def __init__(self):
        """Create components for the app."""
        super().__init__()

        info = compat.app_info(app_id=self.app_id, version=self._version,
                               is_essential=True, name=_('MAC Privacy'),
                               icon=compat.app_icon(),
                               description=_description,
                               short_description=_('Network Addresses'),
                               manual_page='MACPrivacy')
        self.add(info)

        self.add(
            compat.menu_item(menu, 'menu-macguise', info,
                             'macguise:index'))

        # FreedomBox's standard banner when it is not running, its check
        # in diagnostics, and its restart by repair and around backups
        self.add(Daemon(diagnostics.DAEMON_COMPONENT, diagnostics.UNIT))

        self.add(BackupRestore('backup-restore-macguise', **manifest.backup))

    def has_diagnostics(self):
        """Diagnostics run `macguise audit`."""
        return True

    def diagnose(self):
        """The daemon's check, and one result per connection."""
        return super().diagnose() + diagnostics.run()

    def repair(self, failed_checks):
        """Hardens the connections diagnostics warned about, restarts
        macguised when it was not running (FreedomBox 25 and later)."""
        return diagnostics.repair(failed_checks)

