# SPDX-License-Identifier: GPL-3.0-or-later
"""A guardian for what a test makes: when the test process dies by any
means (meson's SIGTERM and, half a second later, SIGKILL to its process
group; Ctrl-C twice; kill -9), it ends the processes the test started, by
their pids, deletes the network namespaces and the temporary directories the
test made, and exits. The test's own cleanup (`finally`) stays the first
one; this one finishes what a SIGKILL cut short.

The reaper runs in a session of its own (meson's killpg does not reach
it) and reads what to reap from a pipe whose only writer is the test
process; end of file is the test's death:

  pid PID START      a process, START its start time (/proc/PID/stat field
                     22): a pid reused by another process is never signalled
  pid PID START kill one that gets SIGKILL only (a container's systemd,
                     which its nspawn's SIGTERM powers off)
  netns NAME         a network namespace (`ip netns del NAME`)
  dir PATH           a directory (what is mounted under it is unmounted
                     first, then it is removed)
  forget KIND WHAT   the test has ended or removed it itself

Each resource is told before it exists: a namespace before `ip netns add`,
a directory before mkdir, a process by itself between fork and exec
(spawn() starts every process through a shell that writes its own pid and
start time down the pipe, then execs the command). A clean end has forgotten
everything, and the reaper exits without acting. At the test's death it
sends SIGTERM to every process still running, SIGKILL to those left after
GRACE seconds, then deletes the namespaces and the directories.

    python3 reaper.py    (started by Reaper(); the pipe is its stdin)
"""
import errno
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

GRACE = 5.0  # seconds from SIGTERM to SIGKILL

# Writes "pid $$ START" to fd $1 and execs the rest: the process tells the
# reaper about itself before it runs anything (field 22 is the 20th after
# "PID (COMM) "), and the command does not inherit the pipe.
SPAWN_SH = """fd=$1; shift
read -r s </proc/self/stat
s=${s##*") "}
mg_start() { shift 19; echo "pid $$ $1" >&"$fd"; }
mg_start $s
eval "exec $fd>&-"
exec "$@"
"""


def start_time(pid):
    """@pid's start time (clock ticks since boot), or None once it is gone
    (a zombie is gone: it runs nothing and holds nothing)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    if fields[0] in (b"Z", b"X"):
        return None
    return int(fields[19])


def alive(pid, start):
    """Whether process @pid that started at @start still runs."""
    return start_time(pid) == start


# -- the test's side ---------------------------------------------------------
class Reaper:
    def __init__(self):
        r, self.w = os.pipe()
        try:
            # stderr stays the test's: what it did shows in the test's log
            self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__)], stdin=r,
                                         stdout=subprocess.DEVNULL, start_new_session=True)
        finally:
            os.close(r)
        self.owner = os.getpid()

    def tell(self, *words):
        # one write of less than PIPE_BUF: lines from several writers never mix
        os.write(self.w, (" ".join(str(w) for w in words) + "\n").encode())

    def netns(self, name):
        self.tell("netns", name)

    def dir(self, path):
        self.tell("dir", path)

    def pid(self, pid, term=True):
        """A process found, not started through spawn() (a container's
        systemd, say): told as soon as it is seen; without @term it gets
        SIGKILL only, once the others have had their grace."""
        start = start_time(pid)
        if start is not None:
            self.tell("pid", pid, start, *(() if term else ("kill",)))

    def forget(self, kind, what):
        self.tell("forget", kind, what)

    def mkdtemp(self, prefix):
        """tempfile.mkdtemp(), the directory told before it exists."""
        while True:
            path = os.path.join(tempfile.gettempdir(),
                                f"{prefix}{os.getpid()}-{time.monotonic_ns() % 10**9}")
            self.dir(path)
            try:
                os.mkdir(path, 0o700)
                return path
            except FileExistsError:  # not ours: never to be removed
                self.forget("dir", path)

    def spawn(self, cmd, **kw):
        """subprocess.Popen(@cmd, **@kw), the process told by itself before
        it execs @cmd; in a session of its own unless @kw says otherwise."""
        kw.setdefault("start_new_session", True)
        pass_fds = tuple(kw.pop("pass_fds", ())) + (self.w,)
        return subprocess.Popen(["sh", "-c", SPAWN_SH, "mg-reaped", str(self.w), *cmd],
                                pass_fds=pass_fds, **kw)


_reaper = None


def reaper():
    """The process's reaper, started on first use."""
    global _reaper
    if _reaper is None or _reaper.owner != os.getpid():
        _reaper = Reaper()
    return _reaper


