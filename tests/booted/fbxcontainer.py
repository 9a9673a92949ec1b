# SPDX-License-Identifier: GPL-3.0-or-later
"""The container of tests/booted/test-freedombox.py: a SUITE-fbx tree
(tools/debian-tree) booted with systemd as PID 1 (systemd-nspawn --boot,
/work/shared/nm-netns.md), on an overlay whose upper layer is the test's
own, its one cable (nspawn's --network-veth) ending in the test's network
namespace, where the host-side end has 10.89.9.1 and the browser runs.

The test process runs in network and mount namespaces of its own
(test-freedombox.py enters them first): they, the overlay and the cable go
when its processes end. Everything started here is ended by its pid, and
told to the test process's reaper (tests/nm/reaper.py) first, which powers
the container off (SIGTERM to nspawn; SIGKILL to it and to the container's
systemd if that takes more than its grace), unmounts the overlay and removes
the directory if the test process dies before its cleanup is done."""
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nm"))
from reaper import reaper  # noqa: E402

# the container's address on its cable, and the test's end of it
ADDRESS, PEER = "10.89.9.2", "10.89.9.1"


def container_systemd(nspawn_pid):
    """The container's systemd (the nspawn process's child), or None."""
    try:
        with open(f"/proc/{nspawn_pid}/task/{nspawn_pid}/children") as f:
            children = f.read().split()
    except OSError:
        return None
    for pid in children:
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() == "systemd":
                    return pid
        except OSError:
            pass
    return None


def manager_listens(leader):
    """Whether the container's systemd takes systemctl's calls: its private
    socket is there (before, systemctl fails at once: "Failed to connect to
    bus")."""
    return os.path.exists(f"/proc/{leader}/root/run/systemd/private")


