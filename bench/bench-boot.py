#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The boot step (macguised --boot) giving N keyfiles their first addresses,
as a ratio to GKeyFile alone rewriting the same keyfiles as durably
(keyfile-rewriter), in the same script, for N = 100, 1,000 and 5,000
(MG_BENCH_SIZES), each MG_BENCH_REPEATS (3) times in fresh directories.
No NetworkManager is needed: the boot step runs before it.

    bench-boot.py MACGUISED KEYFILE_REWRITER"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

MACGUISED, REWRITER = sys.argv[1:3]
SIZES = [int(n) for n in os.environ.get("MG_BENCH_SIZES", "100,1000,5000").split(",")]
REPEATS = int(os.environ.get("MG_BENCH_REPEATS", "3"))


def keyfiles(directory, count):
    os.makedirs(directory)
    for i in range(count):
        path = os.path.join(directory, f"p{i}.nmconnection")
        with open(path, "w") as f:
            f.write(f"[connection]\nid=p{i}\nuuid=00000000-0000-4000-8000-{i:012d}\n"
                    "type=ethernet\nautoconnect=false\n\n[ethernet]\n\n[ipv4]\n"
                    "method=auto\n\n[ipv6]\nmethod=auto\n")
        os.chmod(path, 0o600)


def timed(cmd, env=None):
    t = time.monotonic()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1200)
    took = time.monotonic() - t
    assert p.returncode == 0, p.stdout + p.stderr
    return took, p.stdout + p.stderr


def once(count):
    top = tempfile.mkdtemp(prefix="mg-bench-boot-")
    try:
        keyfiles(os.path.join(top, "bare"), count)
        keyfiles(os.path.join(top, "boot"), count)
        bare, out = timed([REWRITER, os.path.join(top, "bare")])
        assert out.startswith(f"{count} keyfiles rewritten"), out
        env = dict(os.environ, STATE_DIRECTORY=os.path.join(top, "state"),
                   RUNTIME_DIRECTORY=os.path.join(top, "run"),
                   CONFIGURATION_DIRECTORY=os.path.join(top, "config"),
                   MACGUISE_PACKAGED_CONF_DIR=os.path.join(top, "packaged"),
                   DBUS_SYSTEM_BUS_ADDRESS=f"unix:path={top}/no-bus")
        for d in ("state", "run", "config", "packaged", "nm"):
            os.makedirs(os.path.join(top, d))
        boot, out = timed([MACGUISED, "--boot", f"--keyfile-dir={top}/boot",
                           f"--nm-conf-dir={top}/conf.d", f"--nm-state-dir={top}/nm"], env)
        assert f"{count} profile(s) given a new address" in out, out[-500:]
        return bare, boot
    finally:
        shutil.rmtree(top)


def main():
    print("the boot step giving N keyfiles their first addresses, against GKeyFile alone "
          "rewriting them as durably")
    for count in SIZES:
        runs = [once(count) for _ in range(REPEATS)]
        ratios = [boot / bare for bare, boot in runs]
        bare = statistics.median(b for b, _ in runs)
        boot = statistics.median(b for _, b in runs)
        print(f"  {count:5} keyfiles: GKeyFile alone {bare:6.2f} s, boot step {boot:6.2f} s: "
              f"median ratio of {REPEATS}: {statistics.median(ratios):.2f} "
              f"(from {min(ratios):.2f} to {max(ratios):.2f})", flush=True)


main()
