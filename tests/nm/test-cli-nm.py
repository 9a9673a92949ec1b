#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`macguise status|policy|rotate` against a real NetworkManager (and
macguised) in network namespaces; `audit` and `harden`: test-cli-audit.py."""
import fcntl
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402
from clinm import CliNm, profile  # noqa: E402

MACGUISED, CLI = sys.argv[1], sys.argv[2]
MAC_RE = re.compile(r"^[0-9a-f]{2}(:[0-9a-f]{2}){5}$")
BENCH = CliNm(CLI)
NM, cli, cli_json, keyfile = BENCH.nm, BENCH.cli, BENCH.cli_json, BENCH.keyfile


def wait_cloned(name, other_than=None, timeout=15):
    return NM.wait_cloned(name, other_than=other_than, timeout=timeout)


@mgtap.test
def status_without_macguised_says_so_and_shows_profiles():
    NM.add_ethernet("e1")
    p = cli("status")
    assert p.returncode == 0, p.stderr
    assert "macguised is not running" in p.stdout and re.search(r"^e1\s+ethernet", p.stdout, re.M), p.stdout
    s = cli_json("status")
    assert s["daemon_running"] is False and s["state_readable"] is True
    e1 = profile(s, "e1")
    assert e1["managed"] is True and e1["address"] is None and e1["next_rotation"]["when"] == "now", e1
    NM.start_macguised(MACGUISED)
    wait_cloned("e1")


@mgtap.test
def status_in_both_forms():
    mac = NM.cloned("e1")
    NM.wait_for("macguised's API", lambda: NM.macguise_call("GetStatus").returncode == 0)
    table = cli("status").stdout
    head, row = table.splitlines()[0], next(l for l in table.splitlines() if l.startswith("e1 "))
    for col in ("PROFILE", "TYPE", "MODE", "ROTATE", "ADDRESS", "VENDOR", "NEXT", "CHECK"):
        assert col in head, head
    assert mac in row and "plausible" in row and "weekly" in row, row
    detail = cli("status", "e1").stdout
    assert NM.uuid_of("e1") in detail and mac in detail and "next rotation:" in detail, detail
    s = cli_json("status", "e1")
    assert s["daemon_running"] is True and len(s["profiles"]) == 1
    e1 = s["profiles"][0]
    schema = {"id": str, "uuid": str, "type": str, "filename": str, "active": bool, "managed": bool,
              "user_owned": bool, "mode": str, "rotate": str, "cloned_mac_address": str,
              "address": str, "vendor": str, "vendor_id": str, "assigned_at": str,
              "next_rotation": dict, "generation": int, "conflicts": int, "problems": list}
    for key, kind in schema.items():
        assert isinstance(e1[key], kind), (key, e1[key])
    for key in ("check", "last_conflict", "recovery"):
        assert key in e1 and e1[key] is None, (key, e1.get(key))
    assert e1["address"] == mac and e1["type"] == "ethernet" and e1["generation"] == 1
    assert e1["next_rotation"]["when"] == "at" and e1["next_rotation"]["at"].endswith("Z")
    # nmcli's "does not exist" status, so scripts can tell it apart
    assert cli("status", "no-such").returncode == 10


def terse(value):
    """A value as nmcli's terse output escapes it."""
    return (value or "").replace("\\", "\\\\").replace(":", "\\:")


@mgtap.test
def status_says_whose_blocks_the_next_address_is_drawn_from():
    # A veth's driver is "veth", which no chip family's mix takes: the
    # class's mix serves, and status says why, naming the device it found.
    NM.nmcli("connection", "add", "type", "ethernet", "ifname", "*", "con-name", "anycard",
             "connection.autoconnect", "no")
    draw = cli_json("status", "e1")["profiles"][0]["draw"]
    assert draw == {"mix": None, "interface": "veth0", "driver": "veth",
                    "why": "no-mix-for-driver"}, draw
    assert "no maker mix for driver veth" in cli("status", "e1").stdout
    assert cli_json("status", "anycard")["profiles"][0]["draw"]["interface"] == "veth0"
    # A second card: a profile naming no interface could run on either.
    NM.new_adapter("card2", "00:1b:21:aa:bb:cc", os.path.join(NM.dir, "card2.frames"))
    draw = cli_json("status", "anycard")["profiles"][0]["draw"]
    assert draw["why"] == "several-devices" and draw["interface"] is None, draw
    assert cli_json("status", "e1")["profiles"][0]["draw"]["interface"] == "veth0"
    # The user's choice of maker comes first.
    assert cli("policy", "anycard", "mode=keep-vendor").returncode == 0
    assert cli_json("status", "anycard")["profiles"][0]["draw"]["why"] == "keep-vendor"


