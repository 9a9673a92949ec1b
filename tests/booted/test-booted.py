#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""macguise as installed on a booted Debian: systemd as PID 1 in a container
(systemd-nspawn --boot on a cached debootstrap tree, shared/nm-netns.md),
the built .debs installed with apt, NetworkManager and macguised under
systemd. Driven only through systemctl, nmcli, macguise and journalctl run
inside; the network is watched from outside.

  test-booted.py TREE DEBDIR [OLDDEBDIR]

OLDDEBDIR holds the packages of an earlier commit (tools/dev old-debs), which
the upgrade scenario installs first.

The container boots once for every scenario, and once more for a reboot, on
an overlay of the tree whose upper layer is the test's own (the cached tree
stays as it was, /etc and /var outlive the reboot), with --network-veth plus
two extra veth links:
each host-side end is moved into a peer network namespace of the test's own,
where dnsmasq serves DHCP and router advertisements on host0's cable and a
packet socket (tests/nm/peer.py frames) records every frame each card sends.
Everything started is ended by its pid, on SIGTERM too: the container is
powered off and waited for, the peer namespace deleted; what a SIGKILL cuts
short, the test's reaper (tests/nm/reaper.py) finishes. Prints TAP."""
import glob
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "nm"))
import mgtap  # noqa: E402
from fbxcontainer import container_systemd, manager_listens  # noqa: E402
from reaper import reaper  # noqa: E402

PEER_PY = os.path.join(HERE, "..", "nm", "peer.py")
TREE, DEBS = sys.argv[1], os.path.abspath(sys.argv[2])
# The packages built from an earlier commit (tools/dev old_debs), to upgrade
# from; "" or absent: that scenario fails, saying so.
OLD = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else ""
MAIN = "network-manager-macguise"
FIRST_CONTACT = "/run/NetworkManager/conf.d/90-macguise-first-contact.conf"
MAC_RE = re.compile(r"\b[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}\b")
# Where the .debs appear inside (bound read-only by nspawn).
DEBS_INSIDE = "/mnt/macguise-debs"
OLD_INSIDE = "/mnt/macguise-old-debs"
STATE = "/var/lib/macguise/state"
# Container-side names of the extra links (host0 is nspawn's own).
LINKS = ("host0", "eth1", "eth2")


