# SPDX-License-Identifier: GPL-3.0-or-later
"""A minimal TAP producer for the Python test scripts run by meson.

MGTAP_ONLY=NAME[,NAME…] runs only those tests, for working on one; the
others are reported as skipped, so a run with it set never passes as whole."""
import os
import sys
import traceback

_tests = []


def test(fn):
    _tests.append(fn)
    return fn


def run():
    print(f"1..{len(_tests)}")
    failed = 0
    only = [n for n in os.environ.get("MGTAP_ONLY", "").split(",") if n]
    for i, fn in enumerate(_tests, 1):
        if only and fn.__name__ not in only:
            print(f"ok {i} - {fn.__name__} # SKIP not in MGTAP_ONLY")
            continue
        try:
            fn()
            print(f"ok {i} - {fn.__name__}")
        except Exception:  # report every failure, keep going
            failed += 1
            print(f"not ok {i} - {fn.__name__}")
            for line in traceback.format_exc().splitlines():
                print(f"# {line}")
    sys.exit(1 if failed else 0)
