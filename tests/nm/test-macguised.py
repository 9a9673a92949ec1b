#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""macguised against a real NetworkManager in network namespaces: profiles
get plausible addresses, on the link when they come up; rotation per
activation; hand-set addresses are left alone; restarts of either side are
caught up with; nothing earlier is kept in plain text. Its D-Bus API:
test-dbus-api.py."""
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402
from nmnetns import NmNetns, catalogue_lookup, history_entries, history_entry  # noqa: E402
from reaper import reaper  # noqa: E402
import profiles  # noqa: E402
from profiles import rotate as api_rotate  # noqa: E402

MACGUISED, CLI, NEIGHBOURS_DUMP, STATIONS_DUMP = sys.argv[1:5]
MAC_RE = re.compile(r"^[0-9a-f]{2}(:[0-9a-f]{2}){5}$")
ASSIGNED = set()  # every address macguised gave any profile in this run

NM = NmNetns().start()
NM.start_macguised(MACGUISED)


def cloned(name, setting="802-3-ethernet"):
    return NM.cloned(name, setting)


def wait_cloned(name, setting="802-3-ethernet", other_than=None, timeout=15):
    box = {}

    def ready():
        v = cloned(name, setting)
        if MAC_RE.match(v) and v != other_than:
            box["mac"] = v
            return True
        return False

    NM.wait_for(f"a macguise address in '{name}'", ready, timeout=timeout)
    ASSIGNED.add(box["mac"])
    return box["mac"]


def state_text():
    with open(os.path.join(NM.dir, "state", "state"), encoding="utf-8") as f:
        return f.read()


def add_keyfile(name, uuid, extra=""):
    profiles.add_keyfile(NM, name, uuid, extra)


@mgtap.test
def new_ethernet_profile_gets_a_plausible_address_and_uses_it():
    NM.add_ethernet("e1")
    mac = wait_cloned("e1")
    assert int(mac[:2], 16) & 3 == 0, f"{mac}: not globally administered unicast"
    info = catalogue_lookup(CLI, mac)
    assert info["in_catalogue"] and "ethernet" in info["classes"], info
    NM.nmcli("connection", "up", "e1")
    assert NM.link_mac() == mac, (NM.link_mac(), mac)
    NM.nmcli("connection", "down", "e1")


@mgtap.test
def two_profiles_get_different_addresses():
    NM.add_ethernet("e2")
    assert wait_cloned("e2") != cloned("e1")


@mgtap.test
def neighbour_table_addresses_are_read():
    # What macguised refuses as candidates includes every station in the
    # kernel's neighbour tables, IPv4 and IPv6.
    # On a second veth pair NetworkManager leaves unmanaged (veth0's
    # profiles disable IPv6), inside the test's namespace.
    # Addresses given at creation: udev's MACAddressPolicy replaces only a
    # random one, and a changed address flushes the neighbour table, the
    # entries below with it (seen once as an empty dump).
    NM.run("ip", "link", "add", "mgv0", "address", "02:00:00:00:00:01", "type", "veth",
           "peer", "name", "mgv1", "address", "02:00:00:00:00:02", ns=NM.ns)
    NM.run("ip", "link", "set", "mgv0", "up", ns=NM.ns)
    NM.run("ip", "neigh", "replace", "10.78.0.9", "lladdr", "8c:f8:c5:aa:bb:01", "dev", "mgv0",
           "nud", "permanent", ns=NM.ns)
    NM.run("ip", "-6", "neigh", "replace", "fe80::9", "lladdr", "b8:27:eb:aa:bb:02", "dev", "mgv0",
           "nud", "permanent", ns=NM.ns)
    seen = NM.run(NEIGHBOURS_DUMP, ns=NM.ns).stdout.split()
    assert "8c:f8:c5:aa:bb:01" in seen and "b8:27:eb:aa:bb:02" in seen, seen


@mgtap.test
def wifi_profile_gets_a_wifi_class_address():
    # No Wi-Fi device is needed to create and rewrite a Wi-Fi profile.
    NM.nmcli("connection", "add", "type", "wifi", "ifname", "wlan0", "con-name", "w1",
             "ssid", "macguise-test", "connection.autoconnect", "no")
    mac = wait_cloned("w1", "802-11-wireless")
    assert "wifi" in catalogue_lookup(CLI, mac)["classes"], catalogue_lookup(CLI, mac)


@mgtap.test
def rotate_activation_gives_every_activation_a_fresh_address():
    add_keyfile("act", "5b0b3f4e-9a77-4c4d-8e0e-0c0ffee00001", "[user]\nmacguise.rotate=activation\n")
    mac = wait_cloned("act")
    on_link, stable_ids = [], set()
    for _ in range(20):
        NM.nmcli("connection", "up", "act")
        on_link.append(NM.link_mac())
        assert on_link[-1] == mac, (on_link[-1], mac)
        NM.nmcli("connection", "down", "act")
        mac = wait_cloned("act", other_than=mac)
        # harden=yes (the default): a new stable-id epoch with each address,
        # so IPv6 stable-privacy and DHCP identifiers move with the MAC.
        sid = NM.nmcli("-g", "connection.stable-id", "connection", "show", "act").stdout.strip()
        assert sid.startswith("macguise-"), sid
        stable_ids.add(sid)
    assert len(set(on_link)) == 20, on_link
    assert len(stable_ids) == 20, stable_ids
    assert all(catalogue_lookup(CLI, m)["in_catalogue"] for m in on_link)


def mark_in_keyfile(name):
    """The org.macguise.mark NetworkManager saved for @name, or None."""
    path = os.path.join(NM.dir, "system-connections", name + ".nmconnection")
    with open(path, encoding="utf-8") as f:
        found = re.search(r"^org\.macguise\.mark=(\S*)$", f.read(), re.M)
    return found.group(1) if found else None


@mgtap.test
def hand_set_address_is_left_alone_and_loses_macguises_mark():
    # The mark of macguise's address would give it away, tested against the
    # catalogue, to anyone who can read the profile: it goes with the address.
    mark = mark_in_keyfile("e2")
    assert mark is not None and re.fullmatch(r"[0-9a-f]{5}", mark), mark
    NM.nmcli("connection", "modify", "e2", "802-3-ethernet.cloned-mac-address", "00:11:22:33:44:55")
    NM.wait_for("user-owned in the state", lambda: "user-owned=true" in state_text())
    NM.wait_for("macguise's mark gone from e2", lambda: mark_in_keyfile("e2") is None)
    NM.macguised_caught_up()
    assert cloned("e2") == "00:11:22:33:44:55"


def restart_macguised(running=True):
    log = os.path.join(NM.dir, "macguised.log")
    starts = open(log, encoding="utf-8").read().count("following NetworkManager")
    if running:
        NM.end("macguised")
    NM.start_macguised(MACGUISED)
    NM.wait_for("macguised to follow NetworkManager",
                lambda: open(log, encoding="utf-8").read().count("following NetworkManager") > starts)


@mgtap.test
def clearing_the_setting_hands_the_profile_back():
    NM.add_ethernet("e5")
    wait_cloned("e5")
    NM.nmcli("connection", "modify", "e5", "802-3-ethernet.cloned-mac-address", "permanent")
    NM.wait_for("e5 user-owned", lambda: "handed back" not in NM.log_tail("macguised")
                and state_text().count("user-owned=true") == 2)
    NM.nmcli("connection", "modify", "e5", "802-3-ethernet.cloned-mac-address", "")
    mac = wait_cloned("e5")
    assert catalogue_lookup(CLI, mac)["in_catalogue"]
    assert state_text().count("user-owned=true") == 1  # only e2 now


@mgtap.test
def macguised_restart_rotates_nothing():
    before = {n: cloned(n) for n in ("e1", "act")}
    restart_macguised()
    NM.macguised_caught_up()
    assert {n: cloned(n) for n in before} == before


def make_due(uuids):
    profiles.make_due(NM, uuids)


def uuid_of(name):
    return NM.uuid_of(name)


@mgtap.test
def due_rotation_waits_for_an_active_profile_to_go_down():
    # e1 is down, e4 is up; both fall due while macguised is stopped.
    NM.add_ethernet("e4")
    e4 = wait_cloned("e4")
    NM.nmcli("connection", "up", "e4")
    e1 = cloned("e1")
    NM.end("macguised")
    make_due([uuid_of("e1"), uuid_of("e4")])
    NM.start_macguised(MACGUISED)
    wait_cloned("e1", other_than=e1)  # down: rewritten at once
    NM.macguised_caught_up()
    assert cloned("e4") == e4 and NM.link_mac() == e4  # up: untouched
    NM.nmcli("connection", "down", "e4")
    new = wait_cloned("e4", other_than=e4)  # at its deactivation
    NM.nmcli("connection", "up", "e4")
    assert NM.link_mac() == new
    NM.nmcli("connection", "down", "e4")


@mgtap.test
def networkmanager_restart_is_caught_up_with():
    NM.end("nm")
    # macguised started while NetworkManager is absent waits for it.
    log = os.path.join(NM.dir, "macguised.log")
    starts = open(log, encoding="utf-8").read().count("following NetworkManager")
    NM.end("macguised")
    seen = len(open(log, encoding="utf-8").read())
    NM.start_macguised(MACGUISED)
    NM.wait_for("macguised to wait for NetworkManager", lambda: "waiting for it" in
                open(log, encoding="utf-8").read()[seen:])
    NM.start_nm()
    NM.wait_for("macguised to follow NetworkManager",
                lambda: open(log, encoding="utf-8").read().count("following NetworkManager") > starts)
    NM.add_ethernet("e3")
    wait_cloned("e3", timeout=30)


@mgtap.test
def networkmanager_leaving_is_not_every_profile_leaving():
    """NetworkManager stops (a restart, a crash) while profiles are
    recorded, one of them up with a rotation owed: libnm says every profile
    went, yet none left. Their records stay, and when NetworkManager is
    back none is taken up again as if unknown, counted anew or set by hand."""
    NM.add_ethernet("kept")
    NM.add_ethernet("kept-up")
    kept, kept_up = wait_cloned("kept"), wait_cloned("kept-up")
    NM.nmcli("connection", "up", "kept-up")
    assert list(rotate("kept-up", False).values()) == [("pending", "active")]
    uuids = {"kept": uuid_of("kept"), "kept-up": uuid_of("kept-up")}
    before = {n: NM.macguise_status(u) for n, u in uuids.items()}
    assert before["kept-up"]["pending"], before
    log = os.path.join(NM.dir, "macguised.log")
    seen = len(open(log, encoding="utf-8").read())
    NM.end("nm")
    NM.wait_for("macguised to see NetworkManager go",
                lambda: "NetworkManager is not running" in open(log, encoding="utf-8").read()[seen:])
    NM.start_nm()
    NM.wait_for("macguised to follow NetworkManager again",
                lambda: "following NetworkManager" in open(log, encoding="utf-8").read()[seen:])
    NM.macguised_caught_up()
    after = {n: NM.macguise_status(u) for n, u in uuids.items()}
    told = open(log, encoding="utf-8").read()[seen:]
    assert "took up the address" not in told and "set by hand" not in told, told
    assert after["kept"]["address"] == kept and cloned("kept") == kept, after
    for key in ("generation", "assigned-at", "due-at"):
        assert after["kept"][key] == before["kept"][key], (key, before, after)
    # the rotation owed is still owed, or was made as the profile went down
    # (this NetworkManager, with a /run of its own each start, does not take
    # the connection up again; the booted test's does, and checks it stays)
    k = after["kept-up"]
    assert (k["pending"] and k["generation"] == before["kept-up"]["generation"]
            and k["address"] == kept_up) or \
        (k["generation"] == before["kept-up"]["generation"] + 1 and k["address"] != kept_up), k
    assert f"[profile {uuids['kept']}]" in state_text()
    NM.nmcli("connection", "down", "kept-up", check=False)
    for name in uuids:
        NM.nmcli("connection", "delete", name)


@mgtap.test
def a_clone_gets_an_address_of_its_own():
    """nmcli connection clone (GNOME's Duplicate) copies the original's
    address into the copy: the copy gets one of its own, the original keeps
    its, and no two profiles share one, however they rotate."""
    add_keyfile("original", "5b0b3f4e-9a77-4c4d-8e0e-0c0ffee00c10", "[user]\nmacguise.rotate=never\n")
    mine = wait_cloned("original")
    NM.nmcli("connection", "clone", "original", "copy")
    theirs = wait_cloned("copy", other_than=mine)
    NM.macguised_caught_up()
    assert cloned("original") == mine and cloned("copy") == theirs, (mine, theirs)
    assert NM.macguise_status(uuid_of("copy"))["address"] == theirs
    assert NM.macguise_status(uuid_of("original"))["address"] == mine
    for name in ("original", "copy"):
        NM.nmcli("connection", "delete", name)


def boot_step_with_read_only_state():
    """macguised --boot with a copy of the state on a read-only tmpfs of
    the test's own, unmounted after."""
    ro = reaper().mkdtemp("mg-ro-state-")  # (the reaper unmounts it too)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "mg-ro-state", ro],
                   check=True)
    try:
        state = os.path.join(NM.dir, "state")
        for name in os.listdir(state):
            shutil.copy2(os.path.join(state, name), ro)
        subprocess.run(["mount", "-o", "remount,ro", ro], check=True)
        NM.use_macguise_dirs()
        NM.env["STATE_DIRECTORY"] = ro
        return NM.run(MACGUISED, "--boot", f"--keyfile-dir={NM.dir}/system-connections",
                      f"--nm-conf-dir={NM.dir}/conf.d", f"--nm-state-dir={NM.nm_lib}",
                      ns=NM.ns, check=False)
    finally:
        NM.use_macguise_dirs()
        subprocess.run(["umount", ro], check=True)
        os.rmdir(ro)
        reaper().forget("dir", ro)


