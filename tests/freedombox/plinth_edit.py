#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Edits an Ethernet connection with FreedomBox's own code, as its Networks
page does when its owner presses "Edit Connection" (plinth/network.py:
edit_connection, with the settings plinth/modules/networks/forms.py's
EthernetForm gives): the IPv4 and IPv6 settings are made anew, whole.

Usage: plinth_edit.py FREEDOMBOX_ROOT UUID NAME INTERFACE DNS
(FREEDOMBOX_ROOT: Debian's freedombox package unpacked; its Python package
is `freedombox` from 26.x, `plinth` before). Runs with Debian's python3,
which has the GObject bindings and Django FreedomBox needs."""
import importlib
import os
import sys

root, uuid, name, interface, dns = sys.argv[1:6]
packages = os.path.join(root, "usr", "lib", "python3", "dist-packages")
sys.path.insert(0, packages)

import django.conf  # noqa: E402
django.conf.settings.configure()

from gi.repository import GLib  # noqa: E402

network = importlib.import_module(
    "freedombox.network" if os.path.isdir(os.path.join(packages, "freedombox"))
    else "plinth.network")

# As FreedomBox starts: its NetworkManager client, made asynchronously.
network.init()
context = GLib.MainContext.default()
while network._client is None:
    context.iteration(True)

blank = {"address": "", "gateway": "", "dns": "", "second_dns": ""}
settings = {
    "common": {"name": name, "interface": interface, "zone": "external",
               "type": "802-3-ethernet"},
    "ipv4": dict(blank, method="auto", netmask="", dns=dns),
    "ipv6": dict(blank, method="auto", prefix=""),
}
network.edit_connection(network.get_connection(uuid), settings)
print("edited")