# -- the reaper's side -------------------------------------------------------
def log(text):
    print(f"reaper: {text}", file=sys.stderr, flush=True)


def read_orders(stream):
    """Until end of file: {"pid": {pid: (start, term)}, "netns": {name: True},
    "dir": {path: True}} of what is still to reap, in the order told."""
    left = {"pid": {}, "netns": {}, "dir": {}}
    for line in stream:
        kind, _, rest = line.rstrip("\n").partition(" ")
        try:
            if kind == "pid":
                pid, start, *how = rest.split()
                left["pid"][int(pid)] = (int(start), how != ["kill"])
            elif kind in ("netns", "dir"):
                left[kind][rest] = True
            elif kind == "forget":
                what, _, name = rest.partition(" ")
                left[what].pop(int(name) if what == "pid" else name, None)
            else:
                raise ValueError(kind)
        except (ValueError, KeyError):
            log(f"not understood: {line.strip()!r}")
    return left


def signal_exact(pid, start, sig):
    """@sig to @pid if it is still the process that started at @start (a
    pidfd pins it between the check and the signal)."""
    try:
        fd = os.pidfd_open(pid)
    except OSError as e:
        if e.errno == errno.ENOSYS and alive(pid, start):  # (before Linux 5.3)
            os.kill(pid, sig)
        return
    try:
        if alive(pid, start):
            signal.pidfd_send_signal(fd, sig)
    except OSError:
        pass
    finally:
        os.close(fd)


def end_processes(pids):
    """SIGTERM to those of @pids still running (last started first),
    SIGKILL to those left GRACE seconds later."""
    running = {pid: start for pid, (start, _) in pids.items() if alive(pid, start)}
    for pid, (start, term) in reversed(list(pids.items())):
        if term and pid in running:
            signal_exact(pid, start, signal.SIGTERM)
            signal_exact(pid, start, signal.SIGCONT)  # one a test stopped (SIGSTOP)
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline and any(alive(p, s) for p, s in running.items()):
        time.sleep(0.02)
    for pid, start in running.items():
        if alive(pid, start):
            log(f"SIGKILL to {pid}, still running {GRACE:.0f} s after SIGTERM")
            signal_exact(pid, start, signal.SIGKILL)
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline and any(alive(p, s) for p, s in running.items()):
        time.sleep(0.02)
    return len(running)


def unmount_under(path):
    """Unmounts what is mounted on @path or under it, deepest first."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8") as f:
            points = [line.split()[4].encode().decode("unicode_escape") for line in f]
    except OSError:
        return
    mine = (p for p in points if p == path or p.startswith(path + "/"))
    for point in sorted(mine, key=len, reverse=True):
        subprocess.run(["umount", "--lazy", point], capture_output=True)


def reap(left):
    started = time.monotonic()
    ended = end_processes(left["pid"])
    for name in reversed(list(left["netns"])):
        if os.path.exists(f"/run/netns/{name}"):
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
    for path in reversed(list(left["dir"])):
        if os.path.isdir(path):
            unmount_under(path)
            shutil.rmtree(path, ignore_errors=True)
    log(f"the test ended leaving {ended} processes, {len(left['netns'])} namespaces and "
        f"{len(left['dir'])} directories; reaped in {time.monotonic() - started:.2f} s")


def main():
    # Only the end of the pipe ends it: not the terminal's Ctrl-C (it has
    # no terminal) nor a hangup.
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)
    left = read_orders(sys.stdin)
    # a clean end has forgotten everything (or left only what has ended)
    if (any(alive(pid, start) for pid, (start, _) in left["pid"].items())
            or any(os.path.exists(f"/run/netns/{n}") for n in left["netns"])
            or any(os.path.lexists(d) for d in left["dir"])):
        reap(left)


if __name__ == "__main__":
    main()
