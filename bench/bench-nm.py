#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""macguise's cost against bare NetworkManager, on this machine, in network
namespaces (tests/nm/nmnetns.py), as ratios to a baseline run in the same
script:

1. activation latency of one veth profile, 50 activations each:
   (a) an explicit cloned MAC and no hook, (b) cloned-mac-address=random and
   no hook, (e) the hook installed and a profile it does not manage (it
   exits at once), (c) macguise with the default probe window, (d) macguise
   with the probe off; each with median and spread, and the ratio to (a);
   (c) and (d) each alternate with (e), and their cost over it is the
   median (and p90) of the paired differences;
2. the hook's fast path (a profile macguised does not manage) against an
   empty shell-script hook; with it, the link check's cost beyond its
   window over an empty pre-up script;
3. first use before the check: on a link with a DHCP server (dnsmasq), how
   long a profile's address is on the wire (its first frame, a DHCP
   DISCOVER) before the link check's first probe; NetworkManager runs pre-up
   only after IP configuration, so this is what the check cannot cover;
4. macguised giving N profiles (100, 1,000, 5,000; MG_BENCH_SIZES) their first
   addresses, each size MG_BENCH_REPEATS (3) times in a fresh NetworkManager,
   as a ratio to a bare libnm client (nm-bare-writer) writing a cloned MAC
   into N other profiles of the same NetworkManager, with the same Update2
   flags and as many writes under way; those N stay beside macguised's as
   profiles set by hand, with the CPU time NetworkManager and each client
   used. At 1,000: `macguise status --json` against `nmcli -t connection
   show` on the same profiles, macguised's resident memory against a bare
   libnm client holding the same profiles, and its wake-ups while idle for
   60 s;
