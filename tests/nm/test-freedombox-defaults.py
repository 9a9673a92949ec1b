#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""FreedomBox's defaults (packaging/freedombox/macguise.conf.d, installed
by freedombox-macguise-defaults) on the profiles FreedomBox makes, made as
FreedomBox's network setup makes them, with a real NetworkManager and
macguised: the Internet connection gets one plausible address, kept, and
still sends its host name; the box's own shared network keeps the card's
address; the hotspot and a Wi-Fi client get a new address daily, with
hardening. The administrator's macguise.conf wins over the packaged
file."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "freedombox"))
import mgtap  # noqa: E402
import profiles  # noqa: E402
from fbxdeb import freedombox_deb  # noqa: E402
from nmnetns import NmNetns, catalogue_lookup  # noqa: E402

MACGUISED, CLI = sys.argv[1], sys.argv[2]
PACKAGED = os.path.join(os.environ["MG_SOURCE_ROOT"], "packaging", "freedombox",
                        "macguise.conf.d")
PLINTH_EDIT = os.path.join(os.path.dirname(__file__), "..", "freedombox", "plinth_edit.py")
NM = NmNetns()


def cli_json(*args):
    p = NM.run(CLI, *args, "--json", ns=NM.ns)
    return json.loads(p.stdout)


def status(name):
    return cli_json("status", name)["profiles"][0]


def freedombox_connection(name, ifname, kind, *properties):
    """As FreedomBox's networks setup does: add, then modify each property."""
    NM.nmcli("connection", "add", "con-name", name, "ifname", ifname, "type", kind,
             *(("ssid", "FreedomBoxwlan0") if kind == "wifi" else ()))
    for key, value in zip(properties[::2], properties[1::2]):
        NM.nmcli("connection", "modify", name, key, value)


WAN, LAN, HOTSPOT, CLIENT = "FreedomBox WAN", "FreedomBox LAN eth1", "FreedomBox wlan0", "Cafe"


def set_up():
    """NetworkManager, macguised and FreedomBox's connections; stopped in
    the end whatever fails here."""
    NM.start()
    NM.env["MACGUISE_PACKAGED_CONF_DIR"] = PACKAGED
    NM.start_macguised(MACGUISED)
    # FreedomBox makes its connections at its first setup, long after macguised
    # started: an activation macguised finds under way when it starts is not
    # one it can cut.
    NM.wait_for("macguised to follow NetworkManager",
                lambda: "following NetworkManager" in NM.log_text("macguised"))
    freedombox_connection(WAN, "veth0", "ethernet", "connection.autoconnect", "FALSE",
                          "connection.zone", "external")
    freedombox_connection(LAN, "eth1", "ethernet", "connection.autoconnect", "FALSE",
                          "connection.zone", "internal", "ipv4.method", "shared")
    freedombox_connection(HOTSPOT, "wlan0", "wifi", "connection.autoconnect", "FALSE",
                          "connection.zone", "internal", "ipv4.method", "shared",
                          "wifi.mode", "ap", "wifi-sec.key-mgmt", "wpa-psk",
                          "wifi-sec.psk", "freedombox123")
    NM.nmcli("connection", "add", "type", "wifi", "con-name", CLIENT, "ssid", "Cafe", "ifname", "*",
             "connection.autoconnect", "no")
    NM.wait_cloned(WAN)
    NM.wait_cloned(HOTSPOT, setting="802-11-wireless")
    NM.wait_cloned(CLIENT, setting="802-11-wireless")
    NM.macguised_caught_up()


@mgtap.test
def the_internet_connection_keeps_one_plausible_address_and_its_host_name():
    wan = status(WAN)
    assert wan["kind"] == "ethernet" and wan["mode"] == "plausible", wan
    assert wan["rotate"] == "never" and (wan["next_rotation"] or {}).get("at") is None, wan
    assert wan["address"] == NM.cloned(WAN) and int(wan["address"][:2], 16) & 2 == 0, wan
    assert catalogue_lookup(CLI, wan["address"])["vendor"] == wan["vendor"]
    assert NM.sends_host_name(WAN), "the WAN keeps sending its host name (harden=no)"
    assert cli_json("policy", WAN)["settings"]["harden"] == {"value": "no", "source": "default"}


@mgtap.test
def the_shared_network_keeps_the_cards_own_address():
    lan = status(LAN)
    assert lan["kind"] == "ethernet-shared" and lan["mode"] == "off", lan
    # `permanent`: no address would take NetworkManager's global default,
    # which macguise's first-contact defaults make a random one
    NM.wait_for("`permanent` in the LAN", lambda: NM.cloned(LAN) == "permanent")
    lan = status(LAN)
    assert lan["address"] is None and not lan["user_owned"], lan


@mgtap.test
def the_hotspot_and_a_wifi_client_get_a_new_address_daily():
    for name in (HOTSPOT, CLIENT):
        s = status(name)
        assert s["rotate"] == "daily" and s["mode"] == "plausible", s
        assert s["next_rotation"]["at"] is not None, s
    assert status(HOTSPOT)["kind"] == "ap" and status(CLIENT)["kind"] == "wifi"
    assert cli_json("policy", CLIENT)["settings"]["harden"] == {"value": "yes", "source": "default"}


