#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""How often the link check finds a twin (another station on the link with
the profile's address) with ordinary frames only, and how long until the
profile is up again with a new address, against a real NetworkManager,
nm-dispatcher and macguised in network namespaces. The profiles use
stable-privacy, so no probe of the EUI-64 link-local address is sent: what
finds a twin is the passive watch (in the window, and for passive-watch-s
after it) and the ARP probes.

(a) a twin on the cable (the demo's staged conflict): its link comes up
    with ours, and its kernel's link-up messages (duplicate address
    detection, MLD reports, router solicitations) give it away;
(b) a twin behind a switch, up for a while, quiet through the check, that
    then sends everyday traffic, an ARP request for a neighbour that has
    gone, every MG_BENCH_TWIN_PERIOD seconds (10): found when it first
    speaks, so the time to recovery is spread over one period;
(c) the same twin idle for MG_BENCH_TWIN_IDLE seconds (30): nothing it sends
    reaches us, and nothing finds it (the limit the threat model states).

    bench-twin.py MACGUISED HOOK        (as root)"""
import os
import random
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "nm"))
from nmnetns import NmNetns, SwitchedTwin  # noqa: E402

MACGUISED, HOOK = sys.argv[1:3]
TRIALS = int(os.environ.get("MG_BENCH_TWIN_TRIALS", "10"))
PERIOD = float(os.environ.get("MG_BENCH_TWIN_PERIOD", "10"))
IDLE = float(os.environ.get("MG_BENCH_TWIN_IDLE", "30"))
IDLE_TRIALS = int(os.environ.get("MG_BENCH_TWIN_IDLE_TRIALS", "3"))
STABLE_PRIVACY = ("ipv6.method", "link-local", "ipv6.addr-gen-mode", "stable-privacy")


def conflicts(nm, uuid):
    return nm.macguise_status(uuid)["conflicts"]


def trial(nm, n, setup, poke=None, limit=60.0):
    """One profile meets a twin of its address: seconds from `nmcli up`
    until it is up with another address and a clean check (None: not found
    within @limit), and whether the window itself found it."""
    name = f"twin-{n}"
    nm.add_ethernet(name, *STABLE_PRIVACY)
    mac = nm.wait_cloned(name)
    uuid = nm.uuid_of(name)
    with setup(mac):
        t0 = time.monotonic()
        nm.nmcli("connection", "up", name, check=False)
        # the twin's traffic has its own rhythm: the first frame comes at
        # any point of a period
        spoke = t0 - random.uniform(0, PERIOD)
        while time.monotonic() - t0 < limit:
            if conflicts(nm, uuid) > 0 and nm.link_mac() not in (mac,) and \
                    nm.macguise_status(uuid).get("verdict") == "clean":
                took = time.monotonic() - t0
                late = "after the check" in nm.macguise_status(uuid)["conflict-evidence"]
                break
            if poke is not None and time.monotonic() - spoke >= PERIOD:
                poke()
                spoke = time.monotonic()
            time.sleep(0.05)
        else:
            took, late = None, None
    nm.nmcli("connection", "down", name, check=False)
    nm.nmcli("connection", "delete", name)
    return took, late


class CableTwin:
    """The station at the other end of the cable takes the address, its link
    down and up (nmnetns.peer_as), as the demo stages it."""
    def __init__(self, nm, mac):
        self.nm, self.mac = nm, mac
        self.own = nm.link_mac("veth1", ns=nm.peer)

    def __enter__(self):
        self.nm.nmcli("device", "disconnect", "veth0", check=False)
        self.nm.peer_as(self.mac)
        return self

    def __exit__(self, *exc):
        self.nm.peer_as(self.own)
        return False


def report(label, results):
    found = [t for t, _ in results if t is not None]
    late = sum(1 for t, late in results if t is not None and late)
    line = f"{label}: found {len(found)} of {len(results)}"
    if found:
        line += (f" ({late} after the window); up again with a new address after "
                 f"median {statistics.median(found):.2f} s, {min(found):.2f}-{max(found):.2f} s")
    print(line, flush=True)


def main():
    if os.geteuid() != 0:
        sys.exit("bench-twin.py: run as root (it makes network namespaces)")
    nm = NmNetns().start()
    try:
        nm.start_macguised(MACGUISED)
        nm.start_dispatcher(HOOK)
        nm.wait_for("macguised", lambda: nm.macguise_call("GetStatus").returncode == 0)
        print(f"NetworkManager {nm.nmcli('-g', 'VERSION', 'general').stdout.strip()}; "
              f"{TRIALS} trials each, stable-privacy profiles", flush=True)
        report("(a) twin on the cable",
               [trial(nm, i, lambda mac: CableTwin(nm, mac)) for i in range(TRIALS)])
        twins = {}

        def switched(mac):
            twins["now"] = SwitchedTwin(nm, mac)
            return twins["now"]
        report(f"(b) switched twin, everyday ARP every {PERIOD:.0f} s",
               [trial(nm, 100 + i, switched, poke=lambda: twins["now"].speaks(),
                      limit=3 * PERIOD) for i in range(TRIALS)])
        report(f"(c) switched twin, idle for {IDLE:.0f} s",
               [trial(nm, 200 + i, switched, limit=IDLE) for i in range(IDLE_TRIALS)])
    finally:
        nm.stop()


if __name__ == "__main__":
    main()