5. the link check while macguised saves on a slow disk (every fsync
   MG_BENCH_SLOW_FSYNC_MS, 300, longer: a worn SD card), as in 1. with
   macguised idle and then with rotations of other profiles keeping a save
   under way: how many activations got macguised's answer within the hook's
   250 ms and were checked, and (c) - (e) - WINDOW_MS each way.

    bench-nm.py MACGUISED HOOK NM_CLIENT_RSS NM_BARE_WRITER CLI SLOW_FSYNC      (as root)"""
import threading
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "nm"))
from nmnetns import NmNetns  # noqa: E402

MACGUISED, HOOK, NM_CLIENT_RSS, NM_BARE_WRITER, CLI, SLOW_FSYNC = sys.argv[1:7]
SLOW_FSYNC_MS = int(os.environ.get("MG_BENCH_SLOW_FSYNC_MS", "300"))
RUNS = int(os.environ.get("MG_BENCH_RUNS", "50"))
WINDOW_MS = 200  # macguise.conf's default probe-window-ms
SIZES = [int(n) for n in os.environ.get("MG_BENCH_SIZES", "100,1000,5000").split(",")]
IDLE = int(os.environ.get("MG_BENCH_IDLE", "60"))
# Each size is measured this many times, each in a fresh NetworkManager: a
# shared machine moves a single ratio by a tenth either way.
REPEATS = int(os.environ.get("MG_BENCH_REPEATS", "3"))


def info():
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "unknown")
    src = os.environ.get("MG_SOURCE_ROOT", os.path.join(HERE, ".."))
    commit = subprocess.run(["git", "-C", src, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    print(f"machine: {cpu}, {os.cpu_count()} cores; commit {commit}", flush=True)


def spread(ms):
    q = statistics.quantiles(ms, n=10)
    return statistics.median(ms), q[0], q[-1]


def activations(nm, name):
    ms = []
    for _ in range(RUNS):
        t = time.monotonic()
        nm.nmcli("connection", "up", name)
        ms.append((time.monotonic() - t) * 1000)
        nm.nmcli("connection", "down", name)
    return ms


def configure(nm, text):
    with open(os.path.join(nm.dir, "config", "macguise.conf"), "w") as f:
        f.write(text)
    assert nm.macguise_call("Reload").returncode == 0


def paired(nm, first, second):
    """Activations of @first and @second in turn, so that drift on a shared
    machine falls on both: their times, and the median of the differences."""
    a, b = [], []
    for _ in range(RUNS):
        for name, out in ((first, a), (second, b)):
            t = time.monotonic()
            nm.nmcli("connection", "up", name)
            out.append((time.monotonic() - t) * 1000)
            nm.nmcli("connection", "down", name)
    differences = [y - x for x, y in zip(a, b)]
    return a, b, (statistics.median(differences), statistics.quantiles(differences, n=10)[-1])


def latency(nm):
    nm.add_ethernet("fixed", "802-3-ethernet.cloned-mac-address", "00:1b:21:0a:0b:0c")
    nm.add_ethernet("random", "802-3-ethernet.cloned-mac-address", "random")
    nm.add_ethernet("managed")
    nm.start_macguised(MACGUISED)
    nm.wait_cloned("managed")
    results = {}
    nm.start_dispatcher(None)  # nm-dispatcher with no pre-up hook
    results["a"] = activations(nm, "fixed")
    results["b"] = activations(nm, "random")
    nm.end("dispatcher")
    # The hook installed as NetworkManager's only pre-up script, as on a
    # real system, serves both profiles of a pair: for "fixed" (set by
    # hand, so macguised's index says skip) it exits at once, as an empty
    # script would; fast_path() measures that against an empty shell script.
    nm.start_dispatcher(HOOK)
    results["e"], results["c"], c_over_e = paired(nm, "fixed", "managed")
    configure(nm, "[global]\nprobe-window-ms=0\n")
    e_d, results["d"], d_over_e = paired(nm, "fixed", "managed")
    configure(nm, "")
    nm.end("dispatcher")
    results["e"] += e_d
    base = statistics.median(results["a"])
    labels = {"a": "(a) explicit MAC, no hook", "b": "(b) NM random, no hook",
              "e": "(e) explicit MAC, the hook exits at once",
              "c": f"(c) macguise, {WINDOW_MS} ms window", "d": "(d) macguise, probe off"}
    print(f"\nactivation latency, `nmcli connection up`, {RUNS} runs each (ms)")
    print(f"{'':34} {'median':>8} {'p10':>8} {'p90':>8} {'ratio':>7}")
    for key, label in labels.items():
        med, lo, hi = spread(results[key])
        print(f"{label:34} {med:8.1f} {lo:8.1f} {hi:8.1f} {med / base:7.2f}")
    e = statistics.median(results["e"])
    print(f"a pre-up script costs (e) - (a) = {e - base:.1f} ms; the hook's check over its "
          f"exit at once, paired differences: (d) - (e) = {d_over_e[0]:.1f} ms (p90 "
          f"{d_over_e[1]:.1f}), (c) - (e) - window = {c_over_e[0] - WINDOW_MS:.1f} ms (p90 "
          f"{c_over_e[1] - WINDOW_MS:.1f})")
    # p90 of the differences spreads both activations' noise over one
    # figure: (d) and (e) do the same (the hook exits at once for both), so
    # (d) - (e)'s p90 is this machine's floor; the p90s of (c) and (e) apart
    # are the other reading.
    c_p90, e_p90 = spread(results["c"])[2], spread(results["e"])[2]
    print(f"p90 of (c) - p90 of (e) - window = {c_p90 - e_p90 - WINDOW_MS:.1f} ms; the noise floor of "
          f"a paired p90, (d) - (e) doing the same work: {d_over_e[1]:.1f} ms")
    return c_over_e[0] - WINDOW_MS, c_over_e[1] - WINDOW_MS, c_p90 - e_p90 - WINDOW_MS


def hook_outcomes(nm):
    """How many of the hook's runs so far checked the link, and how many
    could not ask macguised."""
    with open(os.path.join(nm.dir, "dispatcher.log"), encoding="utf-8", errors="replace") as f:
        text = f.read()
    return text.count(": link check "), text.count("cannot ask macguised")


class Rotations(threading.Thread):
    """Rotations of other profiles, one after another, until stopped: each
    is a save of macguised's state."""

    def __init__(self, nm, names):
        super().__init__(daemon=True)
        self.nm, self.names, self.done, self.count = nm, names, threading.Event(), 0

    def run(self):
        while not self.done.is_set():
            self.nm.macguise_call("Rotate", self.names[self.count % len(self.names)], "false")
            self.count += 1


