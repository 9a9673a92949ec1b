# SPDX-License-Identifier: GPL-3.0-or-later
"""Debian's freedombox package, as the tests that run FreedomBox's own code
find it (tools/dev fetches it)."""
import glob
import os


def freedombox_deb():
    """The newest freedombox .deb in /var/cache/macguise-freedombox, or the
    one MG_FREEDOMBOX_DEB names."""
    found = sorted(glob.glob(os.environ.get(
        "MG_FREEDOMBOX_DEB", "/var/cache/macguise-freedombox/freedombox_*.deb")))
    if not found:
        raise RuntimeError("no freedombox .deb: run tools/dev test (it fetches one "
                           "into /var/cache/macguise-freedombox)")
    return found[-1]
