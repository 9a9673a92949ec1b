#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The main job, shown against a real NetworkManager in throwaway network
namespaces (the test harness, tests/nm/nmnetns.py): a newly plugged card
meets its network with a macguise address from its first frame, a profile gets a
plausible address, activates with it after the link check, rotates, and a
staged conflict is detected and recovered. Everything it starts is ended by
its pid and the namespaces are deleted; nothing outside them is touched.

    tools/demo.py BUILD_DIR        (as root; `tools/dev demo` runs it)"""
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "nm"))
from nmnetns import NmNetns  # noqa: E402

BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
CLI = os.path.join(BUILD, "cli", "macguise")


def say(text):
    print(f"\n== {text}", flush=True)


def cli_json(nm, *args):
    p = subprocess.run(["ip", "netns", "exec", nm.ns, CLI, *args, "--json"], env=nm.env,
                       capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


def describe(mac):
    info = json.loads(subprocess.run([CLI, "lookup", "--json", mac], capture_output=True,
                                     text=True, check=True).stdout)[0]
    if not info["in_catalogue"]:
        return f"{mac}  ({info['kind']})"
    return f"{mac}  {info['vendor']} (block {info['oui']}, {', '.join(info['classes'])})"


def status(nm):
    return cli_json(nm, "status", "demo")["profiles"][0]


def first_contact(nm):
    burnt_in = "00:1b:21:3a:4c:01"
    say(f"a new card (burnt-in address {burnt_in}) is plugged into a network with a DHCP "
        "server; NetworkManager makes its automatic profile and brings it up")
    capture = os.path.join(nm.dir, "demo-frames.jsonl")
    nm.plug_in(nm.new_adapter("mgnew0", burnt_in, capture))
    box = {}

    def settled():
        out = nm.nmcli("-t", "-f", "GENERAL.CONNECTION,GENERAL.STATE", "device", "show",
                       "mgnew0", check=False).stdout
        fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
        box["name"] = fields.get("GENERAL.CONNECTION", "")
        return fields.get("GENERAL.STATE", "").startswith("100") and \
            nm.cloned(box["name"]) == nm.link_mac("mgnew0")

    nm.wait_for("the automatic profile to come up", settled, timeout=60)
    seen = sorted(set(nm.frames_from(capture)))
    print(f"  '{box['name']}' is up; the network received "
          f"{len(nm.frames_from(capture))} frames, from: {', '.join(seen)}")
    print("  " + describe(nm.link_mac("mgnew0")))
    print(f"  never from {burnt_in}: NetworkManager drew that first address from the "
          "catalogue defaults macguise's boot step wrote, and macguised kept it in the profile")
    nm.nmcli("device", "disconnect", "mgnew0")


def main():
    if os.geteuid() != 0:
        sys.exit("tools/demo.py: run as root (it makes network namespaces)")
    macguised = os.path.join(BUILD, "daemon", "macguised")
    nm = NmNetns(auto_default=("mgnew*",), boot=macguised).start()
    try:
        say(f"a throwaway NetworkManager {nm.nmcli('-g', 'VERSION', 'general').stdout.strip()} "
            f"in namespaces {nm.ns} and {nm.peer}, with macguised and nm-dispatcher")
        nm.start_macguised(macguised)
        nm.start_dispatcher(os.path.join(BUILD, "dispatcher", "macguise-pre-up-uninstalled"))
        nm.wait_for("macguised", lambda: nm.macguise_call("GetStatus").returncode == 0)
        peer_mac = nm.link_mac("veth1", ns=nm.peer)
        nm.peer_as(peer_mac)

        first_contact(nm)

        say("nmcli connection add ... con-name demo: macguised gives it a plausible address")
        nm.add_ethernet("demo")
        first = nm.wait_cloned("demo")
        print("  " + describe(first))

        say("nmcli connection up demo: the link check runs first, then the link uses it")
        nm.nmcli("connection", "up", "demo")
        nm.wait_for("the verdict", lambda: status(nm)["check"] is not None)
        s = status(nm)
        print(f"  veth0 is {nm.link_mac()}; check: {s['check']['verdict']} — {s['check']['evidence']}")

        say("macguise rotate demo --now: a new address, re-activated")
        subprocess.run(["ip", "netns", "exec", nm.ns, CLI, "rotate", "demo", "--now"], env=nm.env,
                       check=True, stdout=subprocess.DEVNULL)
        second = nm.wait_cloned("demo", other_than=first)
        nm.wait_for("the new address on the link", lambda: nm.link_mac() == second)
        print("  " + describe(second))

        say(f"a staged conflict: the station on the other end of the cable takes {second}")
        nm.nmcli("connection", "down", "demo")
        nm.peer_as(second)
        # macguised's recovery re-activates the profile, which may cut this
        # activation short before nmcli sees it finish
        nm.nmcli("connection", "up", "demo", check=False)
        nm.wait_for("recovery", lambda: nm.link_mac() not in (second, peer_mac)
                    and nm.link_mac() == nm.cloned("demo") and status(nm)["check"]["verdict"] == "clean"
                    and status(nm)["last_conflict"] is not None, timeout=15)
        s = status(nm)
        print(f"  found: {s['last_conflict']['evidence']}")
        print(f"  macguised burned it and re-activated with {describe(nm.link_mac())}; "
              f"check: {s['check']['verdict']}")

        say("for comparison, NetworkManager's own cloned-mac-address=random")
        nm.nmcli("connection", "down", "demo")
        nm.add_ethernet("nm-random", "802-3-ethernet.cloned-mac-address", "random")
        nm.nmcli("connection", "up", "nm-random")
        rnd = nm.link_mac()
        # what is said of the address is read off it, not assumed
        if int(rnd[:2], 16) & 0x02:
            print(f"  {rnd}: locally administered — every observer can tell it is made up")
        else:
            print(f"  {describe(rnd)}: globally administered — macguise's first-contact "
                  "mask reached this profile too, though it names its own setting (issue #46)")
        nm.nmcli("connection", "down", "nm-random")
        assert re.match(r"^[0-9a-f]{2}", rnd)
    finally:
        nm.stop()
    say("torn down: every process it started ended, both namespaces deleted")


if __name__ == "__main__":
    main()