@mgtap.test
def boot_step_rewrites_due_profiles_before_networkmanager_starts():
    # The machine was off past e1's rotation time: the boot step, run
    # before NetworkManager, rewrites its keyfile; NetworkManager then
    # activates it with the new address.
    e1, uuid = cloned("e1"), uuid_of("e1")
    act, act_uuid = cloned("act"), uuid_of("act")
    NM.add_ethernet("bm")
    wait_cloned("bm")
    NM.end("macguised")
    make_due([uuid])
    # While NetworkManager runs, the boot step refuses and changes nothing:
    # NetworkManager would write its profiles back over a new address.
    e1_keyfile = os.path.join(NM.dir, "system-connections", "e1.nmconnection")
    with open(e1_keyfile) as f:
        before = f.read()
    p = NM.run_boot_step(MACGUISED, check=False)
    assert p.returncode == 1 and "NetworkManager is running" in p.stderr, (p.returncode, p.stderr)
    with open(e1_keyfile) as f:
        assert f.read() == before
    NM.end("nm")
    # the leases NetworkManager kept: the rewritten profile's goes, so its
    # new address does not ask for the old one's (see test-dhcp.py)
    os.makedirs(NM.nm_lib, exist_ok=True)
    leases = {u: os.path.join(NM.nm_lib, f"internal-{u}-veth0.lease") for u in (uuid, act_uuid)}
    for path in leases.values():
        with open(path, "w") as f:
            f.write("# This is private data. Do not parse.\nADDRESS=10.77.0.9\n")
    # A state that cannot be saved (its directory read-only): no keyfile
    # gets an address the history does not hold, and it says why.
    p = boot_step_with_read_only_state()
    assert "cannot be recorded in the state" in p.stderr, p.stderr
    with open(e1_keyfile) as f:
        assert f.read() == before
    # bm's address set by hand while NetworkManager was stopped: the mark of
    # macguise's address, left beside it, goes at boot
    bm_keyfile = os.path.join(NM.dir, "system-connections", "bm.nmconnection")
    with open(bm_keyfile) as f:
        text = f.read()
    assert mark_in_keyfile("bm") is not None
    with open(bm_keyfile, "w") as f:
        f.write(re.sub(r"(?m)^cloned-mac-address=.*$", "cloned-mac-address=00:11:22:33:44:66", text))
    p = NM.run_boot_step(MACGUISED)
    assert "1 profile(s) given a new address" in p.stdout + p.stderr, p.stdout + p.stderr
    assert not os.path.exists(leases[uuid]) and os.path.exists(leases[act_uuid])
    assert mark_in_keyfile("bm") is None, p.stderr
    assert "the mark of its earlier macguise address removed at boot" in p.stderr, p.stderr
    NM.start_nm()
    new = cloned("e1")
    assert MAC_RE.match(new) and new != e1, (new, e1)
    ASSIGNED.add(new)
    assert cloned("act") == act  # not due: untouched
    NM.nmcli("connection", "up", "e1")
    assert NM.link_mac() == new
    NM.nmcli("connection", "down", "e1")
    restart_macguised(running=False)
    NM.macguised_caught_up()
    assert cloned("e1") == new  # the service agrees: no second rotation
    assert cloned("bm") == "00:11:22:33:44:66"
    NM.nmcli("connection", "delete", "bm")


