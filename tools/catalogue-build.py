#!/usr/bin/env python3
"""Build macguise's vendor table from the evidence in data/evidence/.

Usage:
  catalogue-build.py derive [--data DIR] [-o FILE]
      Derive data/vendors.table from data/catalogue.sources and the vendored
      figures: weights from the linux-hardware.org survey, blocks from the
      registry snapshot, registration dates from mac-ages.  Prints the table
      (or writes FILE).  The build embeds the committed table; a test checks
      it is exactly what this prints.
  catalogue-build.py extract --ieee-dir DIR --mac-ages FILE [--data DIR]
      For a curator: cut the registry snapshot and the block dates down to the
      organisations data/catalogue.sources names, and write them into
      data/evidence/.  DIR is an ieee-data directory (oui.csv, mam.csv,
      oui36.csv); FILE is mac-ages.csv.  Not run by the build.
  catalogue-build.py extract-chips --btusb FILE --modules DIR [--data DIR]
      For a curator: the Bluetooth USB ids of combo cards by chip section
      (FILE is a kernel's drivers/bluetooth/btusb.c) and the USB ids the
      Ethernet adapter drivers bind (DIR holds the kernel's modules: their
      modinfo aliases), written into data/evidence/.  Not run by the build.
"""
import argparse
import csv
import io
import os
import re
import sys
from collections import defaultdict

REGISTRY_FILE = "ieee-registry-20260625.csv"
REGISTRY_NAME = "the IEEE registry as Debian's ieee-data 20260625 ships it"
REGISTRY_DATE = "2026-06-25"
AGES_FILE = "block-ages.csv"
SURVEY_FILE = "linuxhw-trends-2023-06.csv"
SURVEY_NAME = "linux-hardware.org, June 2023"
BTUSB_FILE = "btusb-combo-ids-6.1.192.csv"
BTUSB_NAME = "Linux 6.1.192's btusb id table (Debian 12's linux-source-6.1 6.1.192-3)"
USB_DRIVER_FILE = "usb-ethernet-ids-6.1.192.csv"
USB_DRIVER_NAME = "Linux 6.1.192's module aliases (Debian 12's linux-image-6.1.0-57-amd64)"
USB_ETHERNET_DRIVERS = ("r8152", "ax88179_178a", "asix", "cdc_ether", "cdc_ncm")
SCALE = 100000  # weights are draws per 100,000 of the class
BITS = {"MA-L": 24, "MA-M": 28, "MA-S": 36}


def fail(msg):
    sys.exit(f"catalogue-build: {msg}")


# The sources file -----------------------------------------------------------

def split_why(rest):
    head, sep, why = rest.partition(" why=")
    return head.strip(), (why.strip() if sep else None)


def names(text):
    return [n.strip() for n in text.split("|") if n.strip()]


def read_sources(path):
    rules = defaultdict(list)  # directive -> [(names, why)]
    vendors = []
    v = None
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, _, rest = line.strip().partition(" ")
            if not line.startswith(" "):
                if key == "vendor":
                    v = {"id": rest, "orgs": [], "maps": [], "include": {},
                         "exclude": {}, "address": None, "line": lineno, "usb_ids": []}
                    vendors.append(v)
                    continue
                if key == "driver":
                    v = {"driver": rest, "match": [], "combo": [], "own": None,
                         "usb": False, "boards": False, "left_out": {}, "line": lineno}
                    rules["driver-mixes"].append(v)
                    continue
                head, why = split_why(rest)
                rules[key].append((names(head), why))
                continue
            if v is None:
                fail(f"{path}:{lineno}: indented line before the first vendor")
            if "driver" in v:
                read_driver_line(v, key, rest, f"{path}:{lineno}")
                continue
            if key == "organization":
                v["orgs"].append(rest)
            elif key in ("name", "products"):
                v[key] = rest
            elif key == "address":
                v["address"] = rest
            elif key in ("include", "exclude"):
                block, why = split_why(rest)
                if not why:
                    fail(f"{path}:{lineno}: {key} needs why=")
                v[key][block.upper()] = why
            elif key == "usb-id":
                v["usb_ids"] += rest.lower().split("|")
            elif key in ("wifi", "ethernet", "ap"):
                kind, _, arg = rest.partition(" ")
                v["maps"].append((key, kind, names(arg)))
            else:
                fail(f"{path}:{lineno}: unknown keyword '{key}'")
    return rules, vendors