@mgtap.test
def status_shows_the_policy_macguised_applies_until_it_reloads():
    """macguise.conf edited by hand and not reloaded: status shows the mode
    macguised applies, and what follows from it (managed, whose blocks the
    next address comes from, the next rotation), not the file's."""
    conf = os.path.join(NM.dir, "config", "macguise.conf")
    kept = open(conf, encoding="utf-8").read() if os.path.exists(conf) else None
    before = profile(cli_json("status"), "e1")
    assert before["mode"] == "plausible" and before["managed"] and before["draw"], before
    with open(conf, "w", encoding="utf-8") as f:
        f.write("[ethernet]\nmode=off\nrotate=never\n")
    try:
        assert NM.macguise_status(NM.uuid_of("e1"))["mode"] == "plausible"
        shown = profile(cli_json("status"), "e1")
        for key in ("mode", "rotate", "managed", "draw", "next_rotation"):
            assert shown[key] == before[key], (key, shown[key], before[key])
    finally:
        if kept is None:
            os.unlink(conf)
        else:
            with open(conf, "w", encoding="utf-8") as f:
                f.write(kept)


@mgtap.test
def status_prints_fields_for_scripts_as_nmcli_does():
    rows = cli_json("status")["profiles"]
    # -t -f: one line a profile, no header, ':' between values and escaped in them
    p = cli("status", "-t", "-f", "id,address,type,next")
    assert p.returncode == 0, p.stderr
    want = [":".join([terse(r["id"]), terse(r["address"] or r["cloned_mac_address"]), r["type"],
                      terse((r["next_rotation"] or {}).get("at")
                            or (r["next_rotation"] or {}).get("when"))]) for r in rows]
    assert p.stdout.splitlines() == want, (p.stdout, want)
    # before the command, as nmcli takes them, and the same
    assert cli("-t", "-f", "id,address,type,next", "status").stdout == p.stdout
    # -g for one profile named: the values alone, one a line; -e no leaves ':' alone
    e1 = cli_json("status", "e1")["profiles"][0]
    p = cli("-g", "address,mode,managed", "status", "e1")
    assert p.stdout.splitlines() == [terse(e1["address"]), "plausible", "yes"], p.stdout
    assert cli("-e", "no", "-g", "address", "status", "e1").stdout == e1["address"] + "\n"
    # -t with a profile named: name:value records, every field
    record = dict(line.split(":", 1) for line in cli("-t", "status", "e1").stdout.splitlines())
    assert record["uuid"] == NM.uuid_of("e1") and record["kind"] == "ethernet", record
    # -f alone: a table for people with the columns chosen
    table = cli("status", "-f", "uuid,id").stdout.splitlines()
    assert table[0].split() == ["UUID", "PROFILE"], table[0]
    assert any(line.startswith(NM.uuid_of("e1")) for line in table[1:]), table
    # mistakes: usage errors that say what is allowed, before NetworkManager is asked
    p = cli("status", "-f", "id,colour")
    assert p.returncode == 2 and "no field 'colour'" in p.stderr and "vendor-id" in p.stderr, p.stderr
    assert cli("status", "-g", "id", "-f", "id").returncode == 2
    assert cli("status", "-t", "--json").returncode == 2
    assert cli("-x", "status").returncode == 2


@mgtap.test
def policy_set_and_read_back_in_the_profile_and_by_macguised():
    p = cli("policy", "e1", "rotate=2w", "macguise.harden=no", "vendors=intel,realtek")
    assert p.returncode == 0, p.stderr
    text = keyfile("e1")
    assert "[user]" in text and "macguise.rotate=2w" in text and "macguise.harden=no" in text, text
    shown = cli_json("policy", "e1")
    assert shown["settings"]["rotate"] == {"value": "2w", "source": "profile"}, shown
    assert shown["settings"]["mode"] == {"value": "plausible", "source": "default"}, shown
    NM.wait_for("macguised to see the new rotation",
                lambda: NM.macguise_status(NM.uuid_of("e1")).get("rotate") == "2w")
    # KEY= goes back to the default
    assert cli("policy", "e1", "vendors=").returncode == 0
    assert "macguise.vendors" not in keyfile("e1")


