# SPDX-License-Identifier: GPL-3.0-or-later
"""What the tests of macguised share about profiles: one written as
NetworkManager's keyfile plugin would (with the [user] section nmcli 1.42
cannot write), and macguised's D-Bus API called on them."""
import os
import re


def add_keyfile(nm, name, uuid, extra=""):
    """Profile @name (@uuid), Ethernet on veth0, with @extra appended,
    written into @nm's keyfile directory and loaded."""
    path = os.path.join(nm.dir, "system-connections", name + ".nmconnection")
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"[connection]\nid={name}\nuuid={uuid}\ntype=ethernet\ninterface-name=veth0\n"
                "autoconnect=false\n\n[ethernet]\n\n[ipv4]\nmethod=manual\naddress1=10.77.0.2/24\n\n"
                f"[ipv6]\nmethod=disabled\n\n{extra}")
    os.chmod(path, 0o600)
    nm.nmcli("connection", "load", path)


def rotate(nm, profile, now):
    """Rotate over D-Bus: {uuid: (outcome, reason)}."""
    p = nm.macguise_call("Rotate", profile, "true" if now else "false")
    assert p.returncode == 0, p.stderr
    return {u: (o, r) for u, o, r in re.findall(r"\('([^']*)', '([^']*)', '([^']*)'\)", p.stdout)}


def make_due(nm, uuids):
    """Moves the due time of these profiles into the past in @nm's macguise
    state, as if the machine had been off for weeks, and reseals the file
    as macguised does (BLAKE2b-256 of the body) so that it loads. macguised
    must not be running (it would write its own state back)."""
    import hashlib
    path = os.path.join(nm.dir, "state", "state")
    with open(path, encoding="utf-8") as f:
        body = f.read().split("\n[integrity]\n")[0]
    out, group = [], None
    for line in body.split("\n"):
        if line.startswith("["):
            group = line
        if group in {f"[profile {u}]" for u in uuids} and line.startswith(("due-at=", "assigned-at=")):
            line = line.split("=")[0] + "=1000"
        out.append(line)
    body = "\n".join(out)
    digest = hashlib.blake2b(body.encode(), digest_size=32).hexdigest()
    with open(path, "w") as f:
        f.write(f"{body}\n[integrity]\nblake2b={digest}\n")