def read_driver_line(d, key, rest, where):
    if key in ("class", "products"):
        d[key] = rest
    elif key == "own":
        d["own"], d["own_why"] = split_why(rest)
        if not d["own_why"]:
            fail(f"{where}: own needs why=")
    elif key == "match":
        d["match"] = rest.split()
    elif key == "combo":
        d["combo"] += names(rest)
    elif key in ("usb-adapters", "boards"):
        d["usb" if key == "usb-adapters" else "boards"] = True
    elif key == "left-out":
        vid, why = split_why(rest)
        if not why:
            fail(f"{where}: left-out needs why=")
        d["left_out"][vid] = why
    else:
        fail(f"{where}: unknown driver keyword '{key}'")


def rule_names(rules, key):
    return {n for ns, _ in rules.get(key, []) for n in ns}


# The evidence -----------------------------------------------------------------

def read_commented_csv(path):
    with open(path, encoding="utf-8") as f:
        text = "".join(line for line in f if not line.startswith("#"))
    return list(csv.DictReader(io.StringIO(text)))


def read_survey(path):
    survey = defaultdict(int)  # (form, table, name) -> computers
    for r in read_commented_csv(path):
        survey[(r["form"], r["table"], r["name"])] += int(r["computers"])
    return survey


def survey_sum(survey, table, wanted=None, form=None):
    return sum(n for (f, t, name), n in survey.items()
               if t == table and (form is None or f == form)
               and (wanted is None or name in wanted))


def read_registry(path):
    rows = []
    with open(path, encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f):
            rows.append({"registry": r["Registry"], "block": r["Assignment"].upper(),
                         "org": r["Organization Name"].strip(),
                         "address": r["Organization Address"]})
    return rows


def age_key(block, registry):
    bits = BITS[registry]
    return block.lower().ljust(12, "0") + f"/{bits}"


def read_ages(path):
    return {r["block"]: (r["first_seen"], r["source"]) for r in read_commented_csv(path)}


# Weights --------------------------------------------------------------------

class Weights:
    """Shares of one class before scaling, each with its derivation."""

    def __init__(self):
        self.raw = {}
        self.why = {}

    def add(self, vid, amount, why):
        self.raw[vid] = self.raw.get(vid, 0.0) + amount
        self.why[vid] = self.why[vid] + "; " + why if vid in self.why else why

    def scaled(self):
        total = sum(self.raw.values())
        return {vid: max(1, round(SCALE * x / total)) for vid, x in self.raw.items()}


def fmt(x):
    return f"{x:.1f}".rstrip("0").rstrip(".")


def wifi_weights(rules, vendors, survey, tail_blocks):
    w = Weights()
    made = rule_names(rules, "wifi-module-made")
    left_out = rule_names(rules, "wifi-left-out")
    unnamed = rule_names(rules, "module-unnamed") | rule_names(rules, "module-left-out")
    module_made = survey_sum(survey, "wireless-vendor", made)
    claimed = set(made) | left_out
    modules = {}
    for v in vendors:
        for cls, kind, ns in v["maps"]:
            if cls != "wifi":
                continue
            if kind == "chip":
                n = survey_sum(survey, "wireless-vendor", set(ns))
                claimed |= set(ns)
                w.add(v["id"], n, f"survey: {n} Wi-Fi adapters sold under its own name "
                      f"({', '.join(ns)}; {SURVEY_NAME}, notebooks and desktops)")
            elif kind == "module":
                modules[v["id"]] = (ns, survey_sum(survey, "bluetooth-vendor", set(ns)))
    named = {n for ns, _ in modules.values() for n in ns}
    bt_other = sum(n for (f, t, name), n in survey.items()
                   if t == "bluetooth-vendor" and name not in named and name not in unnamed)
    bt_base = sum(n for _, n in modules.values()) + bt_other
    for vid, (ns, n) in modules.items():
        w.add(vid, module_made * n / bt_base,
              f"survey: {module_made} module-built Wi-Fi cards x {n} of {bt_base} combo "
              f"cards whose Bluetooth part names the module maker ({', '.join(ns)}; "
              f"{SURVEY_NAME})")
    rest = survey_sum(survey, "wireless-vendor") - survey_sum(survey, "wireless-vendor", claimed)
    tail = rest + module_made * bt_other / bt_base
    spread_tail(w, vendors, "wifi", tail, tail_blocks,
                f"{fmt(tail)} Wi-Fi adapters of makers not listed ({rest} under other names, "
                f"{fmt(module_made * bt_other / bt_base)} modules of other makers)")
    return w


