#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""macguised's D-Bus API against a real NetworkManager in network
namespaces: status, rotation now or at deactivation, reload, verdicts,
ProfilesChanged (never naming a profile hidden from other users), what an
unprivileged caller may do, a bad value reported once per change, and
writes that race another program's edit."""
import os
import re
import select
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402
import profiles  # noqa: E402
from nmnetns import NmNetns  # noqa: E402

MACGUISED, SLOW_GETPW = sys.argv[1:3]
MAC_RE = re.compile(r"^[0-9a-f]{2}(:[0-9a-f]{2}){5}$")

NM = NmNetns().start()
# A directory service that stops answering for uid 65534 while GATE exists.
GATE, MARK = os.path.join(NM.dir, "getpw-gate"), os.path.join(NM.dir, "getpw-waiting")


def cloned(name, setting="802-3-ethernet"):
    return NM.cloned(name, setting)


def wait_cloned(name, setting="802-3-ethernet", other_than=None, timeout=15):
    return NM.wait_cloned(name, setting=setting, other_than=other_than, timeout=timeout)


def uuid_of(name):
    return NM.uuid_of(name)


def add_keyfile(name, uuid, extra=""):
    profiles.add_keyfile(NM, name, uuid, extra)


def dbus(method, *args, user=None):
    return NM.macguise_call(method, *args, user=user)


def rotate(profile, now):
    return profiles.rotate(NM, profile, now)


def wait_for_api():
    NM.wait_for("the D-Bus API", lambda: dbus("GetStatus").returncode == 0)


def profiles_for_the_api():
    """macguised with e1 and e3 (Ethernet, its addresses), e2 (an address
    set by hand), act (a new address at each activation) and w1 (Wi-Fi)."""
    NM.start_macguised(MACGUISED, env={"LD_PRELOAD": os.path.abspath(SLOW_GETPW),
                                       "MG_SLOW_GETPW_UID": "65534",
                                       "MG_SLOW_GETPW_GATE": GATE, "MG_SLOW_GETPW_MARK": MARK})
    for name in ("e1", "e2", "e3"):
        NM.add_ethernet(name)
        wait_cloned(name)
    add_keyfile("act", "5b0b3f4e-9a77-4c4d-8e0e-0c0ffee00001", "[user]\nmacguise.rotate=activation\n")
    wait_cloned("act")
    NM.nmcli("connection", "add", "type", "wifi", "ifname", "wlan0", "con-name", "w1",
             "ssid", "macguise-test", "connection.autoconnect", "no")
    wait_cloned("w1", "802-11-wireless")
    NM.nmcli("connection", "modify", "e2", "802-3-ethernet.cloned-mac-address", "00:11:22:33:44:55")
    wait_for_api()
    NM.wait_for("e2 set by hand",
                lambda: (NM.macguise_status(uuid_of("e2")) or {}).get("user-owned", False))


@mgtap.test
def dbus_status_lists_profiles_with_their_current_address():
    wait_for_api()
    out = dbus("GetStatus").stdout
    for name in ("e1", "act", "e3"):
        assert f"'{uuid_of(name)}'" in out, name
        assert f"'{cloned(name)}'" in out, name
    assert "'user-owned': <true>" in out  # e2
    assert "'class': <'wifi'>" in out


def bad_value_warnings(name):
    with open(os.path.join(NM.dir, "macguised.log"), encoding="utf-8", errors="replace") as f:
        return sum(1 for line in f if f"profile '{name}': macguise.rotate" in line)


@mgtap.test
def a_bad_value_is_reported_once_per_change_not_at_every_status():
    # The policy is resolved once per change of the profile (or of
    # macguise.conf), not at every status request.
    add_keyfile("badval", "5b0b3f4e-9a77-4c4d-8e0e-0c0ffee000b1", "[user]\nmacguise.rotate=often\n")
    wait_cloned("badval")
    NM.wait_for("the bad value reported", lambda: bad_value_warnings("badval") >= 1)
    wait_for_api()
    for _ in range(3):
        assert f"'{uuid_of('badval')}'" in dbus("GetStatus").stdout
    assert bad_value_warnings("badval") == 1, bad_value_warnings("badval")
    # A change that keeps the bad value (macguised's own write was one) is
    # not reported again; a new bad value is.
    NM.nmcli("connection", "modify", "badval", "connection.autoconnect-priority", "5")
    NM.macguised_caught_up()
    assert bad_value_warnings("badval") == 1, bad_value_warnings("badval")
    add_keyfile("badval", "5b0b3f4e-9a77-4c4d-8e0e-0c0ffee000b1", "[user]\nmacguise.rotate=seldom\n")
    NM.wait_for("the new bad value reported", lambda: bad_value_warnings("badval") == 2)
    NM.nmcli("connection", "delete", "badval")


