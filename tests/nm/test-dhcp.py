#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""DHCP, against a real NetworkManager and a real DHCP server (dnsmasq) in
network namespaces: NetworkManager keeps a profile's last lease and, at its
next activation, asks the server for that address again (option 50 in an
INIT-REBOOT request), before anything else. After a rotation that request
would come from the new MAC address and name the old one's lease, linking
the two for the network. A profile given a new address forgets its lease:
the new address's first DHCP message asks for nothing the old one had."""
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402
from nmnetns import NmNetns  # noqa: E402

MACGUISED, CLI = sys.argv[1:3]
BURNT_IN = "00:1b:21:3a:4c:11"  # a real Intel block, as the card's own

NM = NmNetns(managed=("veth0", "mgdev*"), boot=MACGUISED).start()
NM.start_macguised(MACGUISED)


def dhcp_messages(capture):
    """(source MAC, its DHCP message) for each DHCP client message seen."""
    return [(r["src"], r["dhcp"]) for r in NM.frame_records(capture) if "dhcp" in r]


def leased(device):
    """The IPv4 address DHCP gave @device, once it has one."""
    box = {}

    def bound():
        out = NM.nmcli("-g", "IP4.ADDRESS", "device", "show", device, check=False).stdout
        box["ip"] = out.strip().split("/")[0]
        return box["ip"].startswith("10.88.")

    NM.wait_for(f"a DHCP lease on {device}", bound, timeout=60)
    return box["ip"]


def up_with_address(name, device, other_than=None):
    """Brings @name up and waits until it is up on @device with the address
    macguised wrote (other than @other_than): that address."""
    NM.nmcli("connection", "up", name, check=False, timeout=90)
    box = {}

    def settled():
        box["mac"] = NM.cloned(name)
        return box["mac"] not in ("", other_than) and box["mac"] == NM.link_mac(device) and \
            NM.nmcli("-g", "GENERAL.STATE", "device", "show", device).stdout.startswith("100")

    NM.wait_for(f"'{name}' up with a macguise address", settled, timeout=60)
    return box["mac"]


@mgtap.test
def a_new_address_does_not_ask_for_the_old_addresses_lease():
    capture = os.path.join(NM.dir, "frames-mgdev0.jsonl")
    peer_end = NM.new_adapter("mgdev0", BURNT_IN, capture)
    NM.plug_in(peer_end)
    NM.nmcli("connection", "add", "type", "ethernet", "ifname", "mgdev0", "con-name", "leased",
             "connection.autoconnect", "no")
    p = NM.run(CLI, "policy", "leased", "rotate=activation", ns=NM.ns, check=False)
    assert p.returncode == 0, p.stderr
    first = up_with_address("leased", "mgdev0")
    old_ip = leased("mgdev0")
    uuid = NM.uuid_of("leased")
    # NetworkManager keeps the lease, to ask for it at the next activation
    assert glob.glob(os.path.join(NM.nm_lib, f"*-{uuid}-mgdev0.lease")), os.listdir(NM.nm_lib)

    NM.nmcli("connection", "down", "leased")
    second = up_with_address("leased", "mgdev0", other_than=first)
    leased("mgdev0")
    from_second = [m for src, m in dhcp_messages(capture) if src == second]
    assert from_second, "no DHCP message from the new address"
    for m in from_second:
        assert m["requested"] != old_ip and m["ciaddr"] != old_ip, \
            f"the new address asked for the old one's lease {old_ip}: {m}"


try:
    mgtap.run()
finally:
    NM.stop()