def slow_disk(nm):
    nm.add_ethernet("fixed", "802-3-ethernet.cloned-mac-address", "00:1b:21:0a:0b:0c")
    nm.add_ethernet("managed")
    others = [f"busy{i}" for i in range(20)]
    for name in others:
        nm.add_ethernet(name)
    nm.start_macguised(MACGUISED, env={"LD_PRELOAD": os.path.abspath(SLOW_FSYNC),
                                       "MG_SLOW_FSYNC_MS": str(SLOW_FSYNC_MS)})
    nm.wait_cloned("managed")
    for name in others:
        nm.wait_cloned(name, timeout=120)
    print(f"\nthe link check while macguised saves, every fsync {SLOW_FSYNC_MS} ms longer, "
          f"{RUNS} paired activations each")
    nm.start_dispatcher(HOOK)
    for label in ("idle", "saving"):
        rotations = Rotations(nm, others) if label == "saving" else None
        if rotations:
            rotations.start()
        checked, refused = hook_outcomes(nm)
        _, c, c_over_e = paired(nm, "fixed", "managed")
        if rotations:
            rotations.done.set()
            rotations.join()
        now_checked, now_refused = hook_outcomes(nm)
        med, lo, hi = spread(c)
        busy = f", {rotations.count} rotations meanwhile" if rotations else ""
        print(f"  macguised {label}: {now_checked - checked} of {RUNS} activations checked, "
              f"{now_refused - refused} without an answer{busy}; (c) {med:.1f} ms "
              f"(p10 {lo:.1f}, p90 {hi:.1f}), (c) - (e) - window = {c_over_e[0] - WINDOW_MS:.1f} ms",
              flush=True)
    nm.end("dispatcher")


def first_use_gap(nm, capture, mac):
    """One activation of "dhcp": how long @mac was on the link before the
    link check's first probe, and how long of that DHCP took (ms)."""
    seen = len(nm.frame_records(capture))
    nm.nmcli("connection", "up", "dhcp", timeout=90)
    nm.nmcli("connection", "down", "dhcp")
    ours = [r for r in nm.frame_records(capture)[seen:] if r["src"] == mac]
    probe = next(r["time"] for r in ours if r.get("probe") == "arp-probe")
    dhcp = [r["time"] for r in ours if "dhcp" in r and r["time"] < probe]
    return (probe - ours[0]["time"]) * 1000, (dhcp[-1] - dhcp[0]) * 1000


def first_use(nm):
    capture = os.path.join(nm.dir, "frames-mgfu0.jsonl")
    peer_end = nm.new_adapter("mgfu0", "00:1b:21:77:00:01", capture)
    nm.plug_in(peer_end)
    nm.nmcli("connection", "add", "type", "ethernet", "ifname", "mgfu0", "con-name", "dhcp",
             "connection.autoconnect", "no", "ipv6.method", "disabled")
    mac = nm.wait_cloned("dhcp")
    cases = {"a new address (DHCP from DISCOVER)": [],
             "the same address again (DHCP REQUEST for its lease)": []}
    for _ in range(min(RUNS, 20)):
        # a rotation while down: the lease is forgotten, DHCP starts afresh
        assert nm.macguise_call("Rotate", "dhcp", "false").returncode == 0
        mac = nm.wait_cloned("dhcp", other_than=mac)
        cases["a new address (DHCP from DISCOVER)"].append(first_use_gap(nm, capture, mac))
        cases["the same address again (DHCP REQUEST for its lease)"].append(
            first_use_gap(nm, capture, mac))
    print("\nfirst use before the check: how long a profile's address is on the link before "
          "the link check's first probe\n(DHCP from dnsmasq on the peer; NetworkManager runs "
          "pre-up after IP configuration), ms")
    print(f"{'':54} {'median':>8} {'p10':>8} {'p90':>8} {'DHCP':>8}")
    for label, runs in cases.items():
        med, lo, hi = spread([g for g, _ in runs])
        dhcp = statistics.median([d for _, d in runs])
        print(f"{label:54} {med:8.0f} {lo:8.0f} {hi:8.0f} {dhcp:8.0f}")