PENDING = {}  # fd -> bytes read from it past the last whole line


def read_until(stream, predicate, timeout=20.0):
    """Lines from @stream until one satisfies @predicate; that line. Reads
    the descriptor itself: a buffered readline() can hold a second line
    that select() then never reports."""
    fd = stream.fileno()
    deadline = time.monotonic() + timeout
    lines = []
    while True:
        while b"\n" in PENDING.get(fd, b""):
            raw, PENDING[fd] = PENDING[fd].split(b"\n", 1)
            line = raw.decode("utf-8", "replace") + "\n"
            if predicate(line):
                return line
            lines.append(line)
        left = deadline - time.monotonic()
        ready, _, _ = select.select([fd], [], [], max(left, 0))
        chunk = os.read(fd, 65536) if ready else b""
        if not chunk:
            raise AssertionError(f"the line never came; read: {lines}")
        PENDING[fd] = PENDING.get(fd, b"") + chunk


class MacguisedMonitor:
    """gdbus monitor on macguised's object, once it follows macguised: its
    output's lines in .stdout."""
    def __enter__(self):
        self.p = subprocess.Popen(["ip", "netns", "exec", NM.ns, "gdbus", "monitor", "--system",
                                   "--dest", "org.macguise.Daemon1",
                                   "--object-path", "/org/macguise/Daemon1"],
                                  env=NM.env, stdout=subprocess.PIPE, text=True)
        self.stdout = self.p.stdout
        PENDING.pop(self.stdout.fileno(), None)  # an earlier pipe's, same number
        try:
            read_until(self.stdout, lambda line: "is owned by" in line)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        self.p.terminate()
        self.p.wait(timeout=10)
        return False


def nm_pid():
    return next(p.pid for n, p in NM.pids if n == "nm")


