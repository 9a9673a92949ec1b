#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""macguised's files depend on one another one way: no circle among the
daemon's modules (a .c file with its header), read from their #include
lines; no private header that every one of them includes; and the parts
that keep state of their own know nothing of the service whose core they
serve. Prints TAP."""
import os
import re
import sys

DAEMON = os.path.join(os.environ["MG_SOURCE_ROOT"], "daemon")
INCLUDE = re.compile(r'^#include "([^"]+)\.h"', re.M)
# The objects with state of their own that the service wires together
# (mg-service-core.h): each is given what it needs, and includes nothing of
# the service's.
PARTS = ["mg-profile-record", "mg-write-pipeline", "mg-state-saver", "mg-wake-schedule",
         "mg-link-index", "mg-change-notice", "mg-first-contact-keeper"]


def modules():
    """module -> the daemon modules it includes (its own header aside)."""
    names = {f[:-2] for f in os.listdir(DAEMON) if f.endswith((".c", ".h"))}
    deps = {n: set() for n in names}
    for f in os.listdir(DAEMON):
        if not f.endswith((".c", ".h")):
            continue
        me = f[:-2]
        with open(os.path.join(DAEMON, f), encoding="utf-8") as fh:
            for inc in INCLUDE.findall(fh.read()):
                if inc in names and inc != me:
                    deps[me].add(inc)
    return deps


def a_circle(deps):
    """One circle as a list of modules, or None."""
    state = {}

    def visit(n, path):
        state[n] = "open"
        for d in sorted(deps[n]):
            if state.get(d) == "open":
                return path[path.index(d):] + [d]
            if d not in state:
                found = visit(d, path + [d])
                if found:
                    return found
        state[n] = "done"
        return None

    for n in sorted(deps):
        if n not in state:
            found = visit(n, [n])
            if found:
                return found
    return None


def reaches(deps, start):
    """Every module @start includes, directly or not."""
    seen, todo = set(), [start]
    while todo:
        for d in deps.get(todo.pop(), ()):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def service_aware(deps):
    """The parts that include any of the service's own files."""
    return [p for p in PARTS
            if p not in deps or any(d.startswith("mg-service") for d in reaches(deps, p))]


def main():
    deps = modules()
    tests = []
    circle = a_circle(deps)
    tests.append(("the daemon's modules include one another one way",
                  circle is None, " -> ".join(circle or [])))
    sources = [n for n in deps if os.path.exists(os.path.join(DAEMON, n + ".c"))]
    shared = [h for h in deps if os.path.exists(os.path.join(DAEMON, h + ".h"))
              and not os.path.exists(os.path.join(DAEMON, h + ".c"))
              and all(h in deps[s] for s in sources if s != h)]
    tests.append(("no header of the daemon's own is included by every file", not shared,
                  ", ".join(shared)))
    aware = service_aware(deps)
    tests.append(("the parts with state of their own include nothing of the service's",
                  not aware, ", ".join(aware)))
    # The checks can fail: a circle planted in a copy is found, and so is a
    # part made to include the service's core.
    planted = {k: set(v) for k, v in deps.items()}
    planted.setdefault("mg-profile-record", set()).add("mg-service-decide")
    planted.setdefault("mg-service-decide", set()).add("mg-profile-record")
    tests.append(("a planted circle is found", a_circle(planted) is not None, ""))
    planted = {k: set(v) for k, v in deps.items()}
    planted["mg-link-index"].add("mg-service-core")
    tests.append(("a part planted to include the core is found",
                  "mg-link-index" in service_aware(planted), ""))
    print(f"1..{len(tests)}")
    ok = True
    for i, (name, passed, detail) in enumerate(tests, 1):
        print(f"{'ok' if passed else 'not ok'} {i} - {name}")
        if not passed:
            ok = False
            print(f"# {detail}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