def fast_path(nm):
    uuid = nm.uuid_of("fixed")  # set by hand: macguised does not manage it
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty-hook")
        with open(empty, "w") as f:
            f.write("#!/bin/sh\nexit 0\n")
        os.chmod(empty, 0o755)
        env = {"PATH": os.environ["PATH"], "DBUS_SYSTEM_BUS_ADDRESS": nm.env["DBUS_SYSTEM_BUS_ADDRESS"],
               "NM_DISPATCHER_ACTION": "pre-up", "DEVICE_IFACE": "veth0", "CONNECTION_UUID": uuid,
               "MG_RUNTIME": os.path.join(nm.dir, "run")}
        # 200 runs in one shell, in a mount namespace where /run/macguise is
        # macguised's runtime directory (with its index) or an empty one.
        loop = ('mount -t tmpfs mg /run && mkdir /run/macguise && '
                '{ [ "$1" = index ] && mount --bind "$MG_RUNTIME" /run/macguise; true; } && '
                'shift && s=$(date +%s%N) && for i in $(seq 200); do "$@" veth0 pre-up; done && '
                'echo $(( ($(date +%s%N) - s) / 200000 ))')

        def timed(where, exe):
            p = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", loop,
                                "sh", where, exe], env=env, capture_output=True, text=True, check=True)
            return int(p.stdout.strip()) / 1000  # ms

        assert os.path.exists(os.path.join(nm.dir, "run", "link-check-index"))
        listed, asked, shell = timed("index", HOOK), timed("none", HOOK), timed("none", empty)
    print(f"\nthe hook's fast path (a profile macguised does not manage), mean of 200 (ms)")
    print(f"  listed in macguised's index {listed:.2f}; without the index, asking macguised over "
          f"D-Bus {asked:.2f}; an empty shell script {shell:.2f}")
    print(f"  ratios to the empty script: {listed / shell:.2f} (index), {asked / shell:.2f} (D-Bus)")
    return listed - shell


def status_of(pid):
    out = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        out[key] = value.strip()
    return out


def cpu_seconds(pid):
    """User plus system CPU time a process has used."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def nm_pid(nm):
    # unshare and its shell exec NetworkManager: the spawned pid is its own.
    return next(p.pid for name, p in nm.pids if name == "nm")


def write_keyfiles(nm, prefix, count):
    conns = os.path.join(nm.dir, "system-connections")
    for i in range(count):
        path = os.path.join(conns, f"{prefix}{i}.nmconnection")
        with open(path, "w") as f:
            f.write(f"[connection]\nid={prefix}{i}\nuuid=00000000-0000-4{ord(prefix):03x}-8000-{i:012d}\n"
                    "type=ethernet\nautoconnect=false\n\n[ethernet]\n\n[ipv4]\nmethod=disabled\n\n"
                    "[ipv6]\nmethod=disabled\n")
        os.chmod(path, 0o600)


def new_addresses(nm):
    with open(os.path.join(nm.dir, "macguised.log"), encoding="utf-8", errors="replace") as f:
        return f.read().count(": new address #")


def fleet_of_profiles(count, measure_memory):
    """Seconds for the bare writer and for macguised, each with @count
    profiles of its own among 2 * @count."""
    # With more than about 1,000 profiles, libnm's start (its GetSettings for
    # every profile at once) passes the 1,024 pending replies NetworkManager's
    # bus policy allows, and any libnm client, nmcli too, may start without
    # some profiles: the writes are measured on a bus that allows more.
    nm = NmNetns(max_replies=65536).start()
    try:
        write_keyfiles(nm, "b", count)
        write_keyfiles(nm, "p", count)
        # Loading thousands of keyfiles outlasts nmcli's default wait.
        nm.nmcli("--wait", "900", "connection", "reload", timeout=1000)
        t = time.monotonic()
        nm_cpu = cpu_seconds(nm_pid(nm))
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = nm.run(NM_BARE_WRITER, "b", ns=nm.ns, timeout=600).stdout
        assert out.startswith(f"{count} profiles written, 0 failed"), out
        bare = time.monotonic() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        bare_cpu = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
        nm_cpu_bare = cpu_seconds(nm_pid(nm)) - nm_cpu
        if measure_memory:
            nm.spawn("nm-client-rss", NM_CLIENT_RSS, ns=nm.ns)
            nm.wait_for("the bare libnm client", lambda: "KiB" in nm.log_tail("nm-client-rss"),
                        timeout=60)
            bare_rss = int(nm.log_tail("nm-client-rss").split()[-2])
            nm.end("nm-client-rss")
        t = time.monotonic()
        nm_cpu = cpu_seconds(nm_pid(nm))
        daemon = nm.start_macguised(MACGUISED)
        nm.wait_for(f"{count} addresses", lambda: new_addresses(nm) >= count, timeout=1800)
        took = time.monotonic() - t
        nm_cpu_daemon = cpu_seconds(nm_pid(nm)) - nm_cpu
        daemon_cpu = cpu_seconds(daemon.pid)
        print(f"  {count:5} profiles: bare libnm client {bare:6.2f} s, macguised {took:6.2f} s "
              f"({took / count * 1000:.1f} ms each): ratio {took / bare:.2f}", flush=True)
        print(f"        CPU seconds: NetworkManager {nm_cpu_bare:.2f} serving the bare client "
              f"(which used {bare_cpu:.2f}), {nm_cpu_daemon:.2f} serving macguised "
              f"(which used {daemon_cpu:.2f})", flush=True)
        if measure_memory:
            status_at_scale(nm, 2 * count)
            idle(nm, daemon, bare_rss)
        return bare, took
    finally:
        nm.stop()


def timed(nm, *cmd):
    """Median seconds of five runs of @cmd in the namespace, and its output's size."""
    times, size = [], 0
    for _ in range(5):
        t = time.monotonic()
        size = len(nm.run(*cmd, ns=nm.ns, timeout=120).stdout)
        times.append(time.monotonic() - t)
    return statistics.median(times), size