def ethernet_weights(rules, vendors, survey, tail_blocks):
    w = Weights()
    left_out = rule_names(rules, "ethernet-left-out")
    board_left_out = rule_names(rules, "board-left-out")
    usb = {}
    for v in vendors:
        for cls, kind, ns in v["maps"]:
            if cls == "ethernet" and kind in ("usb-vendor", "usb-model"):
                table = "ethernet-vendor" if kind == "usb-vendor" else "ethernet-model"
                usb[v["id"]] = (table, set(ns))
    boards = {v["id"]: set(ns) for v in vendors for cls, kind, ns in v["maps"]
              if cls == "ethernet" and kind == "board"}
    mapped_boards = set().union(*boards.values())
    tail = 0.0
    tail_why = []
    for form in ("notebook", "desktop"):
        computers = survey_sum(survey, "computers", form=form)
        usb_n = {vid: survey_sum(survey, t, ns, form) for vid, (t, ns) in usb.items()}
        onboard = (survey_sum(survey, "ethernet-vendor", form=form)
                   - survey_sum(survey, "ethernet-vendor", left_out, form) - sum(usb_n.values()))
        for vid, n in usb_n.items():
            w.add(vid, n, f"survey: {n} USB adapters on {form}s ({SURVEY_NAME})")
        for vid, ns in boards.items():
            n = survey_sum(survey, "board-vendor", ns, form)
            if n:
                w.add(vid, onboard * n / computers,
                      f"survey: {onboard} on-board Ethernet ports of {form}s x {n} of "
                      f"{computers} {form}s by {', '.join(sorted(ns))} ({SURVEY_NAME})")
        other = (computers - survey_sum(survey, "board-vendor", mapped_boards | board_left_out,
                                        form))
        tail += onboard * other / computers
        tail_why.append(f"{onboard} x {other} of {computers} {form}s")
    spread_tail(w, vendors, "ethernet", tail, tail_blocks,
                f"{fmt(tail)} on-board ports of boards by makers not listed "
                f"({' + '.join(tail_why)})")
    return w


def spread_tail(w, vendors, cls, tail, tail_blocks, what):
    members = [v["id"] for v in vendors if (cls, "tail", []) in v["maps"]]
    total = sum(tail_blocks[vid] for vid in members)
    for vid in members:
        w.add(vid, tail * tail_blocks[vid] / total,
              f"long tail: {what} x {tail_blocks[vid]} of {total} blocks held by the "
              f"tail makers (ieee-blocks)")


# Per-driver mixes -------------------------------------------------------------

def usb_vendor_map(vendors, cls):
    """USB vendor id -> catalogue vendor id, for the vendors of a class."""
    return {u: v["id"] for v in vendors for u in v["usb_ids"]
            if any(m[0] == cls for m in v["maps"])}


