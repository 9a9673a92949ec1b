#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hostile and odd profiles against a real NetworkManager: user data at
NetworkManager's limits (256 keys, 8 KiB values, strange but valid UTF-8),
profiles with odd or absent settings, and 200 profiles on 200 veth links
activated and deactivated all at once. macguised must not crash or stall,
must never give one address to two profiles, and must honour every
rotation (here: a new address for every activation)."""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402
from nmnetns import NmNetns  # noqa: E402

MACGUISED, CLI = sys.argv[1], sys.argv[2]
LINKS = int(os.environ.get("MG_HOSTILE_LINKS", "200"))
ROUNDS = int(os.environ.get("MG_HOSTILE_ROUNDS", "1"))
NM = NmNetns(managed=("veth0", "vp*")).start()
NM.start_macguised(MACGUISED)
CONNS = os.path.join(NM.dir, "system-connections")
MAC_RE = re.compile(r"^cloned-mac-address=([0-9A-Fa-f:]{17})$", re.M)


def keyfile(name, body, uuid):
    path = os.path.join(CONNS, name + ".nmconnection")
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"[connection]\nid={name}\nuuid={uuid}\n{body}")
    os.chmod(path, 0o600)
    return path


def cloned_on_disk(name):
    with open(os.path.join(CONNS, name + ".nmconnection"), encoding="utf-8") as f:
        m = MAC_RE.search(f.read())
    return m.group(1).lower() if m else None


def daemon_alive():
    return next(p for n, p in NM.pids if n == "macguised").poll() is None


def status():
    p = NM.run(CLI, "status", "--json", ns=NM.ns)
    return json.loads(p.stdout)


@mgtap.test
def user_data_at_networkmanagers_limits():
    # 256 keys is NetworkManager's maximum; 8 KiB its longest value.
    odd = ["plausible\u200b", "ＰＬＡＵＳＩＢＬＥ", "off\u0301", "\U0001f600", "d\u00e9j\u00e0", "\u202eoff"]
    lines = []
    for i in range(250):
        lines.append(f"other.tool-{i:03d}=" + ("é" * 4000 if i % 50 == 0 else f"v{i}"))
    lines += [f"macguise.mode={odd[0]}", f"macguise.rotate={'３d'}",
              f"macguise.vendors={','.join(['intel'] * 1300)}"[:8192],
              f"macguise.class={odd[3]}", f"macguise.harden={odd[5]}",
              "macguise.quiet-hours=" + "0" * 8000]
    assert len(lines) == 256
    path = keyfile("limits", "type=ethernet\nautoconnect=false\n\n[ethernet]\n\n[ipv4]\nmethod=disabled\n\n"
                   "[ipv6]\nmethod=disabled\n\n[user]\n" + "\n".join(lines) + "\n",
                   "5a0d6c2e-6a59-4e8f-9d1b-0c0c0c0c0001")
    p = NM.nmcli("connection", "load", path, check=False)
    assert p.returncode == 0, p.stderr
    NM.wait_for("an address for it", lambda: cloned_on_disk("limits") is not None)
    assert daemon_alive()
    prof = next(p for p in status()["profiles"] if p["id"] == "limits")
    # Every bad value is named, and its default used; the long vendor list is
    # valid (intel), so it holds.
    assert prof["mode"] == "plausible" and prof["managed"], prof
    assert len(prof["problems"]) >= 4, prof["problems"]
    assert NM.macguise_call("GetStatus").returncode == 0
    # One key over NetworkManager's limit is NetworkManager's to refuse.
    p = NM.run(CLI, "policy", "limits", "rotate=daily", ns=NM.ns, check=False)
    assert p.returncode in (0, 1) and daemon_alive(), p.stderr


@mgtap.test
def odd_and_absent_settings():
    bodies = {
        # no [ethernet] section at all, no IP settings
        "bare": "type=ethernet\nautoconnect=false\n",
        # Wi-Fi in ad-hoc and mesh-like modes, hidden SSID of 32 odd bytes
        "adhoc": "type=wifi\nautoconnect=false\n\n[wifi]\nmode=adhoc\nssid=\\xff\\xfe\\x00odd\n",
        "hidden": "type=wifi\nautoconnect=false\n\n[wifi]\nmode=infrastructure\nhidden=true\n"
                  "ssid=" + "\u00e9" * 16 + "\n",
        # an access point with no security and an empty user section
        "ap": "type=wifi\nautoconnect=false\n\n[wifi]\nmode=ap\nssid=x\n\n[ipv4]\nmethod=shared\n\n[user]\n",
        # a cloned address NetworkManager accepts but is not a MAC macguise made
        "stable": "type=ethernet\nautoconnect=false\n\n[ethernet]\ncloned-mac-address=stable\n",
        # a bond and a bridge: not ours
        "bond": "type=bond\nautoconnect=false\ninterface-name=mgbond\n\n[bond]\nmode=active-backup\n",
        "bridge": "type=bridge\nautoconnect=false\ninterface-name=mgbr\n",
    }
    for i, (name, body) in enumerate(bodies.items()):
        path = keyfile(name, body, f"5a0d6c2e-6a59-4e8f-9d1b-0c0c0c0c01{i:02d}")
        NM.nmcli("connection", "load", path, check=False)
    for name in ("bare", "hidden", "ap"):
        NM.wait_for(f"an address for {name}", lambda n=name: cloned_on_disk(n) is not None)
    NM.macguised_caught_up()  # what it decided about the rest is carried out
    assert daemon_alive()
    by_id = {p["id"]: p for p in status()["profiles"]}
    assert by_id["ap"]["type"] == "ap" and by_id["stable"]["user_owned"], by_id.get("stable")
    assert "bond" not in by_id and "bridge" not in by_id
    assert cloned_on_disk("stable") is None  # left as it was ("stable")
    p = NM.run(CLI, "audit", "--json", ns=NM.ns, check=False)
    assert p.returncode == 0 and daemon_alive(), p.stderr


@mgtap.test
def two_hundred_links_up_and_down_at_once():
    # veth pairs inside NetworkManager's namespace: it manages the vp ends
    # (an Ethernet profile can be activated on a veth; the vq ends give
    # them carrier and are left alone).
    for i in range(LINKS):
        NM.run("ip", "link", "add", f"vp{i}", "type", "veth", "peer", "name", f"vq{i}", ns=NM.ns)
        NM.run("ip", "link", "set", f"vq{i}", "up", ns=NM.ns)
        NM.run("ip", "link", "set", f"vp{i}", "up", ns=NM.ns)
    NM.wait_for(f"{LINKS} links in NetworkManager", lambda: NM.nmcli(
        "-t", "-f", "DEVICE", "device").stdout.count("vp") >= LINKS, timeout=60)
    for i in range(LINKS):
        NM.nmcli("device", "set", f"vp{i}", "managed", "yes")
    NM.wait_for(f"{LINKS} links ready", lambda: sum(
        1 for line in NM.nmcli("-t", "-f", "DEVICE,STATE", "device").stdout.splitlines()
        if line.startswith("vp") and line.endswith(":disconnected")) == LINKS, timeout=60)
    names = [f"m{i}" for i in range(LINKS)]
    for i, name in enumerate(names):
        keyfile(name, f"type=ethernet\nautoconnect=false\ninterface-name=vp{i}\n\n[ethernet]\n\n"
                "[ipv4]\nmethod=disabled\n\n[ipv6]\nmethod=disabled\n\n[user]\nmacguise.rotate=activation\n",
                f"6b1e7d3f-7b6a-4f90-8e2c-{i:012d}")
    NM.nmcli("connection", "reload", timeout=60)
    NM.wait_for("an address for every one", lambda: None not in map(cloned_on_disk, names), timeout=120)
    seen = {n: [cloned_on_disk(n)] for n in names}

    def nmcli(*args):
        return subprocess.run(["ip", "netns", "exec", NM.ns, "nmcli", "--wait", "60", *args],
                              env=NM.env, capture_output=True, text=True, timeout=120)

    for rnd in range(ROUNDS):
        t = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(32) as pool:
            ups = list(pool.map(lambda n: nmcli("connection", "up", n), names))
        took_up = time.monotonic() - t
        assert all(p.returncode == 0 for p in ups), [p.stderr for p in ups if p.returncode][:3]
        on_links = [NM.link_mac(f"vp{i}") for i in range(LINKS)]
        assert len(set(on_links)) == LINKS, "two links with one address"
        for n, mac in zip(names, on_links):
            assert mac == seen[n][-1], (n, mac, seen[n])
        with concurrent.futures.ThreadPoolExecutor(32) as pool:
            downs = list(pool.map(lambda n: nmcli("connection", "down", n), names))
        assert all(p.returncode == 0 for p in downs), [p.stderr for p in downs if p.returncode][:3]
        # rotate=activation: each one has a fresh address for its next activation
        NM.wait_for("a fresh address for every one", lambda: all(
            cloned_on_disk(n) not in (None, seen[n][-1]) for n in names), timeout=120)
        for n in names:
            seen[n].append(cloned_on_disk(n))
        print(f"# round {rnd}: {LINKS} up at once in {took_up:.1f} s; down and re-addressed "
              f"{time.monotonic() - t - took_up:.1f} s later")
        assert daemon_alive()
    everything = [m for macs in seen.values() for m in macs]
    assert len(everything) == len(set(everything)), "an address given twice"


try:
    mgtap.run()
finally:
    NM.stop()
