#!/usr/bin/env python3
"""Print candidate catalogue rows for IEEE organisations, for a curator.

Usage: catalogue-candidates.py [--ieee-dir DIR] ORGANISATION...

For each organisation name (matched exactly, as written in Debian's ieee-data),
prints the number of blocks it holds and one `prefix` line per block outside
00-xx-xx, the sequential assignments of the 1980s and 1990s (see the
`era` notes in data/vendors.table).  The output is a starting point for a
hand-curated vendor entry in data/vendors.table, never used by the build.
"""
import argparse
import csv
import os
import sys

FILES = ("oui.csv", "mam.csv", "oui36.csv")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ieee-dir", default="/usr/share/ieee-data")
    ap.add_argument("organisation", nargs="+")
    args = ap.parse_args()
    wanted = set(args.organisation)
    total = 0
    rows = []
    for name in FILES:
        with open(os.path.join(args.ieee_dir, name), encoding="utf-8") as f:
            for r in csv.DictReader(f):
                if r["Organization Name"].strip() in wanted:
                    total += 1
                    a = r["Assignment"].upper()
                    if a[:2] == "00":
                        continue
                    rows.append(a)
    print(f"  weight {total}")
    for a in sorted(rows):
        print(f"  prefix {a}")
    return 0 if total else 1


if __name__ == "__main__":
    sys.exit(main())