def combo_weights(d, rules, vendors, survey, combo_rows, all_sections):
    """Module makers of a chip family: each maker's combo cards in the survey
    (its Bluetooth rows; a brand's own Wi-Fi rows) spread over the chip
    families whose Bluetooth ids it holds in btusb, in proportion to them."""
    w, notes = Weights(), []
    umap = usb_vendor_map(vendors, "wifi")
    unnamed = rule_names(rules, "module-unnamed")
    held = defaultdict(lambda: defaultdict(int))  # vendor -> section -> ids
    for section, usb, _ in combo_rows:
        if section in all_sections and usb in umap:
            held[umap[usb]][section] += 1
    mine = set(d["combo"])
    chip_own = sum(1 for s, u, _ in combo_rows if s in mine and u in CHIP_USB_IDS)
    other = sorted({u for s, u, _ in combo_rows
                    if s in mine and u not in umap and u not in CHIP_USB_IDS})
    for v in vendors:
        n = sum(held[v["id"]][s] for s in mine)
        if not n or v["id"] in d["left_out"]:
            continue
        table, ns = None, []
        for cls, kind, vs in v["maps"]:
            if cls == "wifi" and kind in ("module", "chip"):
                table = "bluetooth-vendor" if kind == "module" else "wireless-vendor"
                ns = vs
        units = survey_sum(survey, table, set(ns)) if table else 0
        total = sum(held[v["id"]].values())
        if not units:
            notes.append(f"{v['id']} holds {ids_text(n)} but the survey counts none of its cards")
            continue
        w.add(v["id"], units * n / total,
              f"survey: {units} combo cards ({', '.join(ns)}; {SURVEY_NAME}) x {n} of its "
              f"{total} Bluetooth ids of Wi-Fi chips in {BTUSB_NAME} that are this family's")
    if chip_own:
        notes.append(f"{ids_text(chip_own)} of the chip maker's own USB vendor left out "
                     f"(they do not name the module maker)")
    if other:
        notes.append(f"ids of USB vendors not in the catalogue's Wi-Fi makers left out "
                     f"({' '.join(other)})")
    for vid, why in d["left_out"].items():
        notes.append(f"{vid} left out: {why}")
    return w, notes


def usb_ethernet_weights(d, vendors, survey, usb_ids, mixed_drivers):
    """USB Ethernet adapters: each maker's adapters in the survey, spread over
    the drivers whose tables hold its USB ids, in proportion to them."""
    w, notes = Weights(), []
    umap = usb_vendor_map(vendors, "ethernet")
    drv = d["match"][0]
    for v in vendors:
        mine = [r for r in usb_ids if r[0] == drv and umap.get(r[1]) == v["id"]]
        if not mine or v["id"] in d["left_out"]:
            continue
        total = sum(1 for r in usb_ids if r[0] in mixed_drivers and umap.get(r[1]) == v["id"])
        units, what = 0, []
        for cls, kind, ns in v["maps"]:
            if cls == "ethernet" and kind in ("usb-vendor", "usb-model", "adapters"):
                table = "ethernet-model" if kind == "usb-model" else "ethernet-vendor"
                units += survey_sum(survey, table, set(ns))
                what += ns
        if not units:
            notes.append(f"{v['id']} holds {ids_text(len(mine))} but the survey counts none of "
                         f"its adapters")
            continue
        w.add(v["id"], units * len(mine) / total,
              f"survey: {units} USB adapters ({', '.join(what)}; {SURVEY_NAME}) x "
              f"{len(mine)} of its {total} ids in the tables of "
              f"{', '.join(sorted(mixed_drivers))} ({USB_DRIVER_NAME})")
    other = sorted({r[1] for r in usb_ids if r[0] == drv and r[1] not in umap})
    if other:
        notes.append(f"ids of USB vendors not among the catalogue's Ethernet makers left out "
                     f"({' '.join(other)})")
    for vid, why in d["left_out"].items():
        notes.append(f"{vid} left out: {why}")
    return w, notes


def board_weights(d, vendors, survey):
    """On-board Ethernet: the board makers' shares, as in the class mix, less
    the makers the driver's chips are not on."""
    w, notes = Weights(), []
    for form in ("notebook", "desktop"):
        computers = survey_sum(survey, "computers", form=form)
        for v in vendors:
            for cls, kind, ns in v["maps"]:
                if cls != "ethernet" or kind != "board" or v["id"] in d["left_out"]:
                    continue
                n = survey_sum(survey, "board-vendor", set(ns), form)
                if n:
                    w.add(v["id"], n / computers,
                          f"survey: {n} of {computers} {form}s by {', '.join(sorted(ns))} "
                          f"({SURVEY_NAME})")
    for vid, why in d["left_out"].items():
        notes.append(f"{vid} left out: {why}")
    return w, notes


def ids_text(n):
    return f"{n} id" if n == 1 else f"{n} ids"


CHIP_USB_IDS = {"0bda", "0cf3", "0e8d", "0a5c", "8087", "14e4"}


