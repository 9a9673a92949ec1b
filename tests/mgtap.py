# SPDX-License-Identifier: GPL-3.0-or-later
"""A minimal TAP producer for the Python test scripts run by meson."""
import sys
import traceback

_tests = []


def test(fn):
    _tests.append(fn)
    return fn


def run():
    print(f"1..{len(_tests)}")
    failed = 0
    for i, fn in enumerate(_tests, 1):
        try:
            fn()
            print(f"ok {i} - {fn.__name__}")
        except Exception:  # report every failure, keep going
            failed += 1
            print(f"not ok {i} - {fn.__name__}")
            for line in traceback.format_exc().splitlines():
                print(f"# {line}")
    sys.exit(1 if failed else 0)