def snapshot(*dirs):
    """Every file in @dirs, name and bytes."""
    return {os.path.join(d, n): open(os.path.join(d, n), "rb").read()
            for d in dirs for n in sorted(os.listdir(d))
            if os.path.isfile(os.path.join(d, n))}


@mgtap.test
def boot_step_beside_macguised_changes_nothing():
    # `systemctl restart NetworkManager` stops NetworkManager and, while the
    # boot step was wanted by NetworkManager.service, started it again with
    # macguised running. A profile is due (its time passed while it was up)
    # and its rotation owed: the boot step, seeing no NetworkManager, gave it
    # a new address in its keyfile and saved over macguised's state, and
    # macguised, which never reloads, took that address as set by hand. Now
    # it finds the state owned by macguised and changes nothing.
    NM.add_ethernet("owed")
    old, uuid = wait_cloned("owed"), uuid_of("owed")
    NM.nmcli("connection", "up", "owed")
    NM.end("macguised")
    make_due([uuid])
    restart_macguised(running=False)
    NM.macguised_caught_up()
    status = NM.macguise_status(uuid)
    assert status["pending"] and cloned("owed") == old, status  # up: it waits
    log = os.path.join(NM.dir, "macguised.log")
    seen = len(open(log, encoding="utf-8").read())
    NM.end("nm")
    NM.wait_for("macguised to see NetworkManager go",
                lambda: "NetworkManager is not running" in open(log, encoding="utf-8").read()[seen:])
    dirs = [os.path.join(NM.dir, d) for d in ("state", "system-connections", "conf.d")]
    before = snapshot(*dirs)
    p = NM.run_boot_step(MACGUISED, check=False)
    after = snapshot(*dirs)
    assert after == before, (sorted(n for n in set(before) | set(after)
                                    if before.get(n) != after.get(n)), p.stderr)
    assert p.returncode == 0 and "macguised is running" in p.stderr, (p.returncode, p.stderr)
    NM.start_nm()
    NM.wait_for("macguised to follow NetworkManager again",
                lambda: "following NetworkManager" in open(log, encoding="utf-8").read()[seen:])
    # due and down now: the next activation carries a new address, macguised's
    new = wait_cloned("owed", other_than=old, timeout=30)
    NM.macguised_caught_up()
    status = NM.macguise_status(uuid)
    assert status["address"] == new and not status.get("user-owned", False), status
    assert "set by hand" not in open(log, encoding="utf-8").read()[seen:]
    NM.nmcli("connection", "delete", "owed")