def driver_mixes(rules, vendors, survey, combo_rows, usb_ids):
    mixes = rules.get("driver-mixes", [])
    all_sections = {s for d in mixes for s in d["combo"]}
    known = {r[0] for r in combo_rows}
    usb_drivers = {d["match"][0] for d in mixes if d["usb"]}
    out = []
    for d in mixes:
        for s in d["combo"]:
            if s not in known:
                fail(f"driver {d['driver']}: no btusb section '{s}'")
        if d["own"]:
            w, notes = Weights(), []
            w.add(d["own"], 1.0, d["own_why"] if "own_why" in d else "the chip maker's own")
        elif d["combo"]:
            w, notes = combo_weights(d, rules, vendors, survey, combo_rows, all_sections)
        elif d["usb"]:
            w, notes = usb_ethernet_weights(d, vendors, survey, usb_ids, usb_drivers)
        elif d["boards"]:
            w, notes = board_weights(d, vendors, survey)
        else:
            fail(f"driver {d['driver']}: no evidence keyword (own, combo, usb-adapters, boards)")
        if not w.raw:
            fail(f"driver {d['driver']}: the evidence names no maker")
        out.append((d, w, notes))
    return out


def driver_lines(mixes):
    out = []
    for d, w, notes in mixes:
        scaled = w.scaled()
        out.append(f"driver {d['driver']}")
        out.append(f"  class {d['class']}")
        out.append(f"  match {' '.join(d['match'])}")
        out.append(f"  products {d['products']}")
        for vid in sorted(scaled, key=lambda k: (-scaled[k], k)):
            out.append(f"  weight {vid} {scaled[vid]} {w.why[vid]}")
        out += [f"  note {n}" for n in notes]
        out.append("")
    return out


# Blocks ---------------------------------------------------------------------

def vendor_blocks(v, registry, ages):
    # An organisation may hold nothing in the snapshot: the registry renames
    # organisations, and the older spelling stays for Debian's older ieee-data.
    orgs = set(v["orgs"])
    if not any(r["org"] in orgs for r in registry):
        fail(f"vendor {v['id']}: no organisation of it holds a block in the snapshot")
    blocks = []
    for r in registry:
        if r["org"] not in orgs or r["registry"] != "MA-L":
            continue
        if v["address"] and v["address"] not in r["address"]:
            continue
        b = r["block"]
        if b in v["exclude"] or (b.startswith("00") and b not in v["include"]):
            continue
        date, _ = ages.get(age_key(b, r["registry"]), (REGISTRY_DATE, None))
        blocks.append((b, date, v["include"].get(b)))
    for b in list(v["include"]) + list(v["exclude"]):
        if b not in {r["block"] for r in registry if r["org"] in orgs}:
            fail(f"vendor {v['id']}: {b} is not one of its blocks")
    return sorted(blocks)


def derive(data):
    ev = os.path.join(data, "evidence")
    rules, vendors = read_sources(os.path.join(data, "catalogue.sources"))
    survey = read_survey(os.path.join(ev, SURVEY_FILE))
    registry = read_registry(os.path.join(ev, REGISTRY_FILE))
    ages = read_ages(os.path.join(ev, AGES_FILE))
    blocks = {v["id"]: vendor_blocks(v, registry, ages) for v in vendors}
    counts = {vid: len(b) for vid, b in blocks.items()}
    derived = {"wifi": wifi_weights(rules, vendors, survey, counts),
               "ethernet": ethernet_weights(rules, vendors, survey, counts)}
    weights = {cls: w.scaled() for cls, w in derived.items()}
    why = {cls: w.why for cls, w in derived.items()}
    out = [HEADER]
    for v in vendors:
        classes = [c for c in ("wifi", "ethernet", "ap") if any(m[0] == c for m in v["maps"])]
        out.append(f"vendor {v['id']}")
        out.append(f"  name {v['name']}")
        out += [f"  organization {o}" for o in v["orgs"]]
        out.append(f"  classes {' '.join(classes)}")
        for c in classes:
            if c == "ap":
                out.append(f"  weight ap {counts[v['id']]} ieee-blocks")
            else:
                out.append(f"  weight {c} {weights[c][v['id']]} {why[c][v['id']]}")
        out.append(f"  products {v['products']}")
        for b, date, include_why in blocks[v["id"]]:
            tail = f" era=current why={include_why}" if include_why else ""
            out.append(f"  prefix {b} registered={date}{tail}")
        out.append("")
    combo_rows = [(r["section"], r["usb_vendor"], r["usb_product"])
                  for r in read_commented_csv(os.path.join(ev, BTUSB_FILE))]
    usb_ids = [(r["driver"], r["usb_vendor"], r["usb_product"])
               for r in read_commented_csv(os.path.join(ev, USB_DRIVER_FILE))]
    out += driver_lines(driver_mixes(rules, vendors, survey, combo_rows, usb_ids))
    return "\n".join(out)