class EditRace:
    """A profile of macguise's, its D-Bus path, an edit of it (renamed,
    from its copy as it is now) for gdbus to send, and a dbus-monitor on
    the method calls to it and to NetworkManager's own object."""
    def __init__(self, name):
        NM.add_ethernet(name)
        self.old, self.uuid = wait_cloned(name), uuid_of(name)
        NM.macguised_caught_up()
        self.path = re.search(r"objectpath '([^']+)'", NM.run(
            "gdbus", "call", "--system", "--dest", "org.freedesktop.NetworkManager",
            "--object-path", "/org/freedesktop/NetworkManager/Settings", "--method",
            "org.freedesktop.NetworkManager.Settings.GetConnectionByUuid", self.uuid,
            ns=NM.ns).stdout).group(1)
        got = NM.run("gdbus", "call", "--system", "--dest", "org.freedesktop.NetworkManager",
                     "--object-path", self.path, "--method",
                     "org.freedesktop.NetworkManager.Settings.Connection.GetSettings",
                     ns=NM.ns).stdout
        self.edited = got.strip()[1:-2].replace(f"'id': <'{name}'>", f"'id': <'{name}-edited'>")
        assert f"{name}-edited" in self.edited, got
        self.name = name
        self.log = os.path.join(NM.dir, "macguised.log")
        self.seen = len(open(self.log, encoding="utf-8").read())
        self.stopped = False
        self.edit = None
        self.monitor = subprocess.Popen(
            ["ip", "netns", "exec", NM.ns, "dbus-monitor", "--system",
             f"type='method_call',path='{self.path}'",
             "type='method_call',path='/org/freedesktop/NetworkManager',member='Get'"],
            env=NM.env, stdout=subprocess.PIPE)
        PENDING.pop(self.monitor.stdout.fileno(), None)
        read_until(self.monitor.stdout, lambda line: "NameAcquired" in line or "NameLost" in line)

    def until(self, what):
        read_until(self.monitor.stdout, lambda line: what in line and "GetSettings" not in line
                   and "path=/org/freedesktop/NetworkManager;" not in line)

    def stop_nm(self):
        os.kill(nm_pid(), signal.SIGSTOP)
        self.stopped = True

    def send_edit(self):
        self.edit = subprocess.Popen(
            ["ip", "netns", "exec", NM.ns, "gdbus", "call", "--system",
             "--dest", "org.freedesktop.NetworkManager", "--object-path", self.path, "--method",
             "org.freedesktop.NetworkManager.Settings.Connection.Update2", self.edited,
             "uint32 1", "@a{sv} {}"],
            env=NM.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.until("member=Update2")

    def edit_right_after_macguiseds_write(self):
        """macguised rotates the profile; the edit reaches NetworkManager
        right after macguised's Update2, before NetworkManager answers it."""
        assert rotate(self.uuid, True)[self.uuid][0] != "refused"
        self.until("member=Update2")  # macguised's
        self.stop_nm()
        self.send_edit()

    def end(self):
        if self.stopped:
            os.kill(nm_pid(), signal.SIGCONT)
            self.stopped = False
        self.monitor.terminate()
        self.monitor.wait(timeout=10)

    def kept_with_a_new_address(self):
        """The edit kept, a new address of macguise's in it: what macguised
        logged meanwhile."""
        out, err = self.edit.communicate(timeout=30)
        assert self.edit.returncode == 0, err
        uuid = self.uuid
        NM.wait_for("the edit kept and a new address in it",
                    lambda: NM.nmcli("-g", "connection.id", "connection", "show", uuid).stdout.strip()
                    == f"{self.name}-edited" and MAC_RE.match(cloned(uuid))
                    and cloned(uuid) != self.old, timeout=30)
        NM.macguised_caught_up()
        new = cloned(uuid)
        assert new != self.old and NM.nmcli("-g", "connection.id", "connection", "show",
                                            uuid).stdout.strip() == f"{self.name}-edited"
        status = NM.macguise_status(uuid)
        assert status["address"] == new and not status.get("user-owned", False), status
        NM.nmcli("connection", "delete", uuid)
        return open(self.log, encoding="utf-8").read()[self.seen:]


@mgtap.test
def an_edit_landing_between_macguiseds_read_and_its_write_is_not_undone():
    # Another program's edit lands as macguised is about to write the
    # profile. NetworkManager is stopped (SIGSTOP) to order the messages,
    # then goes on. Where Update2 takes a VersionId (NetworkManager 1.44,
    # Debian 13) macguised's first message, the VersionId's read, is queued
    # before the edit: its write is refused and it decides again on the
    # edited copy. On 1.42 (Debian 12), with no VersionId, the window stays
    # open (NetworkManager applies an Update2 after an asynchronous
    # authorisation, so no read orders it): there the edit is queued after
    # macguised's write, as in the next test, and the log says nothing of a
    # refusal.
    race = EditRace("vx")
    checks_versions = NM.nm_version() >= (1, 44)
    try:
        if checks_versions:
            race.stop_nm()
            assert rotate(race.uuid, True)[race.uuid][0] != "refused"
            race.until("member=Get")  # the profile's VersionId
            race.send_edit()
        else:
            race.edit_right_after_macguiseds_write()
    finally:
        race.end()
    told = race.kept_with_a_new_address()
    assert ("changed by another program as macguise wrote it" in told) == checks_versions, told


@mgtap.test
def an_edit_from_an_older_copy_right_after_macguiseds_write_is_decided_on():
    # The edit, made from a copy older than macguised's write, lands right
    # after it: it is kept, and the earlier address it put back is repaired.
    # macguised's write settles on libnm's next fetch; it waited for libnm's
    # copy to show the write, which it never would, and the profile stayed
    # undecided for good.
    race = EditRace("vy")
    try:
        race.edit_right_after_macguiseds_write()
    finally:
        race.end()
    race.kept_with_a_new_address()


@mgtap.test
def dbus_profiles_changed_is_signalled_when_a_status_changes():
    with MacguisedMonitor() as monitor:
        e1 = cloned("e1")
        rotate("e1", False)
        uuid = uuid_of("e1")
        line = read_until(monitor.stdout, lambda l: "ProfilesChanged" in l and uuid in l)
        assert "org.macguise.Daemon1.ProfilesChanged" in line, line
        wait_cloned("e1", other_than=e1)


@mgtap.test
def dbus_profiles_changed_names_no_profile_hidden_from_other_users():
    """ProfilesChanged goes to every local user: a profile restricted to
    some users (connection.permissions) is never named in it, nor its
    changes timed by it, from its creation on. A change to a public profile
    afterwards is the sync point: every signal before it has been seen."""
    try:
        with MacguisedMonitor() as monitor:
            NM.add_ethernet("private", "connection.permissions", "user:nobody")
            hidden = uuid_of("private")
            private = wait_cloned("private")
            rotate("private", False)
            wait_cloned("private", other_than=private)
            e1 = cloned("e1")
            rotate("e1", False)
            public = uuid_of("e1")
            seen = []
            read_until(monitor.stdout,
                       lambda l: seen.append(l) or ("ProfilesChanged" in l and public in l))
            assert not [line for line in seen if hidden in line], seen
            wait_cloned("e1", other_than=e1)
            # a public profile that goes is named once more, so a page drops it
            NM.add_ethernet("public")
            wait_cloned("public")
            gone = uuid_of("public")
            read_until(monitor.stdout, lambda l: "ProfilesChanged" in l and gone in l)
            NM.nmcli("connection", "delete", "public")
            read_until(monitor.stdout, lambda l: "ProfilesChanged" in l and gone in l)
    finally:
        NM.nmcli("connection", "delete", "private", check=False)


@mgtap.test
def dbus_rotate_inactive_now_and_active_at_deactivation_or_now():
    e1 = cloned("e1")
    assert rotate("e1", False) == {uuid_of("e1"): ("rotated", "down")}
    wait_cloned("e1", other_than=e1)
    NM.nmcli("connection", "up", "e3")
    e3 = cloned("e3")
    assert rotate(uuid_of("e3"), False) == {uuid_of("e3"): ("pending", "active")}
    NM.macguised_caught_up()
    assert cloned("e3") == e3 and NM.link_mac() == e3  # waits for the deactivation
    assert "'pending': <true>" in dbus("GetStatus").stdout
    # --now: rewritten and re-activated, the new address on the link.
    assert rotate("e3", True) == {uuid_of("e3"): ("rotated", "re-activated")}
    new = wait_cloned("e3", other_than=e3)
    NM.wait_for("the re-activation with the new address", lambda: NM.link_mac() == new)
    NM.nmcli("connection", "down", "e3")
    assert dbus("Rotate", "no-such-profile", "false").returncode != 0


@mgtap.test
def dbus_reload_reads_the_configuration_again_and_rotate_all():
    with open(os.path.join(NM.dir, "config", "macguise.conf"), "w") as f:
        f.write("[wifi]\nmode=off\n")
    assert "'mode': <'plausible'>" in dbus("GetStatus").stdout
    assert dbus("Reload").returncode == 0
    status = dbus("GetStatus").stdout
    w1 = status[status.index(f"'{uuid_of('w1')}'"):]
    assert w1.split("}")[0].count("'mode': <'off'>") == 1, w1[:300]
    # A bad line costs that line: the line beside it applies, and the
    # journal names the file, line and key.
    conf = os.path.join(NM.dir, "config", "macguise.conf")
    with open(conf, "w") as f:
        f.write("[wifi]\nmode=sometimes\n[ethernet]\nrotate=boot\n")
    assert dbus("Reload").returncode == 0
    NM.wait_for("macguised to name the bad line",
                lambda: f"{conf}:2: [wifi] macguise.mode: 'sometimes'" in NM.log_text("macguised"))
    status = dbus("GetStatus").stdout
    e1 = status[status.index(f"'{uuid_of('e1')}'"):]
    assert e1.split("}")[0].count("'rotate': <'boot'>") == 1, e1[:300]
    os.unlink(os.path.join(NM.dir, "config", "macguise.conf"))
    assert dbus("Reload").returncode == 0
    # Rotate "" rotates every managed profile (e2 is user-owned: not it).
    before = {n: cloned(n) for n in ("e1", "e3")}
    outcomes = rotate("", False)
    assert outcomes[uuid_of("e2")] == ("not-managed", "set-by-hand"), outcomes
    assert sum(o == "rotated" for o, _ in outcomes.values()) >= 4, outcomes
    for n, mac in before.items():
        wait_cloned(n, other_than=mac)
    assert cloned("e2") == "00:11:22:33:44:55"


@mgtap.test
def dbus_verdicts_show_in_status_and_bad_ones_are_refused():
    e1 = cloned("e1")
    ok = dbus("ReportVerdict", "e1", "veth0", e1, "clean", "no answer to NS or ARP in 200 ms", "201")
    assert ok.returncode == 0 and "'recorded'" in ok.stdout, ok.stdout + ok.stderr
    out = dbus("GetStatus").stdout
    assert "'verdict': <'clean'>" in out and "no answer to NS" in out
    # About an address the profile no longer has: ignored.
    stale = dbus("ReportVerdict", "e1", "veth0", "00:1b:21:00:00:01", "conflict", "x", "1")
    assert "'stale'" in stale.stdout and cloned("e1") == e1, stale.stdout + stale.stderr
    for args, why in ((("maybe", "x"), "not clean, conflict or unchecked"),
                      (("clean", "two\nlines"), "malformed")):
        bad = dbus("ReportVerdict", "e1", "veth0", e1, *args, "1")
        assert bad.returncode != 0 and why in bad.stderr, bad.stderr
    bad = dbus("ReportVerdict", "e1", "../etc", e1, "clean", "x", "1")
    assert bad.returncode != 0 and "malformed" in bad.stderr, bad.stderr


@mgtap.test
def dbus_unprivileged_caller_may_read_but_not_change():
    # The private bus lets anyone connect; macguised itself refuses non-root.
    os.chmod(NM.dir, 0o711)
    e1 = cloned("e1")
    assert dbus("GetStatus", user=65534).returncode == 0
    for args in (("Rotate", "e1", "true"), ("Reload",), ("ReportVerdict", "e1", "veth0", e1, "conflict", "x", "1"),
                 ("GetLinkCheck", uuid_of("e1"))):
        p = dbus(*args, user=65534)
        assert p.returncode != 0 and "AccessDenied" in p.stderr, (args, p.stderr)
    NM.macguised_caught_up()
    assert cloned("e1") == e1


@mgtap.test
def a_local_user_whose_name_does_not_come_cannot_stall_macguised():
    """A local user's GetStatus while the directory service does not answer
    for them (LDAP, SSSD down): macguised answers everyone else meanwhile,
    and that user too, in the end, with the profiles every user may see."""
    os.chmod(NM.dir, 0o711)
    open(GATE, "w").close()
    try:
        stalled = subprocess.Popen(
            ["ip", "netns", "exec", NM.ns, "setpriv", "--reuid=65534", "--regid=65534",
             "--clear-groups", "gdbus", "call", "--system", "--dest", "org.macguise.Daemon1",
             "--object-path", "/org/macguise/Daemon1", "--method", "org.macguise.Daemon1.GetStatus"],
            env=NM.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        NM.wait_for("the lookup of the caller's name to hang", lambda: os.path.exists(MARK))
        # root's questions are answered while that lookup still hangs: the
        # hook's (it waits 250 ms for it) and a status
        answer = dbus("GetLinkCheck", uuid_of("e1"))
        assert "NoReply" not in answer.stderr and "Timeout" not in answer.stderr, answer.stderr
        assert f"'{uuid_of('e1')}'" in dbus("GetStatus").stdout
        assert os.path.exists(MARK), "the lookup ended before macguised answered root"
        # and the stalled caller is answered without its name, bounded
        out, err = stalled.communicate(timeout=60)
        assert stalled.returncode == 0 and f"'{uuid_of('e1')}'" in out, err
        assert os.path.exists(MARK), "the lookup ended before the caller was answered"
    finally:
        os.unlink(GATE)
    NM.wait_for("the hung lookup to end", lambda: not os.path.exists(MARK))
    assert dbus("GetStatus", user=65534).returncode == 0


try:
    profiles_for_the_api()
    mgtap.run()
finally:
    NM.stop()
