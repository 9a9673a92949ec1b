#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs one libFuzzer target for a bounded time: new inputs go to a corpus
in the build tree, the seeds in the source tree are only read, and a crash
leaves its input beside the build for a regression case."""
import os
import subprocess
import sys

fuzzer, seeds, seconds = sys.argv[1], sys.argv[2], sys.argv[3]
name = os.path.basename(fuzzer)
work = os.path.join(os.path.dirname(fuzzer), name + "-corpus")
os.makedirs(work, exist_ok=True)
artifacts = os.path.join(os.path.dirname(fuzzer), name + "-crash-")
cmd = [fuzzer, f"-max_total_time={seconds}", "-timeout=10", "-rss_limit_mb=2048",
       f"-artifact_prefix={artifacts}", "-print_final_stats=1", work, seeds]
print(" ".join(cmd), flush=True)
env = dict(os.environ)
env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=1"
env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
env["G_SLICE"] = "always-malloc"
rc = subprocess.call(cmd, env=env)
# Any failure is a failure: meson would read libFuzzer's or a crash's 77 as "skipped".
sys.exit(0 if rc == 0 else 1)
