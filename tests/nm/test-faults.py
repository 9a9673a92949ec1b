#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Faults against a real NetworkManager in network namespaces: macguised
killed with SIGKILL at random points during rotations, 100 times (the state
always loads, every profile holds a plausible address that was its old or
its new one, no address is handed out twice, the history loses nothing);
NetworkManager killed during an activation and restarted (macguised and the
hook carry on); a write whose turn comes while NetworkManager is away; the state directory full, then read-only (a clear error, the
old state intact, macguised keeps serving and retries by itself); a disk
that holds a save inside its fsync (the link check still gets its answer,
and the address that save records reaches NetworkManager only after it)."""
import fcntl
import glob
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402
from nmnetns import NmNetns, catalogue_lookup, history_entries, history_entry  # noqa: E402

MACGUISED, HOOK, CLI, SLOW_FSYNC = sys.argv[1:5]
KILLS = int(os.environ.get("MG_FAULT_KILLS", "100"))
SEED = int(os.environ.get("MG_FAULT_SEED", str(int(time.time()))))
PROFILES = [f"f{i}" for i in range(12)]
MAC_RE = re.compile(r"^cloned-mac-address=([0-9A-Fa-f:]{17})$", re.M)

NM = NmNetns().start()
STATE = os.path.join(NM.dir, "state")
CONNS = os.path.join(NM.dir, "system-connections")


def keyfile_macs():
    """Each profile's address as NetworkManager keeps it on disk."""
    out = {}
    for name in PROFILES:
        with open(os.path.join(CONNS, name + ".nmconnection")) as f:
            m = MAC_RE.search(f.read())
        out[name] = m.group(1).lower() if m else None
    return out


def history(d=STATE):
    """The reuse history's key and entries in state directory @d."""
    return history_entries(d)


def digest(key, mac):
    return history_entry(key, mac)


def starts():
    with open(os.path.join(NM.dir, "macguised.log"), encoding="utf-8", errors="replace") as f:
        return f.read().count("following NetworkManager")


def start_macguised(env=None):
    before = starts() if os.path.exists(os.path.join(NM.dir, "macguised.log")) else 0
    NM.start_macguised(MACGUISED, env=env)
    NM.wait_for("macguised to follow NetworkManager", lambda: starts() > before)
    NM.wait_for("its D-Bus API", lambda: NM.macguise_call("GetStatus").returncode == 0)


def start_slow_disk_macguised():
    """macguised with a disk whose fsync waits while GATE exists (MARK
    exists while one waits), and the dispatcher with the hook."""
    gate = os.path.join(NM.dir, "fsync-gate")
    mark = os.path.join(NM.dir, "fsync-waiting")
    if running("macguised"):
        NM.end("macguised")
    start_macguised(env={"LD_PRELOAD": os.path.abspath(SLOW_FSYNC),
                         "MG_SLOW_FSYNC_GATE": gate, "MG_SLOW_FSYNC_MARK": mark})
    if not running("dispatcher"):
        NM.start_dispatcher(HOOK)
    return gate, mark


def saved_group(uuid):
    """Profile @uuid's group in the state file as it is on disk ("": none)."""
    with open(os.path.join(STATE, "state"), encoding="utf-8") as f:
        parts = f.read().split(f"[profile {uuid}]\n", 1)
    return parts[1].split("\n[", 1)[0] if len(parts) == 2 else ""


def running(name):
    return any(n == name and p.poll() is None for n, p in NM.pids)


def cli_status():
    p = NM.run(CLI, "status", "--json", ns=NM.ns)
    return json.loads(p.stdout)