def sh(*cmd, check=True, timeout=60, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    if check and p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {p.returncode}: {p.stdout[-2000:]}{p.stderr[-2000:]}")
    return p


class Booted:
    """One booted container, its peer namespace and what runs there."""

    def __init__(self, tree):
        self.tree = tree
        tag = os.getpid() % 100000
        # Short names: the host-side veth is "ve-" + the machine name, and
        # every interface name fits in 15 characters.
        self.machine = f"mgb{tag}"
        self.host_ends = {"host0": f"ve-{self.machine}", "eth1": f"mgb{tag}x1",
                          "eth2": f"mgb{tag}x2"}
        self.peer = f"mg-booted-peer-{tag}"
        self.dir = reaper().mkdtemp("mg-booted-")
        self.procs = []  # (name, Popen), ended in reverse order
        self.nspawn = None
        self.leader = None  # the container's systemd, PID 1 inside
        self.peer_made = False
        self.boots = 0
        self.plugged = {}  # link: dhcp, the cables plugged in

    # -- life cycle ----------------------------------------------------------
    def start(self):
        reaper().netns(self.peer)  # told before it exists
        add = sh("ip", "netns", "add", self.peer, check=False)
        if add.returncode != 0:  # (a name taken is not ours to delete)
            reaper().forget("netns", self.peer)
            raise RuntimeError(f"ip netns add {self.peer}: {add.stderr.strip()}")
        self.peer_made = True
        sh("ip", "netns", "exec", self.peer, "ip", "link", "set", "lo", "up")
        # The tree is the lower layer of an overlay whose upper layer is the
        # test's own (nspawn's --volatile=overlay keeps it in a tmpfs that
        # goes at poweroff): the cached tree stays as it was, and /etc and
        # /var outlive a reboot. Mounted in a mount namespace of nspawn's
        # own, it goes with it.
        for d in ("upper", "work", "root"):
            os.mkdir(os.path.join(self.dir, d))
        self.boot()
        return self

    def upper(self, path):
        """Where @path inside is on the host, once written to since the
        packages were installed (the overlay's upper layer)."""
        return os.path.join(self.dir, "upper", path.lstrip("/"))

    def boot(self):
        """Boots the container; its cables as they were (a scenario plugs
        them in), each frame its cards send recorded from the first."""
        self.boots += 1
        log = open(os.path.join(self.dir, "console.log"), "a")
        extra = [f"--network-veth-extra={self.host_ends[n]}:{n}" for n in ("eth1", "eth2")]
        binds = [f"--bind-ro={DEBS}:{DEBS_INSIDE}"]
        binds += [f"--bind-ro={OLD}:{OLD_INSIDE}"] if OLD else []
        root = os.path.join(self.dir, "root")
        overlay = (f"lowerdir={self.tree},upperdir={self.dir}/upper,workdir={self.dir}/work")
        self.nspawn = reaper().spawn(
            ["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c",
             'mount -t overlay overlay -o "$1" "$2" && shift 2 && exec "$@"', "boot",
             overlay, root,
             "systemd-nspawn", "-D", root, "--register=no",
             "--keep-unit", "--boot", "--network-veth", *extra, "-M", self.machine, *binds],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.leader = None
        # The host-side ends appear in the machine's namespace: each goes
        # into the peer namespace at once, cable unplugged (down) until a
        # scenario plugs it in, its frames recorded from the first.
        for name, end in self.host_ends.items():
            self.wait_for(f"{end} on the host", lambda: os.path.exists(f"/sys/class/net/{end}"))
            sh("ip", "link", "set", end, "netns", self.peer)
            capture = self.capture_path(name)
            ready = capture + ".ready"
            self.spawn(f"frames-{name}", "ip", "netns", "exec", self.peer, "python3", PEER_PY,
                       "frames", end, capture, ready)
            self.wait_for(f"the capture on {end}", lambda: os.path.exists(ready))
        self.wait_for("the container's systemd", self.find_leader)
        self.wait_for("its manager to listen", lambda: manager_listens(self.leader), timeout=120)
        # degraded is a booted system too (a unit a container cannot run)
        p = self.inside("systemctl", "is-system-running", "--wait", check=False, timeout=120)
        if p.stdout.strip() not in ("running", "degraded"):
            raise RuntimeError(f"the container did not boot: {p.stdout}{p.stderr}\n"
                               + self.console_tail())
        if self.boots == 1:
            # Each card's own address, while no cable is plugged in and
            # nothing has set another.
            self.own = {link: self.inside("cat", f"/sys/class/net/{link}/address").stdout.strip()
                        for link in LINKS}

    def reboot(self, while_off=None):
        """Powers the container off, calls @while_off (the machine off: its
        files are the overlay's upper layer's), boots it again and plugs in
        the cables that were."""
        self.inside("systemctl", "poweroff", check=False, timeout=30)
        self.nspawn.wait(timeout=60)
        self.forget_container()
        self.end_procs()  # the captures and routers of the links that went
        self.leader = None
        if while_off is not None:
            while_off()
        self.boot()
        for link, dhcp in list(self.plugged.items()):
            self.plug_in(link, dhcp)

    def find_leader(self):
        """The container's systemd: the nspawn process's child."""
        self.leader = container_systemd(self.nspawn.pid)
        if self.leader is not None:
            # SIGKILL only: the reaper's SIGTERM to nspawn powers it off
            reaper().pid(int(self.leader), term=False)
        return self.leader is not None

    def forget_container(self):
        """The container has powered off: nothing for the reaper."""
        reaper().forget("pid", self.nspawn.pid)
        if self.leader is not None:
            reaper().forget("pid", int(self.leader))

    def stop(self):
        keep = os.environ.get("MG_KEEP_DIR")
        if self.nspawn is not None and self.nspawn.poll() is None:
            if keep and self.leader is not None:  # for a failure's post-mortem
                with open(os.path.join(self.dir, "journal.txt"), "w") as f:
                    f.write(self.inside("journalctl", "-b", "--no-pager", "-o", "short-monotonic",
                                        check=False).stdout)
            if self.leader is not None:
                self.inside("systemctl", "poweroff", check=False, timeout=30)
            try:
                self.nspawn.wait(timeout=60)
            except subprocess.TimeoutExpired:
                # nspawn powers the container off on SIGTERM; the container's
                # systemd is the last resort, ending its PID namespace.
                self.nspawn.terminate()
                try:
                    self.nspawn.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    if self.leader is not None:
                        try:
                            os.kill(int(self.leader), signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                    self.nspawn.kill()
                    self.nspawn.wait(timeout=20)
        if self.nspawn is not None and self.nspawn.poll() is not None:
            self.forget_container()
        self.end_procs()
        if self.peer_made:
            subprocess.run(["ip", "netns", "del", self.peer], capture_output=True)
            reaper().forget("netns", self.peer)
            self.peer_made = False
        if keep and os.path.isdir(self.dir):
            # not the overlay's layers (whiteouts, links into the tree)
            shutil.copytree(self.dir, os.path.join(keep, os.path.basename(self.dir)),
                            dirs_exist_ok=True,
                            ignore=lambda d, names: [n for n in names if d == self.dir and
                                                     n in ("upper", "work", "root")])
        shutil.rmtree(self.dir, ignore_errors=True)
        if not os.path.exists(self.dir):
            reaper().forget("dir", self.dir)

    def end_procs(self):
        for name, p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(timeout=10)
            reaper().forget("pid", p.pid)
        self.procs.clear()

    def spawn(self, name, *cmd):
        log = open(os.path.join(self.dir, name + ".log"), "a")
        p = reaper().spawn(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.procs.append((name, p))
        return p

    def wait_for(self, what, predicate, timeout=30.0):
        # A bound on a stall, not on speed.
        started = time.monotonic()
        deadline = started + timeout
        while time.monotonic() < deadline:
            if predicate():
                if time.monotonic() - started > 5:
                    print(f"{time.monotonic() - started:.1f} s: {what}", file=sys.stderr)
                return
            if self.nspawn.poll() is not None:
                raise RuntimeError(f"the container ended ({self.nspawn.returncode}) while "
                                   f"waiting for {what}:\n{self.console_tail()}")
            time.sleep(0.1)
        raise TimeoutError(f"timed out waiting for {what}")

    def console_tail(self, lines=30):
        with open(os.path.join(self.dir, "console.log"), errors="replace") as f:
            return "".join(f.readlines()[-lines:])

    # -- inside ----------------------------------------------------------------
    def inside(self, *cmd, check=True, timeout=60, stdin=None):
        """@cmd in every namespace of the container, with a clean environment."""
        full = ["nsenter", "-t", str(self.leader), "-a", "/usr/bin/env", "-i",
                "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8", "HOME=/root",
                "DEBIAN_FRONTEND=noninteractive", *cmd]
        started = time.monotonic()
        p = subprocess.run(full, capture_output=True, text=True, timeout=timeout, input=stdin)
        if time.monotonic() - started > 5:
            print(f"{time.monotonic() - started:.1f} s: {' '.join(cmd)}", file=sys.stderr)
        if check and p.returncode != 0:
            raise RuntimeError(f"inside: {' '.join(cmd)}: {p.returncode}: "
                               f"{p.stdout[-2000:]}{p.stderr[-2000:]}")
        return p

    def nmcli(self, *args, check=True):
        return self.inside("nmcli", *args, check=check)

    def exists(self, path):
        return self.inside("test", "-e", path, check=False).returncode == 0

    def journal(self, *args):
        """The journal's messages (the boot's), one a line."""
        return self.inside("journalctl", "-b", "-o", "cat", "--no-pager", *args).stdout

    # -- the peer side ---------------------------------------------------------
    def capture_path(self, link):
        return os.path.join(self.dir, f"frames-{link}-{self.boots}.jsonl")

    def frames(self, link):
        try:
            with open(self.capture_path(link)) as f:
                return [json.loads(line) for line in f if line.endswith("\n")]
        except FileNotFoundError:
            return []

    def peer_run(self, *cmd, check=True):
        return sh("ip", "netns", "exec", self.peer, *cmd, check=check)

    def plug_in(self, link, dhcp=False):
        """Connects @link's cable; with @dhcp, a home router on it: dnsmasq
        with DHCP and IPv6 router advertisements."""
        end, n = self.host_ends[link], LINKS.index(link) + 1
        self.plugged[link] = dhcp
        self.peer_run("ip", "addr", "add", f"10.89.{n}.1/24", "dev", end)
        self.peer_run("ip", "-6", "addr", "add", f"fd89:{n}::1/64", "dev", end, "nodad")
        self.peer_run("ip", "link", "set", end, "up")
        if dhcp:
            self.spawn(f"dnsmasq-{link}", "ip", "netns", "exec", self.peer, "dnsmasq",
                       "--keep-in-foreground", "--port=0", "--bind-interfaces",
                       f"--interface={end}", "--except-interface=lo",
                       f"--dhcp-range=10.89.{n}.10,10.89.{n}.200,1h",
                       f"--dhcp-range=fd89:{n}::,ra-stateless", "--enable-ra",
                       f"--dhcp-leasefile={self.dir}/leases-{link}", "--user=root",
                       f"--pid-file={self.dir}/dnsmasq-{link}.pid", "--log-dhcp",
                       "--log-facility=-")

    def carrier_changes(self, link):
        """How often the peer end's carrier came or went: a card taken down
        and up again (a re-activation) counts two."""
        return int(self.peer_run("cat", f"/sys/class/net/{self.host_ends[link]}/carrier_changes")
                   .stdout)


B = None  # the one container every scenario runs in


def status():
    """`macguise status --json` inside: {uuid: profile}."""
    out = json.loads(B.inside("macguise", "status", "--json").stdout)
    return {p["uuid"]: p for p in out["profiles"]}, out


def lookup(mac):
    return json.loads(B.inside("macguise", "lookup", "--json", mac).stdout)[0]


def cloned(name):
    v = B.nmcli("-g", "802-3-ethernet.cloned-mac-address", "connection", "show", name).stdout
    return v.strip().replace("\\:", ":").lower()


def uuid_of(name):
    return B.nmcli("-g", "connection.uuid", "connection", "show", name).stdout.strip()


def is_active(name):
    p = B.nmcli("-g", "GENERAL.STATE", "connection", "show", name, check=False)
    return p.stdout.strip() == "activated"


def wait_cloned(name, other_than=None, timeout=30):
    box = {}

    def ready():
        box["mac"] = cloned(name)
        return re.fullmatch(MAC_RE, box["mac"]) is not None and box["mac"] != other_than

    B.wait_for(f"a MAC address in '{name}'", ready, timeout=timeout)
    return box["mac"]


def wait_active(unit):
    """Waits for @unit to be active; else says what its journal ends with
    (a unit killed by its own system call filter, say)."""
    try:
        B.wait_for(f"{unit} active", lambda: B.inside(
            "systemctl", "is-active", unit, check=False).stdout.strip() == "active")
    except TimeoutError as e:
        raise TimeoutError(f"{e}; its journal ends:\n" + "\n".join(
            B.journal("-u", unit, "-o", "short-monotonic").splitlines()[-8:])) from None


def journal_lines(unit):
    return B.journal("-u", unit).splitlines()


def caught_up():
    """Returns once macguised has carried out what it decided before: a
    profile added now gets its address after every earlier write (as in
    tests/nm/nmnetns.py)."""
    caught_up.n = getattr(caught_up, "n", 0) + 1
    name = f"caught-up-{caught_up.n}"
    add_ethernet(name, "eth1", "10.89.2.99/24")
    wait_cloned(name)
    B.nmcli("connection", "delete", name)


def add_ethernet(name, ifname, address, *settings):
    B.nmcli("connection", "add", "type", "ethernet", "ifname", ifname, "con-name", name,
            "ipv4.method", "manual", "ipv4.addresses", address, "ipv6.method", "disabled",
            "connection.autoconnect", "no", *settings)


def forget_automatic_profiles():
    """Deletes NetworkManager's automatic profiles of the cards not yet
    connected (it makes one per card, and makes it no more once deleted),
    so that each cable plugged in is up only with the profile a test
    gives it."""
    for line in B.nmcli("-t", "-f", "NAME,DEVICE", "connection", "show").stdout.splitlines():
        name, device = line.rsplit(":", 1)
        if name.startswith("Wired connection") and not device:
            B.nmcli("connection", "delete", name)


def up(name):
    B.nmcli("connection", "up", name)


def seal(body):
    """The state file of @body, sealed as macguised does (BLAKE2b-256 of the
    body)."""
    digest = hashlib.blake2b(body.encode(), digest_size=32).hexdigest()
    return f"{body}\n[integrity]\nblake2b={digest}\n"


def make_due(uuid):
    """Moves a profile's due time into the past, as if the machine had been
    off for weeks, and reseals the state as macguised does (BLAKE2b-256 of
    the body); the container shares the machine's clock, so time cannot be
    moved. macguised is stopped meanwhile, as for any edit of its state."""
    path = STATE
    B.inside("systemctl", "stop", "macguised")
    text = B.inside("cat", path).stdout
    body = text.split("\n[integrity]\n")[0]
    out, group = [], None
    for line in body.split("\n"):
        if line.startswith("["):
            group = line
        if group == f"[profile {uuid}]" and line.startswith(("due-at=", "assigned-at=")):
            line = line.split("=")[0] + "=1000"
        out.append(line)
    B.inside("sh", "-c", f"cat >{path}.new && mv {path}.new {path}", stdin=seal("\n".join(out)))
    B.inside("systemctl", "start", "macguised")


# The profiles scenario 2 and 3 follow, by name: the one on host0 (active),
# and on eth1 and eth2 active ones with a rotation owed.
PROFILES = {}


def managed_snapshot():
    profiles, top = status()
    assert top["daemon_running"] and top["state_readable"], top
    return {u: p for u, p in profiles.items() if u in PROFILES.values()}


def check_kept(before, event):
    """The invariants every lifecycle event keeps: each profile followed is
    still managed (not user-owned, not lost), its generation not reset, its
    address in the state that of its keyfile and unchanged, a rotation owed
    still owed, no card re-activated (NetworkManager cut no activation for
    a new one, no carrier change on a cable), and the boot step not run
    beside macguised. Every broken one is named."""
    after, wrong = managed_snapshot(), []
    for name, uuid in PROFILES.items():
        a, b = after.get(uuid), before["status"][uuid]
        if a is None:
            wrong.append(f"{name} is lost")
            continue
        if not a["managed"] or a["user_owned"]:
            wrong.append(f"{name} is no longer managed: {a}")
        if a["generation"] < b["generation"]:
            wrong.append(f"{name}'s generation went back from {b['generation']}: {a}")
        elif a["generation"] > b["generation"]:
            wrong.append(f"{name} got a new address (generation {a['generation']})")
        if not a["address"] == b["address"] == cloned(name):
            wrong.append(f"{name}: state {a['address']}, before {b['address']}, "
                         f"keyfile {cloned(name)}")
        if a["next_rotation"] != b["next_rotation"]:
            wrong.append(f"{name}: next rotation {a['next_rotation']}, "
                         f"before {b['next_rotation']}")
        if not is_active(name):
            wrong.append(f"{name} is not active")
        if a["problems"]:
            wrong.append(f"{name}: {a['problems']}")
    for link in LINKS:
        if B.carrier_changes(link) != before["carrier"][link]:
            wrong.append(f"{link} was taken down and up again")
    wrong += [f"NetworkManager: {line}" for line in journal_lines("NetworkManager")[before["nm_journal"]:]
              if "disconnecting for new activation request" in line]
    wrong += [f"macguised: {line}" for line in journal_lines("macguised")[before["macguised_journal"]:]
              if "set by hand" in line]
    # The boot step runs at boot only, not with a start of NetworkManager.
    wrong += [f"the boot step ran: {line}" for line in boot_step_starts()[before["boot_step"]:]]
    assert not wrong, f"{event}:\n" + "\n".join(wrong)
    # the next event is measured from here
    before["carrier"] = {link: B.carrier_changes(link) for link in LINKS}
    before["nm_journal"] = len(journal_lines("NetworkManager"))
    before["macguised_journal"] = len(journal_lines("macguised"))


def boot_step_starts():
    """The boot step's starts in this boot's journal."""
    return [line for line in journal_lines("macguise-boot") if line.startswith("Starting")]


def baseline():
    return {"status": managed_snapshot(),
            "carrier": {link: B.carrier_changes(link) for link in LINKS},
            "nm_journal": len(journal_lines("NetworkManager")),
            "macguised_journal": len(journal_lines("macguised")),
            "boot_step": len(boot_step_starts())}


def wait_nm_back(since_lines):
    """NetworkManager is running again with every profile followed active,
    and macguised follows it again (said in its journal since then)."""
    B.wait_for("NetworkManager", lambda: B.nmcli("general", "status", check=False).returncode == 0)
    B.wait_for("every profile active again", lambda: all(is_active(n) for n in PROFILES))
    B.wait_for("macguised to follow NetworkManager again",
               lambda: any("following NetworkManager" in line
                           for line in journal_lines("macguised")[since_lines:]))
    caught_up()


def next_activation_is_new(name, link, old):
    """A profile owed a rotation: down, it gets a new catalogue address, and
    its next activation meets the network with it."""
    B.nmcli("connection", "down", name)
    new = wait_cloned(name, other_than=old)
    assert lookup(new)["in_catalogue"], new
    seen = len(B.frames(link))
    up(name)
    B.wait_for(f"a frame from {name}'s new address",
               lambda: new in {f["src"] for f in B.frames(link)[seen:]})
    return new


# -- the scenarios -----------------------------------------------------------
@mgtap.test
def fresh_install_covers_first_contact_without_a_reboot():
    debs = sorted(d for d in glob.glob(os.path.join(DEBS, MAIN + "_*.deb")))
    assert len(debs) == 1, debs
    print(f"# Debian {B.inside('cat', '/etc/debian_version').stdout.strip()}, "
          f"systemd {B.inside('dpkg-query', '-W', '-f=${Version}', 'systemd').stdout}, "
          f"NetworkManager {B.inside('dpkg-query', '-W', '-f=${Version}', 'network-manager').stdout}, "
          f"{os.path.basename(debs[0])}")
    own = B.own
    # The cached tree keeps Debian's switch that stops maintainer scripts
    # starting services (it is made and used for building, in a chroot); a
    # booted system has none.
    B.inside("rm", "-f", "/usr/sbin/policy-rc.d")
    B.inside("apt-get", "install", "-y", "-q", "--no-install-recommends",
             f"{DEBS_INSIDE}/{os.path.basename(debs[0])}", timeout=180)
    wait_active("macguised")
    # macguised writes the file where the boot step (which runs at boot
    # only) has not: no reboot after the install.
    B.wait_for("the first-contact defaults", lambda: B.exists(FIRST_CONTACT), timeout=20)
    # A cable plugged into a card with no profile: NetworkManager's
    # automatic profile meets the network.
    B.plug_in("host0", dhcp=True)
    B.wait_for("host0 connected", lambda: B.nmcli(
        "-g", "GENERAL.STATE", "device", "show", "host0").stdout.strip().startswith("100"))
    B.wait_for("a DHCP request from host0",
               lambda: any("dhcp" in f for f in B.frames("host0")))
    # and a connection made from the device (add and activate)
    auto = B.nmcli("-g", "GENERAL.CONNECTION", "device", "show", "host0").stdout.strip()
    B.nmcli("connection", "delete", auto)
    B.nmcli("device", "connect", "host0")
    seen = {f["src"] for f in B.frames("host0")}
    assert own["host0"] not in seen, f"host0's own address {own['host0']} met the network"
    for mac in seen:
        assert lookup(mac)["in_catalogue"], f"{mac} on host0's cable is not a catalogue address"
    print(f"# host0 met the network as {len(seen)} address(es), none its own")


@mgtap.test
def mode_off_under_the_first_contact_defaults_keeps_the_cards_own_address():
    # Before any NetworkManager restart: a veth has no burnt-in address, so
    # NetworkManager takes the one it finds at its start for the card's own
    # ("permanent"), and after a restart with a cloned address on the link
    # that would be the cloned one. A real card's stays its own.
    assert B.exists(FIRST_CONTACT)
    forget_automatic_profiles()
    B.plug_in("eth2")
    add_ethernet("off", "eth2", "10.89.3.2/24")
    given = wait_cloned("off")
    up("off")
    B.nmcli("connection", "down", "off")
    B.inside("macguise", "policy", "off", "mode=off")
    B.wait_for("the release", lambda: cloned("off") != given)
    print(f"# released: cloned-mac-address={cloned('off') or '(none)'}")
    seen = len(B.frames("eth2"))
    up("off")
    # NetworkManager probes for its IPv4 address and announces it (ARP)
    B.wait_for("a frame from eth2", lambda: len(B.frames("eth2")) > seen)
    srcs = {f["src"] for f in B.frames("eth2")[seen:]}
    assert srcs == {B.own["eth2"]}, \
        f"mode=off met the network as {srcs}, the card's own is {B.own['eth2']}"
    B.nmcli("connection", "delete", "off")


@mgtap.test
def networkmanager_restarted_and_killed_keeps_every_profile_managed():
    # host0's profile (made by `nmcli device connect`) stays up throughout
    name0 = B.nmcli("-g", "GENERAL.CONNECTION", "device", "show", "host0").stdout.strip()
    PROFILES[name0] = uuid_of(name0)
    wait_cloned(name0)
    B.plug_in("eth1")
    add_ethernet("pending", "eth1", "10.89.2.2/24")
    add_ethernet("due", "eth2", "10.89.3.2/24")
    for name in ("pending", "due"):
        wait_cloned(name)
        up(name)
        PROFILES[name] = uuid_of(name)
    make_due(PROFILES["due"])
    out = json.loads(B.inside("macguise", "rotate", "--json", "pending").stdout)
    print(f"# macguise rotate pending: {json.dumps(out)}")
    wait_active("macguised")
    caught_up()
    before = baseline()
    for name in ("pending", "due"):
        assert before["status"][PROFILES[name]]["next_rotation"]["when"] == "deactivation", \
            (name, before["status"][PROFILES[name]])
    for i in range(3):
        since = len(journal_lines("macguised"))
        B.inside("systemctl", "restart", "NetworkManager")
        wait_nm_back(since)
        check_kept(before, f"restart {i + 1} of NetworkManager")
    since = len(journal_lines("macguised"))
    pid = B.inside("systemctl", "show", "-P", "MainPID", "NetworkManager").stdout.strip()
    B.inside("systemctl", "kill", "-s", "KILL", "NetworkManager")
    B.wait_for("NetworkManager started again by its unit",
               lambda: B.inside("systemctl", "show", "-P", "MainPID",
                                "NetworkManager").stdout.strip() not in ("0", pid))
    wait_nm_back(since)
    check_kept(before, "NetworkManager killed")
    for name, link in (("pending", "eth1"), ("due", "eth2")):
        next_activation_is_new(name, link, before["status"][PROFILES[name]]["address"])


@mgtap.test
def a_profile_deleted_while_networkmanager_is_down_is_forgotten():
    # Its keyfile removed while NetworkManager is stopped (by hand, or by
    # another program), NetworkManager started again: the profile is gone,
    # and macguised, which saw no removal, forgets it, its state with it.
    add_ethernet("deleted", "eth1", "10.89.2.7/24")
    wait_cloned("deleted")
    uuid = uuid_of("deleted")
    # (nmcli 1.42 does not show connection.filename)
    keyfile = B.inside("grep", "-rl", f"^uuid={uuid}$",
                       "/etc/NetworkManager/system-connections").stdout.strip()
    B.wait_for("the profile in macguised's state",
               lambda: f"[profile {uuid}]" in B.inside("cat", STATE).stdout)
    before = baseline()
    since = len(journal_lines("macguised"))
    B.inside("systemctl", "stop", "NetworkManager")
    B.inside("rm", keyfile)
    B.inside("systemctl", "start", "NetworkManager")
    wait_nm_back(since)
    assert B.nmcli("connection", "show", uuid, check=False).returncode != 0, "the profile is back"
    assert uuid not in status()[0], f"macguise status still lists {uuid}"
    B.wait_for("the profile gone from macguised's state",
               lambda: f"[profile {uuid}]" not in B.inside("cat", STATE).stdout)
    # the others are kept across the stop and start
    check_kept(before, "a profile deleted while NetworkManager was stopped")


@mgtap.test
def macguised_restarted_and_killed_keeps_every_profile_managed():
    out = json.loads(B.inside("macguise", "rotate", "--json", "pending").stdout)
    print(f"# macguise rotate pending: {json.dumps(out)}")
    caught_up()
    before = baseline()
    assert before["status"][PROFILES["pending"]]["next_rotation"]["when"] == "deactivation"
    since = len(journal_lines("macguised"))
    B.inside("systemctl", "restart", "macguised")
    wait_nm_back(since)
    check_kept(before, "systemctl restart macguised")
    since = len(journal_lines("macguised"))
    pid = B.inside("systemctl", "show", "-P", "MainPID", "macguised").stdout.strip()
    B.inside("systemctl", "kill", "-s", "KILL", "macguised")
    B.wait_for("macguised started again by its unit",
               lambda: B.inside("systemctl", "show", "-P", "MainPID",
                                "macguised").stdout.strip() not in ("0", pid), timeout=30)
    wait_nm_back(since)
    check_kept(before, "macguised killed")
    next_activation_is_new("pending", "eth1", before["status"][PROFILES["pending"]]["address"])


def shift_state_back(seconds):
    """Moves every instant in the state (each profile's *-at times, the
    history's) @seconds into the past, resealed: the state as it would be
    after the machine had been off that long. Called with the machine off,
    on the host's copy."""
    path = B.upper(STATE)
    with open(path) as f:
        body = f.read().split("\n[integrity]\n")[0]
    out, group, shifted = [], None, 0
    for line in body.split("\n"):
        if line.startswith("["):
            group = line
        m = re.fullmatch(r"([^=]+)=([0-9]+)", line)
        if m and int(m.group(2)) > 1000000000 and (
                m.group(1).endswith("-at") or group == "[history]"):
            line = f"{m.group(1)}={int(m.group(2)) - seconds}"
            shifted += 1
        out.append(line)
    with open(path + ".new", "w") as f:
        f.write(seal("\n".join(out)))
    os.chmod(path + ".new", 0o600)
    os.rename(path + ".new", path)
    return shifted


def frames_since_boot(link):
    return {f["src"] for f in B.frames(link)}


@mgtap.test
def reboot_gives_profiles_due_while_off_new_addresses_at_their_first_activation():
    # Before the reboot: 'daily' (eth2, rotate=daily, brought up at boot by
    # NetworkManager), 'pending' (eth1, up, a rotation requested: owed at
    # its deactivation, which a shutdown is not), 'due' (eth2, weekly, down)
    # and host0's (weekly, brought up at boot). The machine is then off for
    # two days: 'daily' is due, 'pending' still owed, the weekly ones not.
    add_ethernet("daily", "eth2", "10.89.3.4/24", "connection.autoconnect", "yes")
    B.inside("macguise", "policy", "daily", "rotate=daily")
    wait_cloned("daily")
    B.nmcli("connection", "down", "due")
    out = json.loads(B.inside("macguise", "rotate", "--json", "pending").stdout)
    assert out["profiles"][0]["outcome"] == "pending", out
    caught_up()
    followed = dict(PROFILES, daily=uuid_of("daily"))
    before = {n: s for n, s in status()[0].items()}
    before = {name: before[uuid] for name, uuid in followed.items()}
    assert before["pending"]["next_rotation"]["when"] == "deactivation", before["pending"]
    B.reboot(while_off=lambda: print(f"# off for 2 days: {shift_state_back(2 * 86400)} "
                                      "instants in the state moved back"))
    wait_active("macguised")
    # host0's and daily's profiles come up by themselves; pending is taken up
    name0 = next(n for n in PROFILES if n not in ("pending", "due"))
    B.wait_for("host0's and daily's profiles up again",
               lambda: is_active(name0) and is_active("daily"), timeout=60)
    up("pending")
    caught_up()
    after = status()[0]
    wrong = []
    for name, uuid in followed.items():
        a, b = after.get(uuid), before[name]
        if a is None:
            wrong.append(f"{name} is lost")
            continue
        if not a["managed"] or a["user_owned"] or a["problems"]:
            wrong.append(f"{name} is no longer managed: {a}")
        if a["address"] != cloned(name):
            wrong.append(f"{name}: state {a['address']}, keyfile {cloned(name)}")
        renewed = name in ("daily", "pending")
        # one new address, the boot step's: no second writer after it
        want = b["generation"] + (1 if renewed else 0)
        if a["generation"] != want:
            wrong.append(f"{name}: generation {a['generation']}, {want} expected")
        if renewed and (a["address"] == b["address"] or not lookup(a["address"])["in_catalogue"]):
            wrong.append(f"{name}: {a['address']} after the reboot, {b['address']} before")
        if not renewed and a["address"] != b["address"]:
            wrong.append(f"{name} got a new address, not due")
    # the first activation after boot met the network with the new address:
    # every frame on its cable since the boot
    for name, link in (("daily", "eth2"), ("pending", "eth1"), (name0, "host0")):
        seen = frames_since_boot(link)
        if seen != {after[followed[name]]["address"]}:
            wrong.append(f"{link} ({name}) met the network as {seen}, "
                         f"not {after[followed[name]]['address']} alone")
    boot_lines = [line for line in journal_lines("macguise-boot") if "new address #" in line]
    if len(boot_lines) != 2:
        wrong.append(f"the boot step gave {len(boot_lines)} new addresses: {boot_lines}")
    # NetworkManager 1.52 activates lo at its start, before macguised runs:
    # the pre-up hook leaves loopback alone, and says nothing of it
    wrong += [f"the pre-up hook: {line}" for line in B.journal().splitlines()
              if line.startswith("lo: ")]
    wrong += [f"macguised: {line}" for line in journal_lines("macguised")
              if not line.startswith("profile 'caught-up-")
              and any(w in line for w in ("set by hand", "new address", "took up"))]
    assert not wrong, "\n".join(wrong)
    print(f"# after the reboot: {len(boot_lines)} new addresses from the boot step, "
          f"each profile's first frame its own")
    B.nmcli("connection", "delete", "daily")
    up("due")


@mgtap.test
def units_measured_and_macguised_journal_holds_no_address():
    out = B.inside("systemd-analyze", "security", "--no-pager", "macguised.service",
                   "macguise-boot.service", check=False).stdout
    figures = re.findall(r"Overall exposure level for (\S+): ([0-9.]+) (\S+)", out)
    for unit, level, word in figures:
        print(f"# systemd-analyze security: {unit}: {level} {word}")
    # what is left open, each item explained in docs/testing.md
    print("\n".join(line for line in out.splitlines() if line.startswith("✗")), file=sys.stderr)
    assert {u for u, _, _ in figures} == {"macguised.service", "macguise-boot.service"}, out[-2000:]
    # no more open than the job needs (docs/testing.md, "Reliability and security, tested")
    bound = {"macguised.service": 1.0, "macguise-boot.service": 0.5}
    wider = [(u, level) for u, level, _ in figures if float(level) > bound[u]]
    assert not wider, f"more exposed than {bound}: {wider}"
    lines = journal_lines("macguised") + journal_lines("macguise-boot")
    print(f"# macguised's and the boot step's journal: {len(lines)} lines")
    leaks = [line for line in lines if MAC_RE.search(line)]
    assert not leaks, leaks[:10]


@mgtap.test
def remove_keeps_networkmanager_and_purge_leaves_nothing():
    files = B.inside("dpkg", "-L", MAIN).stdout.split("\n")
    names = [n for n in PROFILES]
    B.inside("apt-get", "remove", "-y", "-q", MAIN, timeout=120)
    assert not B.exists(FIRST_CONTACT), "the first-contact defaults outlived the package"
    for unit in ("macguised.service", "macguise-boot.service"):
        p = B.inside("systemctl", "show", "-P", "LoadState", unit, check=False)
        assert p.stdout.strip() == "not-found", (unit, p.stdout)
    assert B.inside("systemctl", "is-active", "NetworkManager").stdout.strip() == "active"
    for name in names:
        assert is_active(name), f"{name} went with the package"
    # still working: a profile comes up again
    B.nmcli("connection", "down", "pending")
    up("pending")
    B.inside("apt-get", "purge", "-y", "-q", MAIN, timeout=120)
    left = [f for f in files if f and f != "/." and "macguise" in f and B.exists(f)]
    left += [f for f in files if f and "macguise" not in f and B.exists(f)
             and B.inside("test", "-d", f, check=False).returncode != 0]
    for path in ("/var/lib/macguise", "/etc/macguise", "/run/macguise", FIRST_CONTACT):
        if B.exists(path):
            left.append(path)
    left += B.inside("sh", "-c", "ls -d /etc/systemd/system/*/macguise* 2>/dev/null",
                     check=False).stdout.split()
    assert not left, f"purge left {left}"


@mgtap.test
def upgrade_from_an_earlier_commits_package_keeps_what_it_recorded():
    # The package of an earlier commit (tools/dev old_debs) records profiles;
    # the new one is installed over it with apt, as an upgrade: macguised is
    # restarted by the package's scripts and takes up the old one's state as
    # it is (nothing lost, taken up again, set by hand or given anew).
    assert OLD, "no packages of an earlier commit to upgrade from (tools/dev old_debs)"
    old = glob.glob(os.path.join(OLD, MAIN + "_*.deb"))
    new = glob.glob(os.path.join(DEBS, MAIN + "_*.deb"))
    assert len(old) == 1 and len(new) == 1, (old, new)
    # the earlier tests' profiles go (purged, macguise knows them no more)
    for name in list(PROFILES):
        B.nmcli("connection", "delete", name)
    PROFILES.clear()
    B.inside("apt-get", "install", "-y", "-q", "--no-install-recommends",
             f"{OLD_INSIDE}/{os.path.basename(old[0])}", timeout=180)
    wait_active("macguised")
    version = B.inside("dpkg-query", "-W", "-f=${Version}", MAIN).stdout
    B.nmcli("connection", "add", "type", "ethernet", "ifname", "host0", "con-name", "old-host0",
            "connection.autoconnect", "no", "ipv6.method", "disabled")
    add_ethernet("old-active", "eth1", "10.89.2.5/24")
    add_ethernet("old-pending", "eth2", "10.89.3.5/24")
    for name in ("old-host0", "old-active", "old-pending"):
        wait_cloned(name)
        up(name)
        PROFILES[name] = uuid_of(name)
    out = json.loads(B.inside("macguise", "rotate", "--json", "old-pending").stdout)
    assert out["profiles"][0]["outcome"] == "pending", out
    caught_up()
    before = baseline()
    pid = B.inside("systemctl", "show", "-P", "MainPID", "macguised").stdout.strip()
    since = len(journal_lines("macguised"))
    B.inside("apt-get", "install", "-y", "-q", "--no-install-recommends",
             f"{DEBS_INSIDE}/{os.path.basename(new[0])}", timeout=180)
    now = B.inside("dpkg-query", "-W", "-f=${Version}", MAIN).stdout
    print(f"# upgraded from {version} to {now}")
    wait_active("macguised")
    assert B.inside("systemctl", "show", "-P", "MainPID", "macguised").stdout.strip() \
        not in ("0", pid), "macguised was not restarted by the upgrade"
    B.wait_for("macguised to follow NetworkManager",
               lambda: any("following NetworkManager" in line
                           for line in journal_lines("macguised")[since:]))
    caught_up()
    assert B.exists(FIRST_CONTACT)
    anew = [line for line in journal_lines("macguised")[since:]
            if line.startswith("profile '") and not line.startswith("profile 'caught-up-")
            and any(w in line for w in ("took up", "handed back", "set by hand", "new address",
                                        "written again", "earlier macguise address"))]
    assert not anew, "\n".join(anew)
    check_kept(before, f"the upgrade from {version}")
    next_activation_is_new("old-pending", "eth2",
                           before["status"][PROFILES["old-pending"]]["address"])


@mgtap.test
def networkmanager_journal_holds_no_address_once_audits_advice_is_followed():
    # At NetworkManager's default level its journal names every address it
    # sets: what the advice is for, and what the check below finds.
    written = {p["address"] for p in status()[0].values() if p["address"]}
    written |= {f["src"] for link in LINKS for f in B.frames(link)}
    nm = B.journal("-u", "NetworkManager").lower()
    assert any(mac in nm for mac in written), "NetworkManager's journal names no address at all"
    audit = json.loads(B.inside("macguise", "audit", "--json").stdout)
    advice = [f for f in audit["global"] if f["id"] == "nm-logging-addresses"]
    assert len(advice) == 1, audit["global"]
    section, key = advice[0]["setting"].split(".")
    print(f"# macguise audit: {advice[0]['fix']}")
    # as it says: in a file in NetworkManager's conf.d, then a restart
    B.inside("sh", "-c", "cat >/etc/NetworkManager/conf.d/50-quiet.conf",
             stdin=f"[{section}]\n{key}={advice[0]['value']}\n")
    since = len(journal_lines("macguised"))
    B.inside("systemctl", "restart", "NetworkManager")
    wait_nm_back(since)
    # what NetworkManager logged since it started with the advice followed
    pid = B.inside("systemctl", "show", "-P", "MainPID", "NetworkManager").stdout.strip()
    audit = json.loads(B.inside("macguise", "audit", "--json").stdout)
    assert not [f for f in audit["global"] if f["id"] == "nm-logging-addresses"], audit["global"]
    # activations and rotations: one at deactivation, one while down
    out = json.loads(B.inside("macguise", "rotate", "--json", "old-active").stdout)
    assert out["profiles"][0]["outcome"] == "pending", out
    next_activation_is_new("old-active", "eth1", cloned("old-active"))
    B.nmcli("connection", "down", "old-pending")
    caught_up()
    out = json.loads(B.inside("macguise", "rotate", "--json", "old-pending").stdout)
    assert out["profiles"][0]["outcome"] == "rotated", out
    up("old-pending")
    caught_up()
    written |= {p["address"] for p in status()[0].values() if p["address"]}
    written |= {f["src"] for link in LINKS for f in B.frames(link)}
    nm = B.journal(f"_PID={pid}").splitlines()
    leaks = [line for line in nm if any(mac in line.lower() for mac in written)]
    print(f"# NetworkManager's journal since the restart: {len(nm)} lines, "
          f"{len(written)} addresses looked for")
    assert not leaks, leaks[:10]
    leaks = [line for line in journal_lines("macguised") if MAC_RE.search(line)]
    assert not leaks, leaks[:10]


def main():
    global B

    def terminate(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGINT, terminate)
    B = Booted(TREE)
    try:
        started = time.monotonic()
        try:
            B.start()
        except Exception as e:  # one TAP line saying why, not a bare traceback
            print("1..1\nnot ok 1 - the container boots")
            for line in str(e).splitlines():
                print(f"# {line}")
            sys.exit(1)
        print(f"# booted in {time.monotonic() - started:.1f} s")
        mgtap.run()
    finally:
        B.stop()


if __name__ == "__main__":
    main()