HEADER = f"""# macguise vendor catalogue
#
# GENERATED by tools/catalogue-build.py from data/catalogue.sources and the
# figures in data/evidence/; edit those, then run
#   tools/catalogue-build.py derive -o data/vendors.table
# The build checks every row against the IEEE registry (Debian's ieee-data
# where it knows the block, else the vendored snapshot) and embeds the table
# as a GResource; nothing is read from disk at run time.
#
# Format: one `vendor ID` block per maker, followed by indented lines.
#   name TEXT             what people call the maker
#   organization TEXT     an organisation name exactly as the IEEE registry
#                         spells it; one line per spelling
#   classes CLASS...      wifi (a Wi-Fi client), ethernet, ap (a Wi-Fi access
#                         point: the hotspot's BSSID)
#   weight CLASS N SOURCE the vendor's share of the class's draws, N per
#                         {SCALE:,}, and its derivation.  "ieee-blocks": N is
#                         the number of blocks the organisations hold (access
#                         points, which no survey covers).
#   products TEXT         what carries these addresses, and why the maker is here
#   prefix BLOCK registered=DATE [era=current|legacy] [classes=C,C]
#          [serial=LO-HI] [why=TEXT]
#                         a registered block (6, 7 or 9 hex digits) and the
#                         first date it was seen registered (runZero's
#                         mac-ages; {REGISTRY_DATE} for blocks newer than its
#                         last update).  A block is drawn in proportion to its
#                         size within its vendor, not before it is two years
#                         old, and Wi-Fi blocks over ten years old at a quarter
#                         of that.  why= runs to the end of the line.
#
# After the vendors, one `driver ID` block per chip family (data/catalogue.sources
# says how each is derived):
#   class CLASS           wifi or ethernet
#   match GLOB...         the driver names NetworkManager reports (GENERAL.DRIVER)
#   products TEXT         the chips and cards
#   weight VENDOR N SOURCE  a vendor's share of the family's draws, N per
#                         {SCALE:,}, and its derivation
#   note TEXT             evidence left out, and why
"""


# Extraction -----------------------------------------------------------------

