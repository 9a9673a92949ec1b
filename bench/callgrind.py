#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Instruction counts (valgrind's callgrind: repeatable whatever else the
machine does) of loading the catalogue and of drawing an address, each the
count of a step less that of a run that only starts up.

    callgrind.py BENCH_CORE"""
import os
import re
import subprocess
import sys
import tempfile

BENCH = sys.argv[1]


def instructions(step):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                            BENCH, "--step", step], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"callgrind {step}: {p.stderr[-1000:]}")
        with open(out) as f:
            return int(re.search(r"^summary: (\d+)", f.read(), re.M).group(1))


def main():
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")),
               "unknown")
    src = os.environ.get("MG_SOURCE_ROOT", ".")
    commit = subprocess.run(["git", "-C", src, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    print(f"machine: {cpu}, {os.cpu_count()} cores; commit {commit}")
    base = instructions("none")
    split = instructions("split") - base
    load = instructions("load") - base
    generate = (instructions("generate") - base - load) / 10000
    print(f"{'callgrind (instructions)':34} {'count':>14} {'baseline':>14} {'ratio':>8}")
    print(f"{'catalogue load / split lines':34} {load:14,} {split:14,} {load / split:8.1f}")
    print(f"{'one wifi address (seeded)':34} {generate:14,.0f}")


main()
