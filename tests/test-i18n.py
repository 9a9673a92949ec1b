#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every translation is complete against the messages the sources have now,
and the CLI speaks German under LANGUAGE=de with the .mo where it is
installed (a private mount namespace puts the built one there)."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402

CLI, BUILT_PO, LOCALEDIR = sys.argv[1], sys.argv[2], sys.argv[3]
SRC = os.environ["MG_SOURCE_ROOT"]
KEYWORDS = ["--keyword=_", "--keyword=N_", "--keyword=C_:1c,2", "--keyword=NC_:1c,2",
            "--keyword=g_dngettext:2,3"]


def linguas():
    with open(os.path.join(SRC, "po", "LINGUAS")) as f:
        return [w for line in f for w in line.split() if not line.startswith("#")]


@mgtap.test
def every_translation_is_complete_and_valid():
    assert "de" in linguas()
    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, "fresh.pot")
        subprocess.run(["xgettext", "--from-code=UTF-8", "--language=C", *KEYWORDS,
                        "--files-from=po/POTFILES", "-o", pot], cwd=SRC, check=True)
        for lang in linguas():
            po = os.path.join(SRC, "po", lang + ".po")
            stats = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", po],
                                   capture_output=True, text=True)
            assert stats.returncode == 0, stats.stderr
            assert "fuzzy" not in stats.stderr and "untranslated" not in stats.stderr, stats.stderr
            # every message of the sources as they are now has a translation
            cmp = subprocess.run(["msgcmp", po, pot], capture_output=True, text=True)
            assert cmp.returncode == 0, f"{lang}: {cmp.stderr[:2000]}"


def locale_env(lang):
    """A German user's locale where the machine has it (Debian 13's C
    library ignores LANGUAGE under C.UTF-8), else LANGUAGE under C.UTF-8,
    which Debian 12's honours."""
    have = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout.split()
    for name in (f"{lang}_DE.utf8", f"{lang}_DE.UTF-8"):
        if name in have:
            return dict(os.environ, LC_ALL=f"{lang}_DE.UTF-8", LANGUAGE=lang)
    return dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE=lang)


def run_in(lang, *args):
    """The CLI with the built catalogue at LOCALEDIR, seen only by it."""
    with tempfile.TemporaryDirectory() as tmp:
        top = LOCALEDIR
        while not os.path.isdir(top):
            top = os.path.dirname(top)
        target = os.path.join(tmp, os.path.relpath(LOCALEDIR, top), lang, "LC_MESSAGES")
        os.makedirs(target)
        shutil.copy(os.path.join(BUILT_PO, lang, "LC_MESSAGES", "macguise.mo"), target)
        script = 'mount --bind "$1" "$2" && shift 2 && exec "$@"'
        return subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script,
                               "sh", tmp, top, CLI, *args],
                              env=locale_env(lang),
                              capture_output=True, text=True, timeout=30)


@mgtap.test
def the_cli_speaks_german_under_LANGUAGE():
    p = run_in("de", "--help")
    assert p.returncode == 0 and "Aufruf: macguise BEFEHL" in p.stdout, p.stdout + p.stderr
    assert "Die macguise-Einstellungen eines Profils zeigen oder setzen" in p.stdout, p.stdout
    p = run_in("de", "lookup", "zz")
    assert p.returncode == 1 and "»zz« ist keine MAC-Adresse" in p.stderr, p.stderr
    p = run_in("de", "policy")
    assert p.returncode == 2 and "kein Profil angegeben" in p.stderr, p.stderr
    p = run_in("de", "generate", "--help")
    assert "Geräteklasse: wifi (Vorgabe), ethernet oder ap" in p.stdout, p.stdout
    # and English without LANGUAGE
    p = subprocess.run([CLI, "--help"], env=dict(os.environ, LC_ALL="C.UTF-8"),
                       capture_output=True, text=True)
    assert "Usage: macguise COMMAND" in p.stdout


mgtap.run()
