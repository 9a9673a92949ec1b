#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The NetworkManager facts macguise is built on (shared/DESIGN.md), checked
on a real NetworkManager in network namespaces: an explicit cloned MAC is on
the link when the profile comes up, and NetworkManager's own `random` sets
the locally-administered bit that macguise exists to avoid."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402
from nmnetns import NmNetns  # noqa: E402

MACHINE_NM_DIRS = ("/var/lib/NetworkManager", "/run/NetworkManager")


def machine_nm_files():
    """What the machine's own NetworkManager directories hold."""
    found = {}
    for top in MACHINE_NM_DIRS:
        for root, _, files in os.walk(top):
            for name in files:
                path = os.path.join(root, name)
                st = os.stat(path)
                found[path] = (st.st_size, st.st_mtime_ns)
    return found


BEFORE = machine_nm_files()
NM = NmNetns().start()


@mgtap.test
def explicit_cloned_mac_is_on_the_link():
    NM.add_ethernet("fixed", "802-3-ethernet.cloned-mac-address", "8c:f8:c5:12:34:56")
    NM.nmcli("connection", "up", "fixed")
    assert NM.link_mac() == "8c:f8:c5:12:34:56", NM.link_mac()
    NM.nmcli("connection", "down", "fixed")
    NM.nmcli("connection", "delete", "fixed")


@mgtap.test
def nm_logs_the_address_it_sets_at_its_default_level():
    # Why `macguise audit` names NetworkManager's logging (nm-logging-addresses):
    # at level INFO, Debian's default, every activation writes the cloned MAC
    # to the journal in plain text, a history of every address macguise gave.
    NM.add_ethernet("logged", "802-3-ethernet.cloned-mac-address", "8c:f8:c5:65:43:21")
    NM.nmcli("connection", "up", "logged")
    NM.wait_for("the address in NetworkManager's log",
                lambda: "8c:f8:c5:65:43:21" in NM.log_tail("nm", lines=400).lower())
    NM.nmcli("connection", "down", "logged")
    NM.nmcli("connection", "delete", "logged")


@mgtap.test
def nm_random_sets_the_locally_administered_bit():
    NM.add_ethernet("rnd", "802-3-ethernet.cloned-mac-address", "random")
    seen = set()
    for _ in range(5):
        NM.nmcli("connection", "up", "rnd")
        mac = NM.link_mac()
        seen.add(mac)
        assert int(mac[:2], 16) & 2, f"{mac}: expected the locally-administered bit"
        NM.nmcli("connection", "down", "rnd")
    assert len(seen) == 5, seen
    NM.nmcli("connection", "delete", "rnd")


@mgtap.test
def the_machines_networkmanager_files_are_untouched():
    # the test's NetworkManager has run, activated profiles and drawn
    # random addresses: none of it reached the machine's directories
    assert machine_nm_files() == BEFORE, set(machine_nm_files().items()) ^ set(BEFORE.items())


@mgtap.test
def teardown_leaves_nothing():
    ns, peer, tmp = NM.ns, NM.peer, NM.dir
    pids = [p.pid for _, p in NM.pids]
    NM.stop()
    listed = NM.run("ip", "netns", "list").stdout
    assert ns not in listed and peer not in listed, listed
    assert not os.path.exists(tmp)
    for pid in pids:
        assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z", pid


try:
    mgtap.run()
finally:
    NM.stop()