def status_at_scale(nm, profiles):
    """`macguise status --json` against nmcli's terse listing of the same profiles."""
    nmcli_s, nmcli_size = timed(nm, "nmcli", "-t", "connection", "show")
    status_s, status_size = timed(nm, CLI, "status", "--json")
    print(f"  status of {profiles} profiles: `macguise status --json` "
          f"{status_s * 1000:.0f} ms, {status_size / 1024:.0f} KiB; `nmcli -t connection show` "
          f"{nmcli_s * 1000:.0f} ms, {nmcli_size / 1024:.0f} KiB: ratio {status_s / nmcli_s:.2f}",
          flush=True)


def idle(nm, daemon, bare_rss):
    time.sleep(2)  # let the last writes settle
    st = status_of(daemon.pid)
    rss = int(st["VmRSS"].split()[0])
    before = int(st["voluntary_ctxt_switches"]) + int(st["nonvoluntary_ctxt_switches"])
    time.sleep(IDLE)
    st = status_of(daemon.pid)
    after = int(st["voluntary_ctxt_switches"]) + int(st["nonvoluntary_ctxt_switches"])
    print(f"  resident memory {rss / 1024:.1f} MiB; a bare libnm client with the same profiles "
          f"{bare_rss / 1024:.1f} MiB; macguised's own {(rss - bare_rss) / 1024:.1f} MiB "
          f"(target under 16 MiB: {'met' if rss - bare_rss < 16 * 1024 else 'NOT met'})")
    print(f"  context switches while idle for {IDLE} s: {after - before} "
          f"(target 0: {'met' if after == before else 'NOT met'})")


def fleets():
    print("\nfirst addresses for N profiles, beside N profiles set by hand (target: macguised "
          "within 1.2x of the bare client at 1,000)")
    for count in SIZES:
        ratios = []
        for i in range(REPEATS):
            bare, took = fleet_of_profiles(count, count == 1000 and i == 0)
            ratios.append(took / bare)
        print(f"  {count:5} profiles: median ratio of {REPEATS}: {statistics.median(ratios):.2f} "
              f"(from {min(ratios):.2f} to {max(ratios):.2f})", flush=True)


def main():
    # MG_BENCH_PARTS: some of "latency,first-use,fleets,slow-disk" (all by default)
    parts = os.environ.get("MG_BENCH_PARTS", "latency,first-use,fleets,slow-disk").split(",")
    info()
    if "latency" in parts:
        nm = NmNetns().start()
        try:
            over = latency(nm)
            # (e) is the hook exiting at once; an empty shell script instead
            # costs what the fast path saves over it.
            fast = fast_path(nm)
            median, paired_p90, p90 = (x + fast for x in over)
            print(f"\nthe link check beyond its window over an empty pre-up script (target 5 ms):"
                  f" median of paired differences {median:.1f} ms; p90 {p90:.1f} ms (of the "
                  f"activations), {paired_p90:.1f} ms (of the paired differences)")
        finally:
            nm.stop()
    if "first-use" in parts:
        nm = NmNetns(managed=("veth0", "mgfu*")).start()
        try:
            nm.start_macguised(MACGUISED)
            nm.start_dispatcher(HOOK)
            first_use(nm)
        finally:
            nm.stop()
    if "fleets" in parts:
        fleets()
    if "slow-disk" in parts:
        nm = NmNetns().start()
        try:
            slow_disk(nm)
        finally:
            nm.stop()


main()