def extract(args):
    _, vendors = read_sources(os.path.join(args.data, "catalogue.sources"))
    orgs = {o for v in vendors for o in v["orgs"]}
    ev = os.path.join(args.data, "evidence")
    kept = []
    header = None
    for name in ("oui.csv", "mam.csv", "oui36.csv"):
        with open(os.path.join(args.ieee_dir, name), encoding="utf-8", newline="") as f:
            reader = csv.reader(f)
            header = next(reader)
            kept += [r for r in reader if r[2].strip() in orgs]
    kept.sort(key=lambda r: (r[0], r[1].upper()))
    with open(os.path.join(ev, REGISTRY_FILE), "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(kept)
    wanted = {age_key(r[1].upper(), r[0]) for r in kept}
    ages = {}
    with open(args.mac_ages, encoding="utf-8") as f:
        for line in f:
            block, date, source = line.strip().split(",")
            if block in wanted:
                ages[block] = (date, source)
    with open(os.path.join(ev, AGES_FILE), "w", encoding="utf-8") as f:
        f.write("# First date each block was seen registered, for the blocks of the\n"
                "# organisations in data/catalogue.sources.  From runZero's mac-ages\n"
                "# (https://github.com/hdm/mac-ages, data/mac-ages.csv, last updated\n"
                "# 2025-06-20), CC BY 4.0, (c) HD Moore / runZero; cut down by\n"
                "# tools/catalogue-build.py extract.  source: where mac-ages first saw the\n"
                "# block (an IEEE file, or the deepmac.org and wireshark.org lists for\n"
                "# blocks older than its IEEE history).\n")
        f.write("block,first_seen,source\n")
        for block in sorted(ages):
            f.write(f"{block},{ages[block][0]},{ages[block][1]}\n")
    print(f"{len(kept)} registry rows, {len(ages)} dated; "
          f"{len(wanted) - len(ages)} newer than mac-ages", file=sys.stderr)


def btusb_rows(path):
    """(section comment, vendor, product or "any") of every row of btusb.c's
    btusb_table and blacklist_table (its quirks), in the order they list them."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    rows = []
    for name in ("btusb_table", "blacklist_table"):
        start = src.index(f"static const struct usb_device_id {name}[]")
        rows += btusb_table_rows(src[start:src.index("\n};", start)])
    return rows


def btusb_table_rows(table):
    rows, section = [], None
    for m in re.finditer(r"/\*\s*(.*?)\s*\*/|USB_DEVICE\(0x([0-9a-fA-F]{4}),\s*0x([0-9a-fA-F]{4})\)"
                         r"|USB_VENDOR_AND_INTERFACE_INFO\(0x([0-9a-fA-F]{4}),", table, re.S):
        if m.group(1) is not None:
            section = " ".join(m.group(1).split()).replace(",", ";")
        elif section is not None and m.group(2) is not None:
            rows.append((section, m.group(2).lower(), m.group(3).lower()))
        elif section is not None:
            rows.append((section, m.group(4).lower(), "any"))
    return rows


def module_usb_ids(modules, names):
    """(module, vendor, product) from each module's modinfo usb aliases."""
    out = set()
    for root, _, files in os.walk(modules):
        for fn in files:
            mod = fn.split(".ko")[0]
            if not fn.endswith(".ko") or mod not in names:
                continue
            with open(os.path.join(root, fn), "rb") as f:
                data = f.read()
            for m in re.finditer(rb"alias=usb:v([0-9A-F]{4})p([0-9A-F]{4})", data):
                out.add((mod, m.group(1).decode().lower(), m.group(2).decode().lower()))
    return sorted(out)


def extract_chips(args):
    ev = os.path.join(args.data, "evidence")
    rows = btusb_rows(args.btusb)
    with open(os.path.join(ev, BTUSB_FILE), "w", encoding="utf-8") as f:
        f.write("# The Bluetooth halves of Wi-Fi/Bluetooth combo cards that Linux knows by\n"
                "# USB id, by the section of btusb.c's two id tables that lists them (the\n"
                "# section names the chip).  From drivers/bluetooth/btusb.c of Linux\n"
                "# 6.1.192 (Debian 12's linux-source-6.1 6.1.192-3), GPL-2.0; the ids are\n"
                "# facts, cut out by tools/catalogue-build.py extract-chips.\n")
        f.write("section,usb_vendor,usb_product\n")
        for r in rows:
            f.write(",".join(r) + "\n")
    ids = module_usb_ids(args.modules, USB_ETHERNET_DRIVERS)
    with open(os.path.join(ev, USB_DRIVER_FILE), "w", encoding="utf-8") as f:
        f.write("# The USB ids the USB Ethernet drivers bind, from the modinfo aliases of\n"
                "# Linux 6.1.192's modules (Debian 12's linux-image-6.1.0-57-amd64\n"
                "# 6.1.192-3), GPL-2.0; the ids are facts, cut out by\n"
                "# tools/catalogue-build.py extract-chips.\n")
        f.write("driver,usb_vendor,usb_product\n")
        for r in ids:
            f.write(",".join(r) + "\n")
    print(f"{len(rows)} btusb rows, {len(ids)} USB Ethernet ids", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--data", default=os.path.join(here, "..", "data"))
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("derive")
    d.add_argument("-o", "--output")
    e = sub.add_parser("extract")
    e.add_argument("--ieee-dir", required=True)
    e.add_argument("--mac-ages", required=True)
    c = sub.add_parser("extract-chips")
    c.add_argument("--btusb", required=True)
    c.add_argument("--modules", required=True)
    args = ap.parse_args()
    if args.command == "extract":
        extract(args)
        return 0
    if args.command == "extract-chips":
        extract_chips(args)
        return 0
    text = derive(args.data)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