def dbus(method, *args, user=None):
    return NM.macguise_call(method, *args, user=user)


def rotate(profile, now):
    return api_rotate(NM, profile, now)


@mgtap.test
def keep_vendor_rotates_within_one_vendor_block():
    # veth has no permanent address, so the block is that of the profile's
    # first (plausible) address, and every rotation stays in it.
    add_keyfile("kv", "6a0c1f7e-3b2d-4c9a-8e5f-0123456789ab", "[user]\nmacguise.mode=keep-vendor\n")
    first = wait_cloned("kv")
    block = catalogue_lookup(CLI, first)["oui"]
    seen = {first}
    for _ in range(4):
        cur = cloned("kv")
        assert rotate("kv", False)[uuid_of("kv")][0] == "rotated"
        new = wait_cloned("kv", other_than=cur)
        assert new.startswith(block) and catalogue_lookup(CLI, new)["oui"] == block, (new, block)
        seen.add(new)
    assert len(seen) == 5
    NM.nmcli("connection", "delete", "kv")


@mgtap.test
def no_earlier_address_in_state_or_default_level_log():
    current = {cloned(n) for n in ("e1", "act", "e3", "e4", "e5")} | {cloned("w1", "802-11-wireless")}
    earlier = ASSIGNED - current
    assert len(earlier) >= 19, len(earlier)
    text = state_text().lower()
    log = open(os.path.join(NM.dir, "macguised.log"), encoding="utf-8", errors="replace").read().lower()
    for mac in earlier:
        for form in (mac, mac.replace(":", ""), mac.replace(":", "-")):
            assert form not in text, f"{mac} in the state file"
            assert form not in log, f"{mac} in the log"
    assert log.count("new address #") >= len(ASSIGNED), "the log should name each new address by digest"
    for mac in current:
        assert mac not in log, f"{mac} in the default-level log"


