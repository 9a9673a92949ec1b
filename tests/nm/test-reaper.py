#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A test process that dies without cleaning up leaves nothing behind: its
reaper (reaper.py) ends every process it started and deletes its namespaces
and its temporary directory, and touches nothing else. Each case runs the
harness (a real NetworkManager in namespaces, NmNetns) in a child process,
as a test's module-level setup does, and kills it:

- with SIGKILL once NetworkManager is up (kill -9, or meson's SIGKILL);
- as meson's timeout does (SIGTERM to its process group, SIGKILL to it half
  a second later, mtest.py's grace, if it still runs): while NmNetns.start()
  waits for NetworkManager, and after it, at module level, before a
  try/finally.

Decoys show that nothing else is touched: a process with NetworkManager's
name, started by this test (not the child) inside the child's namespace,
and a process whose pid the child tells its reaper with another start time
(a pid reused since). The child runs in a session of its own, as meson's
tests do; this test is outside it.

  test-reaper.py                    the cases, TAP
  test-reaper.py child DECOY_PID    the child (NmNetns, then waits)"""
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import mgtap  # noqa: E402
from reaper import reaper, signal_exact, start_time  # noqa: E402

BOUND = 30.0  # seconds: a bound on a stall, not on speed
MESON_GRACE = 0.5  # mtest.py: SIGTERM to the group, SIGKILL 0.5 s later


def child(decoy):
    """The harness as a test's module-level setup uses it, no try/finally."""
    from nmnetns import NmNetns
    # a pid told with a start time not its own: one reused since
    reaper().tell("pid", decoy, start_time(decoy) + 1)
    nm = NmNetns()
    print(json.dumps({"dir": nm.dir, "ns": [nm.ns, nm.peer]}), flush=True)
    nm.start()
    print(json.dumps({"up": [p.pid for _, p in nm.pids]}), flush=True)
    sys.stdin.read()  # until it is killed


def descendants(root):
    """{pid: start time} of every process under @root, @root too."""
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    parents[int(name)] = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError):
                pass
    found, todo = {}, [root]
    while todo:
        pid = todo.pop()
        start = start_time(pid)
        if start is not None:
            found[pid] = start
        todo += [p for p, parent in parents.items() if parent == pid]
    return found


def runs(pid, path):
    """Whether process @pid runs the program file @path (exec has replaced
    the shell the reaper starts it through). Compared as files, not as
    paths: the path of a process in another mount namespace (ip netns
    exec makes one) reads differently where /tmp is a mount of its own."""
    try:
        there, here = os.stat(f"/proc/{pid}/exe"), os.stat(path)
    except OSError:
        return False
    return (there.st_dev, there.st_ino) == (here.st_dev, here.st_ino)


def poll_until(what, predicate, timeout=BOUND):
    """Waits for @predicate, at most @timeout seconds; the time it took."""
    started = time.monotonic()
    while not predicate():
        if time.monotonic() - started > timeout:
            raise AssertionError(f"{what}: not after {timeout:.0f} s")
        time.sleep(0.02)
    return time.monotonic() - started