@mgtap.test
def sigkill_at_random_points_during_rotations():
    rng = random.Random(SEED)
    print(f"# seed {SEED} (MG_FAULT_SEED repeats it), {KILLS} kills")
    for i, name in enumerate(PROFILES):
        path = os.path.join(CONNS, name + ".nmconnection")
        with open(path, "w") as f:
            f.write(f"[connection]\nid={name}\nuuid=00000000-0000-4000-8000-{i:012d}\n"
                    "type=ethernet\nautoconnect=false\n\n[ethernet]\n\n[ipv4]\nmethod=disabled\n\n"
                    "[ipv6]\nmethod=disabled\n")
        os.chmod(path, 0o600)
    NM.nmcli("connection", "reload")
    start_macguised()
    NM.wait_for("every profile's first address", lambda: None not in keyfile_macs().values())
    held = {name: [mac] for name, mac in keyfile_macs().items()}  # in order, per profile
    owner = {mac: name for name, macs in held.items() for mac in macs}
    rotations = 0
    for kill in range(KILLS):
        if kill > 0:
            start_macguised()
        NM.macguise_call("Rotate", "", "false")
        time.sleep(rng.uniform(0, 0.3))
        NM.end("macguised", signal.SIGKILL)
        time.sleep(0.2)  # writes NetworkManager had already taken finish
        assert not glob.glob(os.path.join(STATE, "state.broken-*")), "the state did not load"
        status = cli_status()
        assert status["state_readable"] and status["state_problem"] is None, status["state_problem"]
        key, digests = history()
        for name, mac in keyfile_macs().items():
            assert mac is not None, f"{name} lost its address"
            if mac != held[name][-1]:
                # a new one: never another profile's, never one it had before
                assert mac not in owner, f"{mac} handed out twice ({owner[mac]}, then {name})"
                held[name].append(mac)
                owner[mac] = name
                rotations += 1
        for mac in owner:
            assert digest(key, mac) in digests, f"kill {kill}: {mac} is missing from the history"
    # Started once more, macguised takes up every address NetworkManager
    # holds, even those it was killed before recording as current.
    start_macguised()
    uuids = {f"00000000-0000-4000-8000-{i:012d}": n for i, n in enumerate(PROFILES)}

    def agreed():
        st = cli_status()
        current = {uuids[p["uuid"]]: p["address"] for p in st["profiles"] if p["uuid"] in uuids}
        return current == keyfile_macs()

    NM.wait_for("macguised's state to agree with NetworkManager", agreed, timeout=30)
    for mac in list(owner)[:20]:
        assert catalogue_lookup(CLI, mac)["in_catalogue"], mac
    print(f"# {rotations} rotations reached NetworkManager across {KILLS} kills; "
          f"{len(owner)} addresses, each handed out once")
    assert rotations >= KILLS // 4, "the kills came too early to test anything"


@mgtap.test
def networkmanager_killed_during_an_activation_and_restarted():
    NM.start_dispatcher(HOOK)
    NM.add_ethernet("e1")
    NM.wait_cloned("e1")
    pid = next(p.pid for n, p in NM.pids if n == "macguised")
    before = starts()
    # The link check takes 200 ms: kill NetworkManager inside it.
    up = subprocess.Popen(["ip", "netns", "exec", NM.ns, "nmcli", "--wait", "10", "connection", "up",
                           "e1"], env=NM.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.12)  # past the link's setup, inside the 200 ms link check
    NM.end("nm", signal.SIGKILL)
    NM.start_nm()
    up.wait(timeout=30)  # nmcli gives up on the activation NetworkManager lost
    NM.wait_for("macguised to follow the new NetworkManager", lambda: starts() > before, timeout=30)
    assert next(p for n, p in NM.pids if n == "macguised").poll() is None and \
        next(p.pid for n, p in NM.pids if n == "macguised") == pid, "macguised did not survive"
    # The new NetworkManager takes the configured link over as an external,
    # in-memory profile: not one of the user's, and macguised must not
    # write it to disk (a profile nobody made) or give it an address: once
    # macguised has carried out all it decided, it has had its chance to.
    NM.macguised_caught_up()
    made = sorted(os.listdir(CONNS))
    assert all(n.startswith(("e1.", "f")) for n in made), made
    # The next activation is checked as usual.
    NM.nmcli("connection", "down", "e1", check=False)
    def check():
        return next(p for p in cli_status()["profiles"] if p["id"] == "e1")["check"] or {}

    checked = check().get("at")
    NM.nmcli("connection", "up", "e1")
    NM.wait_for("a fresh clean verdict",
                lambda: check().get("verdict") == "clean" and check().get("at") != checked)
    assert NM.link_mac() == NM.cloned("e1")
    NM.nmcli("connection", "down", "e1")