AP_VENDORS = {"TP-Link", "NETGEAR", "D-Link", "AVM (FRITZ!Box)", "Linksys", "Zyxel", "Sagemcom",
              "Arcadyan", "Technicolor (Vantiva)", "Askey", "Sercomm", "Ubiquiti", "eero",
              "MikroTik", "Tenda", "ASUS"}


@mgtap.test
def hotspot_profile_gets_a_router_class_address_and_rotates_while_down():
    # An access-point profile needs no Wi-Fi device to be created and
    # rewritten. Its BSSID comes from a router maker, not a laptop's card.
    NM.nmcli("connection", "add", "type", "wifi", "ifname", "wlan0", "con-name", "hs",
             "ssid", "FreedomBox", "802-11-wireless.mode", "ap", "ipv4.method", "shared",
             "connection.autoconnect", "no")
    seen = set()
    mac = wait_cloned("hs", "802-11-wireless")
    for _ in range(6):
        info = catalogue_lookup(CLI, mac)
        assert "ap" in info["classes"] and info["vendor"] in AP_VENDORS, info
        assert int(mac[:2], 16) & 3 == 0, mac
        seen.add(info["vendor"])
        # Down: a rotation is written at once.
        assert rotate("hs", False)[uuid_of("hs")][0] == "rotated"
        mac = wait_cloned("hs", "802-11-wireless", other_than=mac)
    status = dbus("GetStatus").stdout
    hs = status[status.index(f"'{uuid_of('hs')}'"):].split("}")[0]
    assert "'class': <'ap'>" in hs, hs
    print(f"# hotspot vendors seen: {sorted(seen)}")
    # Before restarting a hotspot in its quiet hours macguised counts its
    # clients in the kernel's nl80211 station list. Where that cannot be
    # read (here: no Wi-Fi at all) the answer is "unknown", which the
    # schedule takes as "clients connected" (tests/schedule/quiet-hours-*).
    p = NM.run(STATIONS_DUMP, "veth0", ns=NM.ns, check=False)
    assert p.returncode == 1 and p.stdout.startswith("unknown: nl80211"), (p.stdout, p.stderr)


