# SPDX-License-Identifier: GPL-3.0-or-later
"""What FreedomBox's backups keep of the MAC privacy app."""

# The settings only: the state (address history, kept as salted hashes)
# belongs to this machine's cards. macguised reads macguise.conf at its
# start: FreedomBox stops it before a restore and starts it again after,
# so the restored settings take effect at once.
backup = {
    'config': {
        'files': ['/etc/macguise/macguise.conf'],
    },
    'services': ['macguised'],
}
