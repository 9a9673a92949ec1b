#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The build-time catalogue check, run as a test: the shipped table is what
the vendored evidence derives and passes against Debian's ieee-data and the
vendored registry snapshot, and each kind of bad row fails it by name."""
import csv
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402

TOOL = sys.argv[1]
SRC = os.environ["MG_SOURCE_ROOT"]
IEEE = os.environ["MG_IEEE_DATA_DIR"]
TABLE = os.path.join(SRC, "data", "vendors.table")
SNAPSHOT = os.path.join(SRC, "data", "evidence", "ieee-registry-20260625.csv")


def run(*args, snapshot=SNAPSHOT):
    return subprocess.run([TOOL, "--ieee-dir", IEEE, "--snapshot", snapshot, *args],
                          capture_output=True, text=True, timeout=60)


def registry_file(path):
    with open(path, encoding="utf-8") as f:
        return {r["Assignment"].upper(): r["Organization Name"].strip()
                for r in csv.DictReader(f)}


def registry(directory):
    blocks = {}
    for name in ("oui.csv", "mam.csv", "oui36.csv"):
        blocks.update(registry_file(os.path.join(directory, name)))
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


def write(text, suffix=".table"):
    f = tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False)
    f.write(text)
    f.close()
    return f.name


@mgtap.test
def shipped_table_passes_and_says_which_registry_vouched():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "checked.table")
        p = run("--output", out, TABLE)
        assert p.returncode == 0, p.stderr
        assert "all registered" in p.stdout, p.stdout
        m = re.search(r"(\d+) by ieee-data .*, (\d+) newer ones by the registry snapshot",
                      p.stdout)
        assert m and int(m.group(1)) > 1000 and int(m.group(2)) > 0, p.stdout
        with open(out, encoding="utf-8") as a, open(TABLE, encoding="utf-8") as b:
            assert a.read() == b.read()


@mgtap.test
def shipped_table_is_what_the_evidence_derives():
    # Every weight and row is reproduced from data/evidence by the tool.
    p = subprocess.run([sys.executable, os.path.join(SRC, "tools", "catalogue-build.py"),
                        "derive"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    with open(TABLE, encoding="utf-8") as f:
        assert p.stdout == f.read(), "data/vendors.table differs from what " \
            "tools/catalogue-build.py derives: run it with -o data/vendors.table"


@mgtap.test
def every_shipped_prefix_belongs_to_its_vendor():
    # Independent of the C tool: re-read the table and both registries here,
    # ieee-data first where it knows the block.
    blocks = registry(IEEE)
    snapshot = registry_file(SNAPSHOT)
    orgs, n, by_snapshot = [], 0, 0
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
                org = blocks.get(words[1])
                if org is None:
                    org = snapshot.get(words[1])
                    by_snapshot += 1
                assert org in orgs, (words[1], org, orgs)
                assert re.fullmatch(r"registered=\d{4}-\d\d-\d\d", words[2]), line
    assert n >= 1000 and 0 < by_snapshot < n, (n, by_snapshot)


@mgtap.test
def every_weight_says_where_it_comes_from():
    weights, mixes, block = [], [], None
    with open(TABLE, encoding="utf-8") as f:
        for line in f:
            if line.startswith(("vendor ", "driver ")):
                block = line.split()[0]
            elif line.startswith("  weight "):
                (weights if block == "vendor" else mixes).append(line.split(None, 3))
    assert weights and mixes
    # A chip family's weights: the survey's counts spread by Linux's id
    # tables, or the chip maker's own cards (Intel's), with the reason.
    for _, vendor, n, source in mixes:
        assert int(n) > 0, (vendor, n)
        assert (source.startswith("survey: ") and "Linux 6.1.192" in source
                or "survey: " in source and "linux-hardware.org" in source
                or "Intel's block" in source), source
    for _, cls, n, source in weights:
        assert cls in ("wifi", "ethernet", "ap") and int(n) > 0, (cls, n)
        assert source.startswith(("survey: ", "long tail: ", "ieee-blocks")), source
        if cls == "ap":
            assert source.strip() == "ieee-blocks", source
        else:
            assert "linux-hardware.org" in source or "ieee-blocks" in source, source


@mgtap.test
def hp_rows_are_the_pc_division_by_registration_address():
    # "Hewlett Packard" also registered its enterprise systems' blocks (at
    # Cupertino); only the Houston (PC) blocks may stand for an HP laptop.
    with open(SNAPSHOT, encoding="utf-8") as f:
        address = {r["Assignment"].upper(): r["Organization Address"] for r in csv.DictReader(f)}
    vendor, hp_rows = None, []
    with open(TABLE, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if words[:1] == ["vendor"]:
                vendor = words[1]
            elif words[:1] == ["prefix"] and vendor == "hp":
                hp_rows.append(words[1])
    assert len(hp_rows) > 50, hp_rows
    assert all("Houston" in address[b] for b in hp_rows), hp_rows


@mgtap.test
def each_bad_row_is_listed_and_the_table_refused():
    blocks = registry(IEEE)
    free6, free_for_mam, free_for_ghost, newer, newer_other = unregistered_blocks(blocks, 5)
    pi_block = next(a for a, o in blocks.items() if o == "Raspberry Pi Trading Ltd")
    intel_block = next(a for a, o in blocks.items() if o == "Intel Corporate" and len(a) == 6)
    snapshot = write("Registry,Assignment,Organization Name,Organization Address\n"
                     f"MA-L,{newer},Intel Corporate,Santa Clara\n"
                     f"MA-L,{newer_other},Somebody Else Ltd,Elsewhere\n",
                     suffix=".csv")
    text = (
        "vendor intel\n"
        "  name Intel\n"
        "  organization Intel Corporate\n"
        "  classes wifi ap\n"
        "  weight wifi 1 survey: cited\n"
        "  weight ap 5 ieee-blocks\n"
        "  products cards\n"
        "  organization Intel Formerly Named Ltd\n"         # line 8: a note only
        f"  prefix {intel_block} registered=2015-01-01\n"   # line 9: good (ieee-data)
        f"  prefix {pi_block} registered=2015-01-01\n"      # line 10: someone else's
        f"  prefix {free6} registered=2015-01-01\n"         # line 11: unregistered
        f"  prefix {free_for_mam}0 registered=2015-01-01\n"  # line 12: not an MA-M block
        f"  prefix {newer} registered=2025-01-01\n"         # line 13: good (snapshot)
        f"  prefix {newer_other} registered=2025-01-01\n"   # line 14: snapshot, not Intel
        "vendor ghost\n"                                    # line 15
        "  name Ghost\n"
        "  organization Nobody Registered This Ltd\n"
        "  classes ethernet\n"
        "  weight ethernet 2 survey: nothing\n"
        "  products none\n"
        f"  prefix {free_for_ghost} registered=2015-01-01\n"
    )
    path = write(text)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "checked.table")
        p = run("--output", out, path, snapshot=snapshot)
        assert p.returncode == 1, (p.returncode, p.stderr)
        err = p.stderr
        assert "line 10: vendor intel" in err and "Raspberry Pi Trading Ltd' (ieee-data)" in err, err
        assert (f"line 11: vendor intel: {free6} is not a registered MA-L block in ieee-data "
                "or the snapshot") in err, err
        assert f"line 12: vendor intel: {free_for_mam}0 is not a registered MA-M block" in err, err
        assert (f"line 14: vendor intel: {newer_other} is registered to 'Somebody Else Ltd' "
                "(the registry snapshot)") in err, err
        assert ("line 15: vendor ghost: none of its organisations holds a block in either "
                "registry") in err, err
        # a name neither registry uses any more is noted, not refused
        assert ("vendor intel: note: neither registry names organisation "
                "'Intel Formerly Named Ltd'") in err, err
        assert "vendor intel: ap weight 5, but it lists 6 blocks" in err, err
        assert "line 9:" not in err and "line 13:" not in err, err
        assert "not accepted" in err, err
        assert not os.path.exists(out), "a refused table must not be written"
    os.unlink(path)
    os.unlink(snapshot)


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
        p = subprocess.run([TOOL, "--ieee-dir", d, "--snapshot", SNAPSHOT, TABLE],
                           capture_output=True, text=True)
        assert p.returncode == 1
        assert "oui.csv" in p.stderr and "ieee-data" in p.stderr, p.stderr
        p = run(TABLE, snapshot=os.path.join(d, "none.csv"))
        assert p.returncode == 1 and "none.csv" in p.stderr, p.stderr
        p = subprocess.run([TOOL, "--ieee-dir", IEEE, TABLE], capture_output=True, text=True)
        assert p.returncode == 2 and "--snapshot" in p.stderr, p.stderr


mgtap.run()
