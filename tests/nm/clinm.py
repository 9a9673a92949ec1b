# SPDX-License-Identifier: GPL-3.0-or-later
"""What the tests of the `macguise` command share: a real NetworkManager in
network namespaces (nmnetns.py) whose macguise state and configuration
are the test's, and the command run in it, as root or as another user."""
import json
import os
import subprocess

from nmnetns import NmNetns


class CliNm:
    def __init__(self, cli):
        self.exe = cli
        self.nm = NmNetns().start()
        for d in ("state", "config"):
            os.makedirs(os.path.join(self.nm.dir, d), exist_ok=True)
        self.nm.env["STATE_DIRECTORY"] = os.path.join(self.nm.dir, "state")
        self.nm.env["CONFIGURATION_DIRECTORY"] = os.path.join(self.nm.dir, "config")
        self.nm.env["MACGUISE_NM_CONF"] = os.path.join(self.nm.dir, "conf.d")
        os.chmod(self.nm.dir, 0o711)  # unprivileged clients reach the bus socket

    def cli(self, *args, user=None, env=None):
        """The command, as root or as uid/gid @user, with more @env."""
        cmd = [self.exe, *args]
        if user is not None:
            cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *cmd]
        return subprocess.run(["ip", "netns", "exec", self.nm.ns, *cmd],
                              env=dict(self.nm.env, **(env or {})),
                              capture_output=True, text=True, timeout=60)

    def cli_json(self, *args):
        """The command's --json answer; it must succeed."""
        p = self.cli(*args, "--json")
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)

    def keyfile(self, name):
        """Profile @name as NetworkManager keeps it on disk."""
        path = os.path.join(self.nm.dir, "system-connections", name + ".nmconnection")
        with open(path, encoding="utf-8") as f:
            return f.read()


def profile(status, name):
    """Profile @name in a `status --json` answer."""
    return next(p for p in status["profiles"] if p["id"] == name)
