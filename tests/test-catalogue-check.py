#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The build-time catalogue check, run as a test: the shipped table passes
against Debian's ieee-data, and each kind of bad row fails it by name."""
import csv
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402

TOOL = sys.argv[1]
SRC = os.environ["MG_SOURCE_ROOT"]
IEEE = os.environ["MG_IEEE_DATA_DIR"]
TABLE = os.path.join(SRC, "data", "vendors.table")


def run(*args):
    return subprocess.run([TOOL, "--ieee-dir", IEEE, *args],
                          capture_output=True, text=True, timeout=60)


def registry():
    blocks = {}
    for name in ("oui.csv", "mam.csv", "oui36.csv"):
        with open(os.path.join(IEEE, name), encoding="utf-8") as f:
            for r in csv.DictReader(f):
                blocks[r["Assignment"].upper()] = r["Organization Name"].strip()
    return blocks


def unregistered_blocks(blocks, count):
    """The first @count MA-L-sized blocks nobody holds (globally
    administered and unicast, so only the registry can refuse them)."""
    found = []
    for n in range(0x100000, 1 << 24):
        hexs = f"{n:06X}"
        if int(hexs[:2], 16) & 3 == 0 and hexs not in blocks:
            found.append(hexs)
            if len(found) == count:
                return found
    raise AssertionError("registry is full")


def write(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".table", delete=False)
    f.write(text)
    f.close()
    return f.name


@mgtap.test
def shipped_table_passes_with_exact_weights():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "checked.table")
        p = run("--strict-weights", "--output", out, TABLE)
        assert p.returncode == 0, p.stderr
        assert "all registered" in p.stdout, p.stdout
        with open(out, encoding="utf-8") as a, open(TABLE, encoding="utf-8") as b:
            assert a.read() == b.read()


@mgtap.test
def every_shipped_prefix_belongs_to_its_vendor():
    # Independent of the C tool: re-read the table and the registry here.
    blocks = registry()
    orgs, n = [], 0
    with open(TABLE, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if words[0] == "vendor":
                orgs = []
            elif words[0] == "organization":
                orgs.append(line.split(None, 1)[1].strip())
            elif words[0] == "prefix":
                n += 1
                assert blocks.get(words[1]) in orgs, (words[1], blocks.get(words[1]), orgs)
    assert n >= 300, n


@mgtap.test
def each_bad_row_is_listed_and_the_table_refused():
    blocks = registry()
    free6, free_for_mam, free_for_ghost = unregistered_blocks(blocks, 3)
    pi_block = next(a for a, o in blocks.items() if o == "Raspberry Pi Trading Ltd")
    intel_block = next(a for a, o in blocks.items() if o == "Intel Corporate" and len(a) == 6)
    text = (
        "vendor intel\n"
        "  name Intel\n"
        "  organization Intel Corporate\n"
        "  classes wifi\n"
        "  weight 1 ieee-blocks\n"
        "  products cards\n"
        f"  prefix {intel_block}\n"             # line 7: good
        f"  prefix {pi_block}\n"                # line 8: someone else's
        f"  prefix {free6}\n"                   # line 9: unregistered
        f"  prefix {free_for_mam}0\n"           # line 10: not an MA-M block
        "vendor ghost\n"                        # line 11
        "  name Ghost\n"
        "  organization Nobody Registered This Ltd\n"
        "  classes ethernet\n"
        "  weight 2 cited: nothing\n"
        "  products none\n"
        f"  prefix {free_for_ghost}\n"
    )
    path = write(text)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "checked.table")
        p = run("--strict-weights", "--output", out, path)
        assert p.returncode == 1, (p.returncode, p.stderr)
        err = p.stderr
        assert "line 8: vendor intel" in err and "Raspberry Pi Trading Ltd" in err, err
        assert f"line 9: vendor intel: {free6} is not a registered MA-L block" in err, err
        assert f"line 10: vendor intel: {free_for_mam}0 is not a registered MA-M block" in err, err
        assert "line 11: vendor ghost: organisation 'Nobody Registered This Ltd'" in err, err
        assert "error: vendor intel: weight 1, but its organisations hold" in err, err
        assert "line 7:" not in err, err
        assert "not accepted" in err, err
        assert not os.path.exists(out), "a refused table must not be written"
    os.unlink(path)


@mgtap.test
def weight_mismatch_warns_without_strict():
    blocks = registry()
    intel_block = next(a for a, o in blocks.items() if o == "Intel Corporate" and len(a) == 6)
    path = write("vendor intel\n  name Intel\n  organization Intel Corporate\n"
                 "  classes wifi\n  weight 1 ieee-blocks\n  products cards\n"
                 f"  prefix {intel_block}\n")
    p = run(path)
    assert p.returncode == 0, p.stderr
    assert "warning: vendor intel: weight 1" in p.stderr, p.stderr
    os.unlink(path)


@mgtap.test
def malformed_table_names_the_line():
    path = write("vendor intel\n  name Intel\n  colour blue\n")
    p = run(path)
    assert p.returncode == 1
    assert "line 3: unknown keyword 'colour'" in p.stderr, p.stderr
    os.unlink(path)


@mgtap.test
def missing_registry_is_a_clear_error():
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([TOOL, "--ieee-dir", d, TABLE], capture_output=True, text=True)
        assert p.returncode == 1
        assert "oui.csv" in p.stderr and "ieee-data" in p.stderr, p.stderr


mgtap.run()