def sh(*cmd, check=True, timeout=60, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    if check and p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {p.returncode}: {p.stdout[-2000:]}{p.stderr[-2000:]}")
    return p


class Container:
    """One booted container; @binds: {host path: path inside}, read-only."""

    def __init__(self, tree, binds):
        self.tree, self.binds = tree, binds
        self.machine = f"mgf{os.getpid() % 100000}"
        self.host_end = f"ve-{self.machine}"
        self.dir = reaper().mkdtemp("mg-fbxboot-")
        self.nspawn = None
        self.leader = None  # the container's systemd

    def start(self):
        sh("ip", "link", "set", "lo", "up")
        for d in ("upper", "work", "root"):
            os.mkdir(os.path.join(self.dir, d))
        root = os.path.join(self.dir, "root")
        sh("mount", "-t", "overlay", "overlay", "-o",
           f"lowerdir={self.tree},upperdir={self.dir}/upper,workdir={self.dir}/work", root)
        log = open(os.path.join(self.dir, "console.log"), "a")
        binds = [f"--bind-ro={host}:{inside}" for host, inside in self.binds.items()]
        self.nspawn = reaper().spawn(
            ["systemd-nspawn", "-D", root, "--register=no", "--keep-unit", "--boot",
             "--network-veth", "-M", self.machine, *binds],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        # (/sys is the machine's, of its network namespace: ask ip)
        self.wait_for(f"{self.host_end} here", lambda: subprocess.run(
            ["ip", "link", "show", "dev", self.host_end], capture_output=True).returncode == 0)
        sh("ip", "addr", "add", f"{PEER}/24", "dev", self.host_end)
        sh("ip", "link", "set", self.host_end, "up")
        self.wait_for("the container's systemd", self.find_leader)
        self.wait_for("its manager to listen", lambda: manager_listens(self.leader), timeout=120)
        p = self.inside("systemctl", "is-system-running", "--wait", check=False, timeout=120)
        if p.stdout.strip() not in ("running", "degraded"):
            raise RuntimeError(f"the container did not boot: {p.stdout}{p.stderr}\n"
                               + self.console_tail())
        # Debian's switch against services started by maintainer scripts,
        # which the cached tree keeps (it is made in a chroot): a booted
        # system has none.
        self.inside("rm", "-f", "/usr/sbin/policy-rc.d")
        self.inside("nmcli", "connection", "add", "type", "ethernet", "ifname", "host0",
                    "con-name", "lan", "ipv4.method", "manual", "ipv4.addresses",
                    f"{ADDRESS}/24", "ipv6.method", "disabled")
        self.inside("nmcli", "connection", "up", "lan")
        return self

    def find_leader(self):
        self.leader = container_systemd(self.nspawn.pid)
        if self.leader is not None:
            # SIGKILL only: the reaper's SIGTERM to nspawn powers it off
            reaper().pid(int(self.leader), term=False)
        return self.leader is not None

    def stop(self):
        """Powers the container off (its pid's last resort: SIGKILL to its
        systemd, which ends its PID namespace), unmounts the overlay."""
        keep = os.environ.get("MG_KEEP_DIR")
        if self.nspawn is not None and self.nspawn.poll() is None:
            if self.leader is None:
                self.find_leader()
            if keep and self.leader is not None:
                with open(os.path.join(self.dir, "journal.txt"), "w") as f:
                    f.write(self.inside("journalctl", "-b", "--no-pager", check=False,
                                        timeout=60).stdout)
            if self.leader is not None:
                self.inside("systemctl", "poweroff", check=False, timeout=30)
            try:
                self.nspawn.wait(timeout=90)
            except subprocess.TimeoutExpired:
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
            reaper().forget("pid", self.nspawn.pid)
            if self.leader is not None:
                reaper().forget("pid", int(self.leader))
        subprocess.run(["umount", "--lazy", os.path.join(self.dir, "root")], capture_output=True)
        if keep:
            shutil.copytree(self.dir, os.path.join(keep, os.path.basename(self.dir)),
                            dirs_exist_ok=True,
                            ignore=lambda d, names: [n for n in names if d == self.dir and
                                                     n in ("upper", "work", "root")])
        shutil.rmtree(self.dir, ignore_errors=True)
        if not os.path.exists(self.dir):
            reaper().forget("dir", self.dir)

    def wait_for(self, what, predicate, timeout=30.0):
        """A bound on a stall, not on speed."""
        started = time.monotonic()
        while time.monotonic() < started + timeout:
            if predicate():
                if time.monotonic() - started > 5:
                    print(f"{time.monotonic() - started:.1f} s: {what}", file=sys.stderr)
                return
            if self.nspawn.poll() is not None:
                raise RuntimeError(f"the container ended ({self.nspawn.returncode}) while "
                                   f"waiting for {what}:\n{self.console_tail()}")
            time.sleep(0.2)
        raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")

    def console_tail(self, lines=30):
        with open(os.path.join(self.dir, "console.log"), errors="replace") as f:
            return "".join(f.readlines()[-lines:])

    def inside(self, *cmd, check=True, timeout=60):
        """@cmd in every namespace of the container, with a clean environment."""
        full = ["nsenter", "-t", str(self.leader), "-a", "/usr/bin/env", "-i",
                "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8", "HOME=/root",
                "DEBIAN_FRONTEND=noninteractive", *cmd]
        started = time.monotonic()
        p = subprocess.run(full, capture_output=True, text=True, timeout=timeout)
        if time.monotonic() - started > 5:
            print(f"{time.monotonic() - started:.1f} s: {' '.join(cmd)}", file=sys.stderr)
        if check and p.returncode != 0:
            raise RuntimeError(f"inside: {' '.join(cmd)}: {p.returncode}: "
                               f"{p.stdout[-3000:]}{p.stderr[-3000:]}")
        return p

    def apt(self, *args):
        """apt-get with @args inside, offline: every package it needs is in
        the tree's apt cache (tools/debian-tree's SUITE-fbx). Recommended
        packages too, as apt installs them by default."""
        return self.inside("apt-get", "-y", "-q", "-o", "DPkg::Lock::Timeout=300",
                           "-o", "Dpkg::Options::=--force-confdef",
                           "-o", "Dpkg::Options::=--force-confold", *args, timeout=900)

    def version(self, package):
        return self.inside("dpkg-query", "-W", "-f=${Version}", package, check=False).stdout

    def log_tail(self, unit, lines=40):
        return self.inside("journalctl", "-b", "-u", unit, "-n", str(lines), "--no-pager",
                           "-o", "cat", check=False).stdout

    def is_active(self, unit):
        return self.inside("systemctl", "is-active", unit, check=False).stdout.strip() == "active"
