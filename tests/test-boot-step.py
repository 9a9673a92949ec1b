#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""macguised --boot from the command line, without NetworkManager: what
each bad input does (a relative or missing directory, a keyfile that
cannot be read, one libnm refuses) is a clear message and never a crash,
and the good keyfiles beside the bad ones are still served."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402

MACGUISED = os.path.abspath(sys.argv[1])

GOOD = """[connection]
id=good
uuid=6b1f4cbb-8f1d-4a07-9a27-3c6c1d5e0a11
type=ethernet

[ethernet]

[ipv4]
method=auto
"""


def boot_step(d, *args, cwd=None):
    """The boot step with every directory in @d; NetworkManager is absent
    (no system bus)."""
    for sub in ("state", "config", "run", "conf.d", "nm"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    # the warnings for skipped keyfiles are what is tested: not fatal here
    env = dict(os.environ, G_DEBUG="fatal-criticals", STATE_DIRECTORY=os.path.join(d, "state"),
               CONFIGURATION_DIRECTORY=os.path.join(d, "config"),
               RUNTIME_DIRECTORY=os.path.join(d, "run"),
               DBUS_SYSTEM_BUS_ADDRESS="unix:path=/nonexistent/bus")
    return subprocess.run([MACGUISED, "--boot", f"--nm-conf-dir={d}/conf.d",
                           f"--nm-state-dir={d}/nm", *args],
                          capture_output=True, text=True, timeout=120, env=env, cwd=cwd)


def cloned(path):
    with open(path) as f:
        for line in f:
            if line.startswith("cloned-mac-address="):
                return line.split("=", 1)[1].strip()
    return None


@mgtap.test
def a_relative_keyfile_directory_is_read_as_the_path_from_here():
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "keys"))
        with open(os.path.join(d, "keys", "good.nmconnection"), "w") as f:
            f.write(GOOD)
        os.chmod(os.path.join(d, "keys", "good.nmconnection"), 0o600)
        p = boot_step(d, "--keyfile-dir=keys", cwd=d)
        assert p.returncode == 0, (p.returncode, p.stderr)
        assert cloned(os.path.join(d, "keys", "good.nmconnection")) is not None, p.stderr


@mgtap.test
def a_missing_keyfile_directory_is_an_error_naming_it():
    with tempfile.TemporaryDirectory() as d:
        p = boot_step(d, f"--keyfile-dir={d}/nosuch")
        assert p.returncode == 1, (p.returncode, p.stderr)
        assert f"{d}/nosuch" in p.stderr and "macguised --boot:" in p.stderr, p.stderr


@mgtap.test
def bad_keyfiles_are_skipped_by_name_and_the_good_one_is_served():
    with tempfile.TemporaryDirectory() as d:
        keys = os.path.join(d, "keys")
        os.makedirs(keys)
        with open(os.path.join(keys, "good.nmconnection"), "w") as f:
            f.write(GOOD)
        with open(os.path.join(keys, "garbage.nmconnection"), "w") as f:
            f.write("this is [not a keyfile\n\x01")
        with open(os.path.join(keys, "refused.nmconnection"), "w") as f:
            # libnm refuses it: a bad UUID
            f.write("[connection]\nid=refused\nuuid=not-a-uuid\ntype=ethernet\n"
                    "[ethernet]\n")
        os.makedirs(os.path.join(keys, "unreadable.nmconnection"))
        p = boot_step(d, f"--keyfile-dir={keys}")
        assert p.returncode == 0, (p.returncode, p.stderr)
        for name in ("garbage", "refused", "unreadable"):
            assert f"{keys}/{name}.nmconnection: skipped" in p.stderr, (name, p.stderr)
        assert cloned(os.path.join(keys, "good.nmconnection")) is not None, p.stderr


mgtap.run()