class Run:
    """One child, its decoys, and what it left; cleans up after itself
    (by pid and by name, what the child made) whatever the reaper did."""

    def __init__(self):
        self.top = reaper().mkdtemp("mg-reaper-test-")
        # a process with NetworkManager's name, not the child's
        self.fake_nm = os.path.join(self.top, "NetworkManager")
        self.decoys, self.child, self.started = [], None, {}
        self.made = {"dir": "", "ns": []}

    def start(self):
        shutil.copy("/bin/sleep", self.fake_nm)
        decoy, _ = self.spawn_decoy()
        with open(os.path.join(self.top, "child.err"), "w") as err:
            self.child = subprocess.Popen([sys.executable, __file__, "child", str(decoy)],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=err, start_new_session=True)
        self.made = self.read()

    def spawn_decoy(self, *prefix):
        p = reaper().spawn([*prefix, self.fake_nm, "infinity"])
        poll_until("the decoy", lambda: start_time(p.pid) is not None
                   and runs(p.pid, self.fake_nm))
        self.decoys.append((p, start_time(p.pid)))
        return p.pid, start_time(p.pid)

    def time_out(self):
        """The child's descendants noted, then the child ended as meson ends
        a test that timed out; the reaper must leave nothing."""
        self.started = descendants(self.child.pid)
        killed = time.monotonic()
        how = meson_timeout(self.child)
        self.reaped()
        print(f"# {how}; {len(self.started)} processes, 2 namespaces, 1 directory gone "
              f"{time.monotonic() - killed:.2f} s after SIGTERM; {self.reaper_said()}")

    def read(self):
        ready, _, _ = select.select([self.child.stdout], [], [], BOUND)
        line = self.child.stdout.readline() if ready else b""
        if not line:
            raise AssertionError("the child said nothing:\n" + self.child_err())
        return json.loads(line)

    def child_err(self):
        with open(os.path.join(self.top, "child.err"), errors="replace") as f:
            return f.read()[-3000:]

    def left(self):
        """What the child made that is still there."""
        procs = [pid for pid, start in self.started.items() if start_time(pid) == start]
        names = [n for n in self.made["ns"] if os.path.exists(f"/run/netns/{n}")]
        return procs, names, os.path.exists(self.made["dir"])

    def reaped(self):
        """The time until the child's processes, namespaces and directory
        are gone, after it was killed."""
        try:
            took = poll_until("everything the child made gone",
                              lambda: self.left() == ([], [], False))
        except AssertionError:
            raise AssertionError(f"left (processes, namespaces, directory): {self.left()}\n"
                                 + self.child_err())
        for p, start in self.decoys:
            assert start_time(p.pid) == start, f"decoy {p.pid} was touched"
        return took

    def reaper_said(self):
        return [line for line in self.child_err().splitlines() if line.startswith("reaper:")]

    def close(self):
        if self.child is not None:
            if self.child.poll() is None:
                self.child.kill()
            self.child.wait()
            self.child.stdout.close()
            self.child.stdin.close()
        procs, names, _ = self.left()
        for pid in procs:  # (what a reaper that failed left)
            signal_exact(pid, self.started[pid], signal.SIGKILL)
        for name in names:
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
        if self.made["dir"]:
            shutil.rmtree(self.made["dir"], ignore_errors=True)
        for p, _ in self.decoys:
            p.kill()
            p.wait()
            reaper().forget("pid", p.pid)
        shutil.rmtree(self.top, ignore_errors=True)
        reaper().forget("dir", self.top)


@mgtap.test
def sigkill_once_networkmanager_is_up_leaves_nothing():
    run = Run()
    try:
        run.start()
        up = run.read()["up"]
        run.spawn_decoy("ip", "netns", "exec", run.made["ns"][0])
        run.started = descendants(run.child.pid)
        assert set(up) < set(run.started), (up, run.started)
        # NetworkManager, its bus, udevd, the reaper and the child
        assert len(run.started) >= 5, run.started
        killed = time.monotonic()
        run.child.kill()
        run.reaped()
        print(f"# {len(run.started)} processes, 2 namespaces, 1 directory gone "
              f"{time.monotonic() - killed:.2f} s after SIGKILL; {run.reaper_said()}")
    finally:
        run.close()


def meson_timeout(child):
    """What mtest.py does on a timeout: SIGTERM to the test's process group,
    SIGKILL to it if the test still runs half a second later."""
    os.killpg(child.pid, signal.SIGTERM)
    try:
        child.wait(timeout=MESON_GRACE)
        return "its own cleanup ended it within the grace"
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        return "SIGKILL cut its own cleanup short"


@mgtap.test
def timeout_during_setup_leaves_nothing():
    """While NmNetns.start() waits for NetworkManager."""
    run = Run()
    try:
        run.start()
        # NetworkManager just started: namespaces, bus and udevd there
        nm_log = os.path.join(run.made["dir"], "nm.log")
        poll_until("NetworkManager started", lambda: os.path.exists(nm_log))
        run.time_out()
    finally:
        run.close()


@mgtap.test
def timeout_before_the_tests_finally_leaves_nothing():
    """After NmNetns.start(), in a test's module-level setup, before the
    try/finally that stops it: the SIGTERM handler's SystemExit ends the
    process with nothing stopped."""
    run = Run()
    try:
        run.start()
        run.read()  # up
        run.time_out()
    finally:
        run.close()


if __name__ == "__main__":
    if sys.argv[1:2] == ["child"]:
        child(int(sys.argv[2]))
    else:
        mgtap.run()