def sharing_an_entry(key, entries, prefix):
    """An address in the block @prefix (not macguise's) whose 20-bit history
    entry is one of @entries: about one in 2^20 / len(entries) shares one."""
    for serial in range(1 << 24):
        mac = prefix + ":%02x:%02x:%02x" % (serial >> 16, (serial >> 8) & 0xff, serial & 0xff)
        if history_entry(key, mac) in entries:
            return mac
    raise AssertionError("no address of the block shares an entry")


@mgtap.test
def an_address_set_by_hand_that_shares_a_history_entry_is_still_the_users():
    # The history keeps 20 bits of each address: with the disk and its key,
    # an entry leaves some 44,000 catalogue addresses, not one. An address
    # set by hand that happens to share an entry carries no mark of
    # macguise's, so it is the user's, not an earlier macguise address.
    NM.add_ethernet("hx")
    wait_cloned("hx")
    key, entries = history_entries(os.path.join(NM.dir, "state"))
    chosen = sharing_an_entry(key, entries, "00:1b:21")
    NM.nmcli("connection", "modify", "hx", "802-3-ethernet.cloned-mac-address", chosen)
    uuid = uuid_of("hx")
    NM.wait_for("hx user-owned", lambda: (NM.macguise_status(uuid) or {}).get("user-owned"))
    NM.macguised_caught_up()
    assert cloned("hx") == chosen
    NM.nmcli("connection", "delete", "hx")


