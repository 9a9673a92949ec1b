#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Access control, tested on a bus that enforces it as a real system bus
does (Debian's default policy, NetworkManager's and nm-dispatcher's policy
files, macguise's own): a local user without privileges cannot own
macguised's name, call what changes addresses, read the state or the
secret key, or change a profile's macguise policy past NetworkManager's
own authorization; what it may read shows current addresses only. The
user is "nobody" (uid 65534, by setpriv; the bus admits only uids with an
account, and adding one would change the machine); the systemd unit's
exposure is reported by systemd-analyze."""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402
from nmnetns import NmNetns  # noqa: E402

MACGUISED, CLI, UNIT = sys.argv[1], sys.argv[2], sys.argv[3]
NOBODY = 65534  # nobody: the bus admits only uids with an account
NM = NmNetns(strict_bus=True).start()
os.chmod(NM.dir, 0o711)  # the unprivileged clients reach the bus socket
NM.start_macguised(MACGUISED)
NM.add_ethernet("e1")
EARLIER = [NM.wait_cloned("e1")]
for _ in range(3):
    NM.macguise_call("Rotate", "e1", "false")
    EARLIER.append(NM.wait_cloned("e1", other_than=EARLIER[-1]))
CURRENT = EARLIER.pop()


def as_nobody(*cmd):
    return NM.run("setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *cmd,
                  ns=NM.ns, check=False)


def call(method, *args, user=None):
    return NM.macguise_call(method, *args, user=user)


@mgtap.test
def the_bus_refuses_an_unprivileged_owner_of_macguiseds_name():
    p = as_nobody("gdbus", "call", "--system", "--dest", "org.freedesktop.DBus",
                  "--object-path", "/org/freedesktop/DBus",
                  "--method", "org.freedesktop.DBus.RequestName", "org.macguise.Daemon1", "4")
    assert p.returncode != 0 and "AccessDenied" in p.stderr, (p.stdout, p.stderr)
    # root may (macguised holds it: a queued request is answered, not refused)
    p = NM.run("gdbus", "call", "--system", "--dest", "org.freedesktop.DBus",
               "--object-path", "/org/freedesktop/DBus",
               "--method", "org.freedesktop.DBus.RequestName", "org.macguise.Daemon1", "4",
               ns=NM.ns, check=False)
    assert p.returncode == 0 and "uint32 3" in p.stdout, (p.stdout, p.stderr)  # EXISTS


@mgtap.test
def the_bus_refuses_unprivileged_calls_that_change_or_probe():
    for method, args in (("Rotate", ("e1", "true")), ("Reload", ()),
                         ("GetLinkCheck", (NM.uuid_of("e1"),)),
                         ("ReportVerdict", (NM.uuid_of("e1"), "veth0", CURRENT, "conflict", "x", "1"))):
        p = call(method, *args, user=NOBODY)
        # Refused by the bus itself, before macguised sees it.
        assert p.returncode != 0 and "AccessDenied" in p.stderr and "Rejected send message" in p.stderr, \
            (method, p.stderr)
    assert NM.cloned("e1") == CURRENT


@mgtap.test
def status_is_open_and_shows_the_current_address_only():
    p = call("GetStatus", user=NOBODY)
    assert p.returncode == 0, p.stderr
    assert CURRENT in p.stdout
    for mac in EARLIER:
        for form in (mac, mac.replace(":", "")):
            assert form not in p.stdout.lower(), f"an earlier address, {mac}, in GetStatus"
    # The CLI as that user: the daemon's status, the same addresses.
    out = as_nobody(CLI, "status", "--json")
    assert out.returncode == 0, out.stderr
    status = json.loads(out.stdout)
    assert status["daemon_running"], status
    e1 = next(p for p in status["profiles"] if p["id"] == "e1")
    assert e1["address"] == CURRENT, e1


@mgtap.test
def status_shows_a_user_only_the_profiles_networkmanager_would():
    NM.add_ethernet("roots", "connection.permissions", "user:root")
    NM.add_ethernet("nobodys", "connection.permissions", "user:nobody")
    uuids = {n: NM.uuid_of(n) for n in ("roots", "nobodys", "e1")}
    NM.wait_for("macguised to know both",
                lambda: all(u in call("GetStatus").stdout for u in uuids.values()))
    seen = call("GetStatus", user=NOBODY).stdout
    assert uuids["nobodys"] in seen and uuids["e1"] in seen, seen
    assert uuids["roots"] not in seen, "a profile only root may see, shown to nobody"
    out = as_nobody(CLI, "status", "--json")
    assert out.returncode == 0, out.stderr
    assert "roots" not in {p["id"] for p in json.loads(out.stdout)["profiles"]}, out.stdout
    for name in ("roots", "nobodys"):
        NM.nmcli("connection", "delete", name)


@mgtap.test
def the_state_and_the_secret_key_are_root_only():
    state = os.path.join(NM.dir, "state")
    assert os.stat(state).st_mode & 0o777 == 0o700
    for name in ("state", "secret.key"):
        assert os.stat(os.path.join(state, name)).st_mode & 0o077 == 0, name
        p = as_nobody("cat", os.path.join(state, name))
        assert p.returncode != 0 and "Permission denied" in p.stderr, (name, p.stderr)
    p = as_nobody("ls", state)
    assert p.returncode != 0, p.stdout


@mgtap.test
def policy_changes_need_networkmanagers_authorization():
    before = open(os.path.join(NM.dir, "system-connections", "e1.nmconnection")).read()
    p = as_nobody(CLI, "policy", "e1", "mode=off")
    assert p.returncode == 1 and "e1" in p.stderr, p.stderr
    p = as_nobody("nmcli", "connection", "modify", "e1", "802-3-ethernet.cloned-mac-address", "")
    assert p.returncode != 0, p.stdout
    assert open(os.path.join(NM.dir, "system-connections", "e1.nmconnection")).read() == before
    # root, whom NetworkManager authorizes, may
    p = NM.run(CLI, "policy", "e1", "rotate=weekly", ns=NM.ns, check=False)
    assert p.returncode == 0, p.stderr


@mgtap.test
def the_units_exposure_is_low():
    if shutil.which("systemd-analyze") is None:
        raise AssertionError("systemd-analyze is missing (package systemd)")
    p = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", UNIT],
                       capture_output=True, text=True)
    m = re.search(r"Overall exposure level for \S+: ([0-9.]+)", p.stdout)
    assert m, p.stdout[-2000:] + p.stderr[-2000:]
    left = [line.split()[1] for line in p.stdout.splitlines() if line.startswith("✗")]
    print(f"# systemd-analyze security: exposure {m.group(1)}; still open: {', '.join(left)}")
    # Root without capabilities, netlink and a bus socket: what it needs.
    assert float(m.group(1)) <= 2.0, m.group(1)


try:
    mgtap.run()
finally:
    NM.stop()