@mgtap.test
def the_administrators_file_wins_key_by_key():
    shown = cli_json("defaults")
    assert shown["packaged"] == [os.path.join(PACKAGED, "50-freedombox.conf")], shown
    cli_json("defaults", "ethernet", "rotate=weekly")
    assert cli_json("policy", WAN)["settings"]["rotate"]["value"] == "weekly"
    # the shared kind takes [ethernet]'s keys it does not set itself
    kinds = cli_json("defaults")["classes"]
    assert kinds["ethernet-shared"]["rotate"] == "weekly", kinds
    assert kinds["ethernet-shared"]["mode"] == "off", kinds
    cli_json("defaults", "ethernet", "rotate=")
    assert cli_json("policy", WAN)["settings"]["rotate"]["value"] == "never"


@mgtap.test
def a_boot_past_every_rotation_with_a_typo_under_wifi_leaves_the_internet_connection_its_address():
    """The machine was off past every profile's rotation time (its state
    says so), and /etc/macguise has a typo under [wifi]: the boot step and
    macguised keep FreedomBox's packaged rotate=never for the WAN."""
    wan, client = NM.cloned(WAN), NM.cloned(CLIENT, "802-11-wireless")
    conf = os.path.join(NM.dir, "config", "macguise.conf")
    with open(conf, "w") as f:
        f.write("[wifi]\nmode=plausible\nrotate=weeky\n")
    NM.end("macguised")
    try:
        profiles.make_due(NM, [NM.uuid_of(WAN), NM.uuid_of(CLIENT)])
        NM.end("nm")
        p = NM.run_boot_step(MACGUISED)
        assert f"{conf}:3: [wifi] macguise.rotate: 'weeky'" in p.stderr, p.stderr
        NM.start_nm()
        # the packaged rotate=never holds; the Wi-Fi client, daily by the
        # built-in default its skipped line leaves, was due
        assert NM.cloned(WAN) == wan, "the WAN lost its address over a line about Wi-Fi"
        assert NM.cloned(CLIENT, "802-11-wireless") != client
        NM.start_macguised(MACGUISED)
        NM.wait_for("macguised to name the skipped line",
                    lambda: f"{conf}:3: [wifi] macguise.rotate" in NM.log_text("macguised"))
        NM.macguised_caught_up()
        assert NM.cloned(WAN) == wan
        assert status(WAN)["rotate"] == "never"
        shown = NM.run(CLI, "status", "--json", ns=NM.ns)
        assert [(c["file"], c["line"]) for c in json.loads(shown.stdout)["config_problems"]] == \
            [(conf, 3)], shown.stdout
        assert NM.run(CLI, "defaults", "--check", ns=NM.ns, check=False).returncode == 1
    finally:
        os.remove(conf)
        if not any(n == "nm" and p.poll() is None for n, p in NM.pids):
            NM.start_nm()
        if not any(n == "macguised" and p.poll() is None for n, p in NM.pids):
            NM.start_macguised(MACGUISED)
    NM.run(CLI, "defaults", "--check", ns=NM.ns)


def plinth_edits(name, dns):
    """FreedomBox's own code (Debian's freedombox package, unpacked) edits
    the connection as its Networks page does: new IPv4 and IPv6 settings."""
    with tempfile.TemporaryDirectory() as root:
        subprocess.run(["dpkg-deb", "-x", freedombox_deb(), root], check=True)
        NM.run("/usr/bin/python3", PLINTH_EDIT, root, NM.uuid_of(name), name, "veth0", dns)


def dns_of(name):
    return NM.nmcli("-g", "ipv4.dns", "connection", "show", name).stdout.strip()


@mgtap.test
def a_hardened_connection_edited_in_freedombox_is_hardened_again():
    NM.run(CLI, "harden", WAN)
    assert not NM.sends_host_name(WAN)
    audit = cli_json("audit", WAN)["profiles"][0]
    assert audit["kept_hardened"] and not [f for f in audit["findings"] if not f["advice"]], audit
    plinth_edits(WAN, "192.0.2.53")
    # FreedomBox's edit landed (its DNS server), and macguised undid what it
    # undid: the new IPv4 settings send the host name by default.
    NM.wait_for("FreedomBox's edit", lambda: dns_of(WAN) == "192.0.2.53")
    NM.wait_for("macguised to write harden's fixes back",
                lambda: "kept hardened: " in NM.log_text("macguised")
                and not NM.sends_host_name(WAN))
    assert "ipv4.dhcp-send-hostname" in NM.log_text("macguised")
    assert dns_of(WAN) == "192.0.2.53", "FreedomBox's own change stays"
    NM.macguised_caught_up()
    assert NM.log_text("macguised").count("kept hardened: ") == 1, "written back once"
    audit = cli_json("audit", WAN)["profiles"][0]
    assert not [f for f in audit["findings"] if not f["advice"]], audit


@mgtap.test
def a_connection_not_hardened_by_its_owner_is_left_as_edited():
    assert not cli_json("audit", CLIENT)["profiles"][0]["kept_hardened"]
    NM.nmcli("connection", "modify", CLIENT, "ipv4.dhcp-send-hostname", "no")
    NM.nmcli("connection", "modify", CLIENT, "ipv4.dhcp-send-hostname", "yes")
    NM.macguised_caught_up()
    assert NM.sends_host_name(CLIENT), "only harden's own key makes macguised keep it"


@mgtap.test
def a_connection_switched_to_shared_takes_the_shared_defaults():
    # (without the DNS server FreedomBox's edit above gave it: not allowed
    # with shared)
    NM.nmcli("connection", "modify", WAN, "ipv4.dns", "", "ipv4.method", "shared")
    NM.wait_for("the WAN to count as shared", lambda: status(WAN)["kind"] == "ethernet-shared")
    assert status(WAN)["mode"] == "off"


try:
    set_up()
    mgtap.run()
finally:
    NM.stop()
