#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""po/POTFILES lists exactly the source files with translatable strings, so
no user-facing message is left out of the translation template."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402

SRC = os.environ["MG_SOURCE_ROOT"]
MARK = re.compile(r'\b(N?_|C_|NC_|g_dngettext|ngettext)\s*\(\s*"')
SOURCE_DIRS = ("core", "cli", "daemon", "nm", "dispatcher", "link")


def listed():
    with open(os.path.join(SRC, "po", "POTFILES"), encoding="utf-8") as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def marked():
    found = set()
    for d in SOURCE_DIRS:
        for root, _, files in os.walk(os.path.join(SRC, d)):
            for name in files:
                if name.endswith((".c", ".h")):
                    path = os.path.join(root, name)
                    with open(path, encoding="utf-8") as f:
                        if MARK.search(f.read()):
                            found.add(os.path.relpath(path, SRC))
    return found


@mgtap.test
def every_file_with_messages_is_listed():
    missing = marked() - listed()
    assert not missing, f"add to po/POTFILES: {sorted(missing)}"


@mgtap.test
def every_listed_file_exists_and_has_messages():
    stale = listed() - marked()
    assert not stale, f"remove from po/POTFILES (gone or no messages): {sorted(stale)}"


mgtap.run()
