#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every C source and header is formatted as .clang-format says: the tree
never drifts from its style. Run `clang-format -i` on what this names."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402

SRC = os.environ["MG_SOURCE_ROOT"]
CLANG_FORMAT = sys.argv[1]
DIRS = ("bench", "cli", "core", "daemon", "dispatcher", "link", "nm", "tests", "tools")


def sources():
    found = []
    for d in DIRS:
        for root, _, files in os.walk(os.path.join(SRC, d)):
            found += [os.path.join(root, n) for n in files if n.endswith((".c", ".h"))]
    return sorted(found)


@mgtap.test
def the_sources_are_found():
    names = {os.path.relpath(p, SRC) for p in sources()}
    assert "daemon/macguised.c" in names and "core/mg-reconcile.h" in names, sorted(names)[:5]


@mgtap.test
def every_source_is_formatted():
    p = subprocess.run([CLANG_FORMAT, "--dry-run", "--Werror", *sources()],
                       capture_output=True, text=True)
    drifted = sorted({line.split(":")[0] for line in p.stderr.splitlines() if ": error:" in line})
    assert p.returncode == 0, "run clang-format -i on: " + " ".join(
        os.path.relpath(f, SRC) for f in drifted) + "\n" + p.stderr[-2000:]


mgtap.run()