@mgtap.test
def two_hundred_profiles_at_once_all_get_distinct_addresses():
    # More profiles than the system bus lets one client have calls pending
    # (128): every one still gets its address, each a different one.
    conns = os.path.join(NM.dir, "system-connections")
    names = [f"bulk{i}" for i in range(200)]
    for i, name in enumerate(names):
        path = os.path.join(conns, name + ".nmconnection")
        with open(path, "w") as f:
            f.write(f"[connection]\nid={name}\nuuid=00000000-0000-4000-8000-{i:012d}\n"
                    "type=ethernet\nautoconnect=false\n\n[ethernet]\n\n[ipv4]\nmethod=disabled\n\n"
                    "[ipv6]\nmethod=disabled\n")
        os.chmod(path, 0o600)
    t = time.monotonic()
    NM.nmcli("connection", "reload", timeout=60)

    def assigned():
        macs = []
        for name in names:
            with open(os.path.join(conns, name + ".nmconnection")) as f:
                m = re.search(r"^cloned-mac-address=(.*)$", f.read(), re.M)
            if m is None:
                return None
            macs.append(m.group(1).lower())
        return macs

    NM.wait_for("200 addresses", lambda: assigned() is not None, timeout=120)
    macs = assigned()
    print(f"# 200 profiles given addresses in {time.monotonic() - t:.1f} s")
    assert len(set(macs)) == 200, "an address given twice"
    assert not set(macs) & ASSIGNED, "an address given before"
    for name in names:
        os.unlink(os.path.join(conns, name + ".nmconnection"))
    NM.nmcli("connection", "reload", timeout=60)


@mgtap.test
def a_lost_secret_key_leaves_managed_profiles_managed_and_rotating():
    # The key that checks the history is lost (a restore without it, a disk
    # error): the state is set aside and a fresh one started. The addresses
    # macguised wrote carry its mark, so their profiles stay managed and get
    # new addresses; one set by hand stays alone; nothing at rest keeps the
    # old addresses in plain text.
    # the 200 profiles of the test before are gone from macguised's state
    # first (slow under memcheck): this test's profile is not queued behind them
    NM.wait_for("macguised to forget the bulk profiles",
                lambda: "00000000-0000-4000-8000-" not in state_text(), timeout=120)
    NM.add_ethernet("lost")
    old, uuid = wait_cloned("lost"), uuid_of("lost")
    by_hand = cloned("e2")
    NM.end("macguised")
    os.unlink(os.path.join(NM.dir, "state", "secret.key"))
    restart_macguised(running=False)
    new = wait_cloned("lost", other_than=old, timeout=30)
    ASSIGNED.add(new)
    status = NM.macguise_status(uuid)
    assert status is not None and not status.get("user-owned", False), status
    assert status.get("recognised-at", 0) > 0, status
    assert "state lost" in NM.run(CLI, "status", "lost", ns=NM.ns).stdout
    p = NM.run(CLI, "audit", "--json", "lost", ns=NM.ns)
    assert "state-lost" in {f["id"] for f in json.loads(p.stdout)["profiles"][0]["findings"]}
    NM.wait_for("e2 still left alone", lambda: "user-owned=true" in state_text())
    assert cloned("e2") == by_hand
    state_dir = os.path.join(NM.dir, "state")
    moved = [n for n in os.listdir(state_dir) if n.startswith("state.broken-")]
    assert moved, os.listdir(state_dir)
    for name in os.listdir(state_dir):
        with open(os.path.join(state_dir, name), "rb") as f:
            text = f.read().lower()
        for form in (old, old.replace(":", "-")):
            assert form.encode() not in text, f"{old} in plain text in {name}"


try:
    mgtap.run()
finally:
    NM.stop()