@mgtap.test
def bad_keys_and_values_are_one_error_line_and_nothing_is_written():
    before = keyfile("e1")
    for args, says in ((("rotate=sometimes",), "'sometimes'"),
                       (("mode=off", "rotate=sometimes"), "'sometimes'"),
                       (("colour=red",), "'colour' is not a macguise setting"),
                       (("vendors=acme",), "'acme' is not a vendor"),
                       (("rotate",), "is not KEY=VALUE")):
        p = cli("policy", "e1", *args)
        assert p.returncode == 2, (args, p.returncode, p.stderr)
        assert len(p.stderr.strip().splitlines()) == 1 and says in p.stderr, p.stderr
        assert p.stdout == ""
    assert keyfile("e1") == before
    p = cli("policy", "nope", "mode=off")
    assert p.returncode == 10 and "no profile 'nope'" in p.stderr, p.stderr


@mgtap.test
def policy_reset_removes_macguise_keys_and_hands_a_profile_back():
    NM.nmcli("connection", "modify", "e1", "802-3-ethernet.cloned-mac-address", "00:11:22:33:44:55")
    NM.wait_for("macguised to leave it alone",
                lambda: NM.macguise_status(NM.uuid_of("e1")).get("user-owned") is True)
    p = cli("policy", "e1", "--reset")
    assert p.returncode == 0 and "handed back" in p.stdout, p.stdout + p.stderr
    # the policy keys go; macguise's mark of the address (not a setting) may stay
    assert not re.search(r"^macguise\.", keyfile("e1"), re.M), keyfile("e1")
    new = wait_cloned("e1", other_than="00:11:22:33:44:55")
    assert new != "00:11:22:33:44:55"
    NM.wait_for("macguised to manage it again",
                lambda: NM.macguise_status(NM.uuid_of("e1")).get("user-owned") is False)


@mgtap.test
def defaults_reach_the_running_macguised():
    # What FreedomBox's page needs: a class default set without editing the
    # file, in force at once for every profile without its own setting.
    NM.add_ethernet("inherits")
    NM.wait_cloned("inherits")
    assert profile(cli_json("status"), "inherits")["rotate"] == "weekly"
    p = cli("defaults", "ethernet", "rotate=daily")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    try:
        # macguised's own view, over D-Bus: it read the file again
        assert NM.macguise_status(NM.uuid_of("inherits"))["rotate"] == "daily"
        assert profile(cli_json("status"), "inherits")["rotate"] == "daily"
        # a profile's own setting still wins
        assert cli("policy", "inherits", "rotate=never").returncode == 0
        assert profile(cli_json("status"), "inherits")["rotate"] == "never"
    finally:
        assert cli("defaults", "ethernet", "rotate=").returncode == 0
        NM.nmcli("connection", "delete", "inherits")


@mgtap.test
def rotate_with_and_without_now():
    assert cli("rotate").returncode == 2
    assert cli("rotate", "e1", "--all").returncode == 2
    down = NM.cloned("e1")
    p = cli("rotate", "e1")
    assert p.returncode == 0 and "a new address" in p.stdout, p.stdout + p.stderr
    up = wait_cloned("e1", other_than=down)
    NM.nmcli("connection", "up", "e1")
    p = cli("rotate", "e1")
    assert p.returncode == 0 and "e1: pending: a new address when it next goes down" in p.stdout, p.stdout
    NM.macguised_caught_up()
    assert NM.cloned("e1") == up and NM.link_mac() == up
    assert cli_json("status", "e1")["profiles"][0]["next_rotation"]["when"] == "deactivation"
    p = cli("rotate", "e1", "--now")
    assert p.returncode == 0, p.stderr
    new = wait_cloned("e1", other_than=up)
    NM.wait_for("the new address on the link", lambda: NM.link_mac() == new)
    NM.nmcli("connection", "down", "e1")
    # "rotated" means the new address is in the profile when the command ends.
    before = NM.cloned("e1")
    out = cli_json("rotate", "e1")["profiles"]
    assert [(p["id"], p["outcome"], p["reason"]) for p in out] == [("e1", "rotated", "down")], out
    assert NM.cloned("e1") != before
    # A profile macguise leaves alone is not rotated, and the command says so
    # and fails; --all lists it, and fails only for a failed rotation.
    NM.add_ethernet("left-alone")
    assert cli("policy", "left-alone", "mode=off").returncode == 0
    NM.wait_for("macguised to see mode=off",
                lambda: (NM.macguise_status(NM.uuid_of("left-alone")) or {}).get("mode") == "off")
    p = cli("rotate", "left-alone")
    assert p.returncode == 1 and "left-alone: not rotated: macguise leaves it alone (mode off)" \
        in p.stderr, p.stderr
    p = cli("rotate", "--all")
    assert p.returncode == 0 and "e1: a new address" in p.stdout, p.stdout + p.stderr
    assert "left-alone: not rotated" in p.stdout, p.stdout
    NM.nmcli("connection", "delete", "left-alone")
    p = cli("rotate", "e1", user=65534)
    assert p.returncode == 1 and "root" in p.stderr, p.stderr
    p = cli("rotate", "e1", "--json", user=65534)
    assert p.returncode == 1 and json.loads(p.stdout)["error"]["id"] == "permission-denied", (p.stdout, p.stderr)
    p = cli("policy", "no-such-profile", "--json")
    assert p.returncode == 10 and json.loads(p.stdout)["error"]["id"] == "not-found", p.stdout
    for command in ("rotate", "harden", "audit"):
        p = cli(command, "no-such-profile", "--json")
        assert p.returncode == 10 and json.loads(p.stdout)["error"]["id"] == "not-found", \
            (command, p.stdout)


