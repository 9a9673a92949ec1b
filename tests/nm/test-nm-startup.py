#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""NetworkManager as it starts on people's machines: it takes up an
autoconnecting wired connection at its start, and the DHCP server does not
answer (a router slow at boot, a dead port), so NetworkManager's Startup
stays true for as long as that lasts. macguised serves every other profile
meanwhile, at its own start and across NetworkManager's restarts; the
connection NetworkManager is taking up again keeps its address and the
rotation it owes; and once the DHCP server answers and NetworkManager has
finished starting, the owed rotation is made at the deactivation, as
always."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402
from nmnetns import MAC_RE, NmNetns  # noqa: E402

MACGUISED, CLI = sys.argv[1:3]
NM = NmNetns()
SLOW = "wired"


def startup():
    """NetworkManager's own word: "starting" or "started"."""
    return NM.nmcli("-t", "-f", "STARTUP", "general").stdout.strip()


def device_state():
    return NM.nmcli("-g", "GENERAL.STATE", "device", "show", "veth0").stdout.strip()


def taking_up_the_slow_connection():
    """NetworkManager started again, taking up the wired connection at its
    start; it waits there for a DHCP answer that does not come."""
    NM.end("nm")
    NM.start_nm()
    NM.wait_for("NetworkManager to take the wired connection up",
                lambda: device_state().startswith(("40", "50", "60", "70")))
    assert startup() == "starting", startup()


def status(name):
    return NM.macguise_status(NM.uuid_of(name))


def set_up():
    NM.start()
    NM.start_macguised(MACGUISED)
    NM.wait_for("macguised to follow NetworkManager",
                lambda: "following NetworkManager" in NM.log_text("macguised"))
    NM.nmcli("connection", "add", "type", "ethernet", "ifname", "veth0", "con-name", SLOW,
             "ipv4.method", "auto", "ipv4.dhcp-timeout", "infinity", "ipv6.method", "disabled",
             "connection.autoconnect", "no")
    NM.wait_cloned(SLOW)
    NM.nmcli("connection", "modify", SLOW, "connection.autoconnect", "yes")
    NM.macguised_caught_up()
    NM.end("macguised")


@mgtap.test
def macguised_started_while_networkmanager_takes_up_a_connection_serves_the_rest():
    address = NM.cloned(SLOW)
    taking_up_the_slow_connection()
    NM.start_macguised(MACGUISED)
    NM.wait_for("macguised to follow the starting NetworkManager",
                lambda: NM.log_text("macguised").count("following NetworkManager") >= 2)
    NM.add_ethernet("added-at-start")
    added = NM.wait_cloned("added-at-start", timeout=30)
    assert startup() == "starting", "the address came only once NetworkManager had started"
    assert MAC_RE.match(added) and added != address
    # the connection NetworkManager is taking up is left as it is
    assert NM.cloned(SLOW) == address
    NM.nmcli("connection", "delete", "added-at-start")


@mgtap.test
def across_a_restart_the_connection_taken_up_again_keeps_its_address_and_its_owed_rotation():
    address = NM.cloned(SLOW)
    p = NM.run(CLI, "rotate", SLOW, ns=NM.ns)
    assert "pending" in p.stdout, p.stdout + p.stderr
    before = status(SLOW)
    assert before["pending"], before
    taking_up_the_slow_connection()
    NM.wait_for("macguised to follow the restarted NetworkManager",
                lambda: NM.log_text("macguised").count("following NetworkManager") >= 3)
    NM.add_ethernet("added-after-restart")
    NM.wait_cloned("added-after-restart", timeout=30)
    assert startup() == "starting", "the address came only once NetworkManager had started"
    # added after the wired connection's turn: had macguised written it, the
    # write would have reached NetworkManager first
    after = status(SLOW)
    assert NM.cloned(SLOW) == address, "the connection being taken up again was rewritten"
    assert after["pending"] and after["generation"] == before["generation"], (before, after)
    NM.nmcli("connection", "delete", "added-after-restart")


@mgtap.test
def once_the_dhcp_server_answers_the_owed_rotation_is_made_at_deactivation():
    address = NM.cloned(SLOW)
    NM.run("ip", "addr", "add", "10.77.0.1/24", "dev", "veth1", ns=NM.peer)
    NM.spawn("dnsmasq", "dnsmasq", "--keep-in-foreground", "--port=0", "--bind-interfaces",
             "--interface=veth1", "--except-interface=lo", "--dhcp-range=10.77.0.10,10.77.0.200,1h",
             f"--dhcp-leasefile={NM.dir}/leases", "--user=root",
             f"--pid-file={NM.dir}/dnsmasq.pid", "--log-facility=-", ns=NM.peer)
    NM.wait_for("the wired connection to come up", lambda: device_state().startswith("100"),
                timeout=90)
    NM.wait_for("NetworkManager to finish starting", lambda: startup() == "started", timeout=60)
    assert NM.link_mac() == address and status(SLOW)["pending"]
    NM.nmcli("connection", "down", SLOW)
    new = NM.wait_cloned(SLOW, other_than=address)
    assert MAC_RE.match(new) and not status(SLOW)["pending"]


try:
    set_up()
    mgtap.run()
finally:
    NM.stop()
