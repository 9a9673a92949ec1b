#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Suspend, against a real NetworkManager in network namespaces: a laptop
that sleeps past a due time wakes up with wall-clock time days ahead and
monotonic time where it was. macguised runs under libfaketime, whose
offset the test moves forward as a suspend would (monotonic time left
alone), and a stand-in for logind sends PrepareForSleep around the
"suspend" on the private bus. An idle profile has its new address as soon
as the machine wakes, before NetworkManager reconnects; a profile brought
up after the wake-up never carries the spent address."""
import glob
import os
import re
import signal
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402
from nmnetns import NmNetns  # noqa: E402

MACGUISED, CLI, FAKE_LOGIND = sys.argv[1:4]
FOUND = glob.glob("/usr/lib/*/faketime/libfaketime.so.1")
if not FOUND:
    raise SystemExit("Bail out! libfaketime is missing (package libfaketime; tools/dev installs it)")
LIBFAKETIME = FOUND[0]
MAC_RE = re.compile(r"^([0-9a-f]{2}:){5}[0-9a-f]{2}$")

NM = NmNetns().start()
CLOCK = os.path.join(NM.dir, "faketime")
with open(CLOCK, "w") as f:
    f.write("+0\n")
READY = os.path.join(NM.dir, "logind.ready")
LOGIND = NM.spawn("logind", FAKE_LOGIND, READY)
NM.wait_for("the stand-in for logind", lambda: os.path.exists(READY))
NM.start_macguised(MACGUISED, env={
    "LD_PRELOAD": LIBFAKETIME,
    "FAKETIME_TIMESTAMP_FILE": CLOCK,
    "FAKETIME_NO_CACHE": "1",
    # a suspend stops monotonic time; GLib's main loop runs on it
    "FAKETIME_DONT_FAKE_MONOTONIC": "1",
})
NM.wait_for("macguised's D-Bus API", lambda: NM.macguise_call("GetStatus").returncode == 0)


def policy(name, *settings):
    p = NM.run(CLI, "policy", name, *settings, ns=NM.ns, check=False)
    assert p.returncode == 0, p.stderr


def sleep_for(days):
    """A suspend of @days: logind's signal, the wall clock jumping, the
    signal at wake-up."""
    LOGIND.send_signal(signal.SIGUSR1)
    with open(CLOCK + ".new", "w") as f:
        f.write(f"+{days}d\n")
    os.replace(CLOCK + ".new", CLOCK)
    LOGIND.send_signal(signal.SIGUSR2)


@mgtap.test
def an_idle_profile_due_during_sleep_has_its_new_address_at_wake_up():
    NM.add_ethernet("idle")
    policy("idle", "rotate=daily")
    before = NM.wait_cloned("idle", timeout=30)
    sleep_for(3)
    after = NM.wait_cloned("idle", other_than=before, timeout=30)
    assert MAC_RE.match(after) and after != before
    log = open(os.path.join(NM.dir, "macguised.log"), encoding="utf-8").read()
    assert "the machine woke up" in log, log[-2000:]


@mgtap.test
def a_profile_up_after_wake_up_never_keeps_the_spent_address():
    # NetworkManager reconnects at wake-up, maybe before macguised acted:
    # an activation with an address whose time passed is given a new one.
    NM.add_ethernet("roam")
    policy("roam", "rotate=daily")
    spent = NM.wait_cloned("roam", timeout=30)
    NM.nmcli("connection", "up", "roam")
    assert NM.link_mac() == spent
    sleep_for(6)
    NM.nmcli("connection", "up", "roam", check=False, timeout=90)
    NM.wait_for("a new address on the link",
                lambda: NM.link_mac() != spent and NM.cloned("roam") == NM.link_mac(),
                timeout=60)
    assert MAC_RE.match(NM.link_mac())


try:
    mgtap.run()
finally:
    NM.stop()