def history_size():
    """How many addresses macguised's state records as drawn."""
    with open(os.path.join(NM.dir, "state", "state"), encoding="utf-8") as f:
        return len(re.findall(r"^[0-9a-f]{5}=", f.read(), re.M))


@mgtap.test
def a_write_never_undoes_a_change_made_since_it_was_decided():
    # The test holds the profile lock, as the macguise command does while it
    # edits profiles: macguised decides, records the new addresses, and waits.
    with open(os.path.join(NM.dir, "state", "profiles.lock"), "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        before = history_size()
        NM.add_ethernet("race-dns")
        NM.add_ethernet("race-hand")
        NM.wait_for("both new addresses recorded", lambda: history_size() >= before + 2)
        assert "cloned-mac-address" not in keyfile("race-dns"), keyfile("race-dns")
        # Meanwhile other programs change both profiles: a DNS server in
        # one, an address set by hand in the other; and the macguise
        # command, waiting for the lock, a policy key.
        NM.nmcli("connection", "modify", "race-dns", "ipv4.dns", "192.0.2.53")
        NM.nmcli("connection", "modify", "race-hand", "802-3-ethernet.cloned-mac-address",
                 "00:1b:21:3a:4b:5c")
        policy = subprocess.Popen(["ip", "netns", "exec", NM.ns, CLI, "policy", "race-dns",
                                   "rotate=daily"], env=NM.env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
    out, err = policy.communicate(timeout=120)
    assert policy.returncode == 0, err
    # macguised's write went into the profile as it is now, not as it was.
    wait_cloned("race-dns")
    NM.wait_for("rotate=daily kept", lambda: "macguise.rotate=daily" in keyfile("race-dns"))
    dns = NM.nmcli("-g", "ipv4.dns", "connection", "show", "race-dns").stdout.strip()
    assert dns == "192.0.2.53", dns
    # The address set by hand since the decision stays, and is the user's.
    NM.wait_for("race-hand left to its user",
                lambda: profile(cli_json("status"), "race-hand")["user_owned"])
    assert NM.cloned("race-hand") == "00:1b:21:3a:4b:5c"


@mgtap.test
def an_unprivileged_user_cannot_change_a_profile():
    before = keyfile("e1")
    p = cli("policy", "e1", "mode=off", user=65534)
    assert p.returncode == 1 and "refused" in p.stderr, p.stderr
    # (NetworkManager here has no polkit to ask, so it fails the
    # authorization check rather than denying: "refused", not
    # "permission-denied".)
    p = cli("policy", "e1", "mode=off", "--json", user=65534)
    assert p.returncode == 1 and json.loads(p.stdout)["error"]["id"] == "refused", (p.stdout, p.stderr)
    assert keyfile("e1") == before
    # Reading is fine, from macguised's status.
    p = cli("status", user=65534)
    assert p.returncode == 0 and "e1" in p.stdout, p.stderr


def complete(line):
    """What bash completes for @line, with the completion file of the
    source tree, or the installed one MG_COMPLETION names."""
    script = os.environ.get("MG_COMPLETION") or os.path.join(
        os.environ["MG_SOURCE_ROOT"], "data", "macguise.bash-completion")
    prog = (f"source {script}; COMP_LINE={line!r}; read -ra COMP_WORDS <<< \"$COMP_LINE\"; "
            "[[ $COMP_LINE == *' ' ]] && COMP_WORDS+=(''); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); "
            "_macguise; printf '%s\\n' \"${COMPREPLY[@]}\"")
    env = dict(NM.env, PATH=os.path.dirname(CLI) + ":" + NM.env["PATH"])
    p = subprocess.run(["ip", "netns", "exec", NM.ns, "bash", "-c", prog], env=env,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stderr
    return [w for w in p.stdout.splitlines() if w]


@mgtap.test
def bash_completes_commands_profiles_and_policy_keys():
    for name in ("My Office", "lounge"):
        NM.nmcli("connection", "add", "type", "ethernet", "ifname", "veth0", "con-name", name,
                 "connection.autoconnect", "no")
    assert complete("macguise st") == ["status"]
    assert set(complete("macguise ")) >= {"status", "policy", "rotate", "audit", "harden"}
    assert set(complete("macguise status ")) >= {"e1", "lounge", "My\\ Office"}, complete("macguise status ")
    assert complete("macguise policy l") == ["lounge"]
    assert set(complete("macguise policy e1 ")) == {"mode=", "rotate=", "class=", "vendors=", "harden=",
                                                    "quiet-hours="}
    assert set(complete("macguise policy e1 mode=")) == {"mode=off", "mode=plausible", "mode=keep-vendor"}
    assert "rotate=weekly" in complete("macguise policy e1 rotate=w")
    assert "vendors=intel" in complete("macguise policy e1 vendors=in")
    # Every vendor id, and nothing else, from the catalogue's listing.
    ids = {v["id"] for v in json.loads(cli("vendors", "--json").stdout)["vendors"]}
    assert set(complete("macguise policy e1 vendors=")) == {f"vendors={i}" for i in ids | {"any"}}, \
        complete("macguise policy e1 vendors=")
    assert complete("macguise rotate --n") == ["--now"]
    assert complete("macguise generate --class e") == ["ethernet"]
    assert complete("macguise generate --class a") == ["ap"]
    # nmcli's output options, before the command too, and the fields they name
    assert complete("macguise -t st") == ["status"]
    assert complete("macguise -f id,add") == ["id,address"]
    assert complete("macguise status -g vendor") == ["vendor", "vendor-id"]
    error = cli("status", "-f", "?").stderr
    fields = error[error.index("the fields: ") + 12:error.index(", or all")].split(", ")
    assert set(complete("macguise status -f ")) == set(fields) | {"all"}, error


@mgtap.test
def mode_off_gives_back_the_cards_own_address():
    """mode=off, "the card's own address": macguise puts `permanent`, with
    its mark of it, in place of its address and the address's mark (no
    address would take NetworkManager's global default), and the link has
    the card's own address from the next activation."""
    NM.nmcli("device", "disconnect", "veth0", check=False)
    own = NM.link_mac()
    NM.add_ethernet("off1")
    given = wait_cloned("off1")
    NM.nmcli("connection", "up", "off1")
    assert NM.link_mac() == given != own
    p = cli("policy", "off1", "mode=off")
    assert p.returncode == 0, p.stderr
    NM.wait_for("macguise's address to leave the profile",
                lambda: NM.cloned("off1") == "permanent")
    saved = keyfile("off1")
    assert "org.macguise.mark" in saved and "macguise.mode=off" in saved, saved
    shown = cli_json("status", "off1")["profiles"][0]
    assert shown["address"] is None and not shown["user_owned"], shown
    NM.nmcli("connection", "down", "off1")
    NM.nmcli("connection", "up", "off1")
    assert NM.link_mac() == own
    NM.nmcli("connection", "down", "off1")
    NM.nmcli("connection", "delete", "off1")


@mgtap.test
def without_networkmanager_a_clear_error():
    NM.end("nm")
    # 8: nmcli's "NetworkManager is not running"
    p = cli("status")
    assert p.returncode == 8 and "NetworkManager is not running" in p.stderr, p.stderr
    p = cli("policy", "e1", "mode=off")
    assert p.returncode == 8 and "NetworkManager is not running" in p.stderr, p.stderr
    p = cli("status", "--json")
    assert p.returncode == 8 and json.loads(p.stdout)["error"]["id"] == "networkmanager-not-running", p.stdout


try:
    mgtap.run()
finally:
    NM.stop()