@mgtap.test
def a_write_whose_turn_comes_while_networkmanager_is_away_waits_for_it():
    """A write that gets its turn while NetworkManager is away (the macguise
    command held the profile lock until then) is sent to nobody: it neither
    waits out a D-Bus timeout holding its slot nor counts as failed, and
    the NetworkManager that comes back gets the address recorded for it."""
    log = os.path.join(NM.dir, "macguised.log")
    with open(os.path.join(STATE, "profiles.lock"), "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        before = history()[1]
        NM.add_ethernet("away")
        NM.wait_for("its address recorded", lambda: len(history()[1]) > len(before))
        recorded = history()[1] - before
        seen = len(NM.log_text("macguised"))
        NM.end("nm")
        NM.wait_for("macguised to see NetworkManager leave", lambda:
                    "NetworkManager is not running" in NM.log_text("macguised")[seen:])
    # The lock is free: the write's turn comes, with NetworkManager away.
    NM.wait_for("the write put off", lambda: "profile 'away': NetworkManager is away" in
                NM.log_text("macguised")[seen:])
    NM.start_nm()
    mac = NM.wait_cloned("away")
    key, _ = history()
    assert {digest(key, mac)} == recorded, "the address written is not the one recorded"
    assert "cannot write its address" not in NM.log_text("macguised")[seen:], \
        NM.log_text("macguised")[seen:]


@mgtap.test
def a_save_held_in_its_fsync_costs_no_activation_its_check():
    """A slow SD card: macguised's save of one profile's new address is held
    inside fsync while another profile comes up. The hook still gets its
    answer (it waits 250 ms) and checks the link; the held address reaches
    NetworkManager only once its save is done."""
    gate, mark = start_slow_disk_macguised()
    NM.add_ethernet("slow-disk")
    NM.add_ethernet("rotated")
    NM.wait_cloned("slow-disk")
    held = NM.wait_cloned("rotated")
    open(gate, "w").close()
    try:
        assert NM.macguise_call("Rotate", "rotated", "false").returncode == 0
        NM.wait_for("a save held in its fsync", lambda: os.path.exists(mark))
        seen = len(NM.hook_lines())
        NM.nmcli("connection", "up", "slow-disk")
        NM.wait_for("the hook's outcome", lambda: any(
            "link check" in line or "macguised" in line for line in NM.hook_lines()[seen:]))
        lines = NM.hook_lines()[seen:]
        assert any("link check clean" in line for line in lines), lines
        assert os.path.exists(mark), "the save was not held throughout"
        assert NM.cloned("rotated") == held, "an address reached NetworkManager before its save"
    finally:
        os.unlink(gate)
    new = NM.wait_cloned("rotated", other_than=held)
    key, digests = history()
    assert digest(key, new) in digests
    NM.nmcli("connection", "down", "slow-disk")
    NM.end("macguised")
    start_macguised()


@mgtap.test
def stopping_waits_for_a_held_save_and_saves_what_came_after():
    """Asked to stop while a save is held inside fsync, macguised waits for
    it, then saves what changed meanwhile: a verdict recorded after the held
    save began is in the state file once macguised has exited."""
    gate, mark = start_slow_disk_macguised()
    NM.add_ethernet("checked-late")
    NM.add_ethernet("rotated-late")
    NM.wait_cloned("checked-late")
    NM.wait_cloned("rotated-late")
    uuid = NM.uuid_of("checked-late")
    daemon = next(p for n, p in NM.pids if n == "macguised")
    open(gate, "w").close()
    try:
        assert NM.macguise_call("Rotate", "rotated-late", "false").returncode == 0
        NM.wait_for("a save held in its fsync", lambda: os.path.exists(mark))
        NM.nmcli("connection", "up", "checked-late")
        NM.wait_for("the verdict in macguised's status", lambda: (next(
            p for p in cli_status()["profiles"] if p["id"] == "checked-late")["check"] or {}
        ).get("verdict") == "clean")
        assert "verdict=" not in saved_group(uuid), "the verdict was saved while a save was held"
        daemon.send_signal(signal.SIGTERM)
    finally:
        os.unlink(gate)
    NM.end("macguised")
    assert daemon.returncode == 0, daemon.returncode
    assert "verdict=clean\n" in saved_group(uuid), "the verdict recorded after the held save is lost"
    NM.nmcli("connection", "down", "checked-late")
    start_macguised()


def mounted(path):
    with open("/proc/self/mountinfo") as f:
        return any(line.split()[4] == path for line in f)


@mgtap.test
def full_then_read_only_state_directory():
    NM.end("macguised")
    small = os.path.join(NM.dir, "small-state")
    os.makedirs(small)
    # A tiny file system of its own, mounted inside the test directory only.
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k,mode=0700", "mg-small", small], check=True)
    try:
        for name in ("state", "secret.key"):
            subprocess.run(["cp", "-p", os.path.join(STATE, name), small], check=True)
        NM.env["STATE_DIRECTORY"] = small
        log = os.path.join(NM.dir, "macguised.log")
        before = starts()
        NM.spawn("macguised", MACGUISED, ns=NM.ns)
        NM.wait_for("macguised", lambda: starts() > before)
        NM.wait_for("its D-Bus API", lambda: NM.macguise_call("GetStatus").returncode == 0)
        state = os.path.join(small, "state")
        old_mac = NM.cloned("f0")

        def fill():
            with open(os.path.join(small, "filler"), "wb", buffering=0) as f:
                try:
                    while True:
                        f.write(b"\0" * 4096)
                        f.flush()
                except OSError:
                    pass

        for how in ("full", "read-only"):
            if how == "full":
                fill()
            else:
                os.unlink(os.path.join(small, "filler"))
                subprocess.run(["mount", "-o", "remount,ro", small], check=True)
            with open(state, "rb") as f:
                kept = f.read()
            lines = open(log, encoding="utf-8").read().count("\n")
            assert NM.macguise_call("Rotate", "f0", "false").returncode == 0
            # the save's error, then what it means for the profile, which
            # may come a moment later
            NM.wait_for(f"a clear error ({how})", lambda: "cannot save the state" in
                        "".join(open(log, encoding="utf-8").readlines()[lines:]))
            NM.wait_for(f"the profile keeping its address ({how})",
                        lambda: "keeps its address until a new one can be recorded" in
                        "".join(open(log, encoding="utf-8").readlines()[lines:]))
            time.sleep(1)
            with open(state, "rb") as f:
                assert f.read() == kept, f"{how}: the old state changed"
            assert sorted(os.listdir(small)) == sorted(["state", "secret.key", "profiles.lock",
                                                        "owner.lock"] +
                                                       (["filler"] if how == "full" else [])), os.listdir(small)
            assert NM.cloned("f0") == old_mac, f"{how}: an unrecorded address reached NetworkManager"
            # Still serving: status answers, from memory.
            assert NM.macguise_call("GetStatus").returncode == 0
        # Writable again: the retry (5 s, 10 s, ...) goes through by itself.
        subprocess.run(["mount", "-o", "remount,rw", small], check=True)
        new = NM.wait_cloned("f0", other_than=old_mac, timeout=60)
        key, digests = history(small)
        assert digest(key, new) in digests
        assert "the state directory is writable again" in open(log, encoding="utf-8").read()
        NM.end("macguised")
    finally:
        NM.env["STATE_DIRECTORY"] = STATE
        if mounted(small):
            subprocess.run(["umount", small], check=False)


try:
    mgtap.run()
finally:
    NM.stop()
