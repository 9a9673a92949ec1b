#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`macguise audit|harden` against a real NetworkManager (and macguised) in
network namespaces: each leak found on a leaky profile, the fix it names
clearing it, harden's dry run and its fixes, a hotspot's, and the choices
of NetworkManager's own that are the user's to keep."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402
from clinm import CliNm, profile  # noqa: E402

MACGUISED, CLI = sys.argv[1], sys.argv[2]
BENCH = CliNm(CLI)
NM, cli, cli_json, keyfile = BENCH.nm, BENCH.cli, BENCH.cli_json, BENCH.keyfile


def wait_cloned(name, other_than=None, timeout=15):
    return NM.wait_cloned(name, other_than=other_than, timeout=timeout)


def macguised_with_a_profile():
    """macguised, following one managed profile (e1) with its address."""
    NM.start_macguised(MACGUISED)
    NM.add_ethernet("e1")
    wait_cloned("e1")


LEAKS = {"ipv6-eui64", "ipv6-no-temporary", "stable-id-kept", "dhcp-client-id-permanent",
         "dhcp-duid-fixed", "dhcp-iaid-fixed", "dhcp-hostname-ipv4", "dhcp-hostname-ipv6"}


@mgtap.test
def audit_finds_each_leak_on_a_leaky_profile():
    NM.nmcli("connection", "add", "type", "ethernet", "ifname", "veth0", "con-name", "leaky",
             "connection.autoconnect", "no", "ipv4.method", "auto", "ipv6.method", "auto",
             "ipv6.addr-gen-mode", "eui64", "ipv6.ip6-privacy", "0",
             "ipv4.dhcp-client-id", "perm-mac", "ipv6.dhcp-duid", "01:02:03:04:05:06",
             "ipv4.dhcp-send-hostname", "yes", "ipv6.dhcp-send-hostname", "yes")
    assert cli("policy", "leaky", "harden=no").returncode == 0
    NM.nmcli("connection", "add", "type", "ethernet", "ifname", "veth0", "con-name", "fixed",
             "connection.autoconnect", "no", "ipv4.method", "manual", "ipv4.addresses",
             "10.77.0.3/24", "ipv6.method", "disabled", "802-3-ethernet.cloned-mac-address",
             "permanent")
    NM.nmcli("connection", "add", "type", "wifi", "ifname", "*", "con-name", "w1", "ssid", "Cafe",
             "connection.autoconnect", "no", "ipv4.method", "manual", "ipv4.addresses",
             "10.78.0.3/24", "ipv6.method", "disabled")
    assert cli("policy", "w1", "mode=off").returncode == 0
    with open(os.path.join(NM.dir, "conf.d", "00-scan.conf"), "w") as f:
        f.write("[device]\nwifi.scan-rand-mac-address=no\n")
    out = cli_json("audit", "leaky", "fixed", "w1")
    found = {p["id"]: {f["id"] for f in p["findings"]} for p in out["profiles"]}
    assert found["leaky"] == LEAKS, found["leaky"] ^ LEAKS
    assert found["fixed"] == {"mac-permanent"}, found["fixed"]
    assert found["w1"] == {"macguise-off"}, found["w1"]
    # NetworkManager runs at INFO, its default: it names every address it sets
    assert [g["id"] for g in out["global"]] == ["wifi-scan-permanent", "nm-logging-addresses"], \
        out["global"]
    NM.nmcli("general", "logging", "level", "WARN", "domains", "ALL")
    try:
        quiet = cli_json("audit", "leaky")["global"]
    finally:
        NM.nmcli("general", "logging", "level", "INFO", "domains", "ALL")
    assert quiet == [], quiet
    for p in out["profiles"]:
        for f in p["findings"]:
            assert f["severity"] in ("high", "medium", "low") and f["fix"] and f["message"], f
            assert f["fix"].startswith(("nmcli connection modify ", "macguise policy ")), f
    text = cli("audit", "leaky").stdout
    assert "nmcli connection modify 'leaky' ipv6.addr-gen-mode 'stable-privacy'" in text, text
    # The fix it names for one leak, run as it is, clears that leak.
    fix = next(f["fix"] for f in out["profiles"][0]["findings"] if f["id"] == "ipv6-eui64")
    subprocess.run(["ip", "netns", "exec", NM.ns, "sh", "-c", fix], env=NM.env, check=True)
    after = {f["id"] for f in cli_json("audit", "leaky")["profiles"][0]["findings"]}
    assert after == LEAKS - {"ipv6-eui64"}, after


@mgtap.test
def harden_dry_run_says_what_it_would_fix_and_changes_nothing():
    before = {n: keyfile(n) for n in ("leaky", "fixed")}
    p = cli("harden", "--dry-run", "leaky", "fixed")
    assert p.returncode == 0, p.stderr
    assert "leaky: 7 fixes would be applied" in p.stdout and "Would fix:" in p.stdout, p.stdout
    out = cli_json("harden", "--dry-run", "leaky", "fixed")
    assert out["dry_run"] is True
    leaky = next(x for x in out["profiles"] if x["id"] == "leaky")
    # what the audit test left: its leaks but the one it fixed by hand
    assert {f["id"] for f in leaky["fixes"]} == LEAKS - {"ipv6-eui64"}, leaky
    assert leaky["written"] is False, leaky
    assert {n: keyfile(n) for n in ("leaky", "fixed")} == before


@mgtap.test
def harden_clears_every_finding():
    p = cli("harden", "leaky", "fixed", "w1")
    assert p.returncode == 0, p.stderr
    assert "wifi.scan-rand-mac-address" in p.stdout, p.stdout  # global: said, not done
    out = cli_json("audit", "leaky", "fixed", "w1")
    for prof in out["profiles"]:
        assert prof["findings"] == [], prof
    get = lambda f: NM.nmcli("-g", f, "connection", "show", "leaky").stdout.strip()  # noqa: E731
    assert get("ipv6.addr-gen-mode") == "stable-privacy"
    # NetworkManager 1.52's nmcli shows dhcp-send-hostname-v2 under the old
    # name, as a number
    assert get("ipv4.dhcp-send-hostname") in ("no", "0"), get("ipv4.dhcp-send-hostname")
    assert get("ipv6.dhcp-send-hostname") in ("no", "0"), get("ipv6.dhcp-send-hostname")
    assert get("ipv4.dhcp-client-id") == "mac" and get("ipv6.dhcp-duid") == "stable-uuid"
    assert get("ipv6.dhcp-iaid") == "stable", get("ipv6.dhcp-iaid")
    assert "macguise.harden=yes" in keyfile("leaky")
    assert all(prof["kept_hardened"] for prof in out["profiles"]), out
    assert "kept hardened (macguise.harden=yes)" in cli("audit", "leaky").stdout
    # The hand-set "permanent" was cleared: macguise gives "fixed" an address.
    wait_cloned("fixed")
    assert cli("harden").returncode == 2


@mgtap.test
def hotspot_audit_and_harden_fix_what_they_may_and_suggest_the_rest():
    # An open hotspot with a fixed BSSID and an SSID location services map.
    NM.nmcli("connection", "add", "type", "wifi", "ifname", "wlan0", "con-name", "hotspot",
             "ssid", "FreedomBox", "802-11-wireless.mode", "ap", "ipv4.method", "shared",
             "ipv6.method", "ignore", "connection.autoconnect", "no")
    assert cli("policy", "hotspot", "rotate=never").returncode == 0
    found = {f["id"]: f for f in cli_json("audit", "hotspot")["profiles"][0]["findings"]}
    assert set(found) == {"ap-bssid-fixed", "ap-ssid-mapped", "ap-open", "ap-wps"}, set(found)
    assert found["ap-ssid-mapped"]["advice"] and found["ap-open"]["advice"]
    # WPS, on in wpa_supplicant's access point: an open hotspot has no
    # setting NetworkManager would pass to turn it off
    assert found["ap-wps"]["advice"] and "wps-method disabled" in found["ap-wps"]["fix"]
    assert not found["ap-bssid-fixed"]["advice"]
    assert found["ap-ssid-mapped"]["fix"] == \
        "nmcli connection modify 'hotspot' 802-11-wireless.ssid 'FreedomBox_nomap'"
    text = cli("audit", "hotspot").stdout
    assert "suggestion: nmcli connection modify 'hotspot' 802-11-wireless.ssid" in text, text
    # harden makes the BSSID rotate, and leaves the name and the password
    # to the user, saying so.
    p = cli("harden", "hotspot")
    assert p.returncode == 0, p.stderr
    assert "hotspot: 1 fix applied" in p.stdout and p.stdout.count("Left to you") == 3, p.stdout
    assert NM.nmcli("-g", "802-11-wireless.ssid", "connection", "show", "hotspot").stdout.strip() == "FreedomBox"
    assert "macguise.rotate=daily" in keyfile("hotspot")
    left = {f["id"] for f in cli_json("audit", "hotspot")["profiles"][0]["findings"]}
    assert left == {"ap-ssid-mapped", "ap-open", "ap-wps"}, left
    # Taking the suggestions, as printed, clears them but WPS, which
    # wpa_supplicant runs for a WPA2/WPA3-Personal hotspot too; harden
    # turns it off, in the profile NetworkManager hands wpa_supplicant.
    # (Kept hardened, macguised would do it at once: ended here, to see
    # harden do it.)
    assert cli("policy", "hotspot", "harden=").returncode == 0
    NM.nmcli("connection", "modify", "hotspot", "802-11-wireless.ssid", "FreedomBox_nomap",
             "802-11-wireless-security.key-mgmt", "sae", "802-11-wireless-security.psk",
             "correct horse battery")
    found = {f["id"]: f for f in cli_json("audit", "hotspot")["profiles"][0]["findings"]}
    assert set(found) == {"ap-wps"} and not found["ap-wps"]["advice"], found
    assert found["ap-wps"]["fix"] == \
        "nmcli connection modify 'hotspot' 802-11-wireless-security.wps-method 'disabled'"
    # nmcli -g shows the flags as a number (1.42: 0x1), or by name
    wps_off = lambda: NM.nmcli("-g", "802-11-wireless-security.wps-method", "connection",  # noqa: E731
                               "show", "hotspot").stdout.strip() in ("0x1", "disabled", "0x1 (disabled)")
    assert not wps_off()
    p = cli("harden", "hotspot")
    assert p.returncode == 0 and "hotspot: 1 fix applied" in p.stdout, p.stdout + p.stderr
    assert wps_off()
    assert "wps-method=1" in keyfile("hotspot"), keyfile("hotspot")
    assert cli_json("audit", "hotspot")["profiles"][0]["findings"] == []
    # kept hardened again: put back by macguised when something undoes it
    NM.nmcli("connection", "modify", "hotspot", "802-11-wireless-security.wps-method", "default")
    NM.wait_for("macguised to turn WPS off again", wps_off)
    # Quiet hours: for a hotspot, set and shown; for a client, refused.
    assert cli("policy", "hotspot", "quiet-hours=03:00-05:00").returncode == 0
    assert cli_json("policy", "hotspot")["settings"]["quiet-hours"]["value"] == "03:00-05:00"
    p = cli("policy", "e1", "quiet-hours=03:00-05:00")
    assert p.returncode == 2 and "not an access point" in p.stderr, p.stderr
    assert "quiet-hours" not in keyfile("e1")
    # macguised gives it a router maker's address, shown as class ap.
    mac = NM.wait_cloned("hotspot", setting="802-11-wireless")
    assert profile(cli_json("status"), "hotspot")["type"] == "ap"
    info = json.loads(cli("lookup", "--json", mac).stdout)[0]
    assert "ap" in info["classes"], info


@mgtap.test
def audit_leaves_networkmanagers_choices_and_names_what_else_names_the_machine():
    NM.nmcli("connection", "add", "type", "ethernet", "ifname", "veth0", "con-name", "nmrand",
             "connection.autoconnect", "no", "802-3-ethernet.cloned-mac-address", "random")
    NM.nmcli("connection", "add", "type", "wifi", "ifname", "*", "con-name", "nmstable",
             "ssid", "Office", "connection.autoconnect", "no",
             "802-11-wireless.cloned-mac-address", "stable",
             "802-11-wireless.generate-mac-address-mask", "FF:FF:FF:00:00:00")
    NM.nmcli("connection", "add", "type", "wifi", "ifname", "*", "con-name", "hiddenw",
             "ssid", "Smith-Home", "802-11-wireless.hidden", "yes", "connection.autoconnect", "no")
    NM.nmcli("connection", "add", "type", "ethernet", "ifname", "veth0", "con-name", "campus",
             "connection.autoconnect", "no", "802-1x.eap", "peap", "802-1x.identity",
             "alice@uni.example", "802-1x.phase2-auth", "mschapv2", "802-1x.password", "x")
    names = ("nmrand", "nmstable", "hiddenw", "campus")
    # systemd-resolved and avahi-daemon "run": their sockets exist.
    running = {"MACGUISE_RESOLVED_SOCKET": os.path.join(NM.dir, "resolve.socket"),
               "MACGUISE_AVAHI_SOCKET": os.path.join(NM.dir, "avahi.socket")}
    for path in running.values():
        open(path, "w").close()

    def audit():
        p = cli("audit", *names, "--json", env=running)
        assert p.returncode == 0, p.stderr
        out = json.loads(p.stdout)
        return {x["id"]: {f["id"]: f for f in x["findings"]} for x in out["profiles"]}, out["global"]
    found, glob = audit()
    assert "avahi-hostname" in {g["id"] for g in glob}, glob
    assert "mac-nm-random" in found["nmrand"] and "mac-by-hand" not in found["nmrand"], found["nmrand"]
    stable = found["nmstable"]["mac-nm-stable"]
    assert stable["advice"] and stable["severity"] == "low" and "who made the card" in stable["message"]
    assert found["hiddenw"]["wifi-hidden-probes"]["advice"], found["hiddenw"]
    assert found["campus"]["8021x-identity-clear"]["value"] == "anonymous@uni.example"
    for name in names:
        assert "llmnr-hostname" in found[name], (name, found[name])
    row = next(r for r in cli("status").stdout.splitlines() if r.startswith("nmrand "))
    assert "NetworkManager's random" in row, row
    # Without systemd-resolved, LLMNR names no one.
    p = cli("audit", "nmrand", "--json")
    assert "llmnr-hostname" not in {f["id"] for f in json.loads(p.stdout)["profiles"][0]["findings"]}
    # harden fixes what it may and leaves the user's choices.
    p = cli("harden", *names, env=running)
    assert p.returncode == 0, p.stderr
    get = lambda n, f: NM.nmcli("-g", f, "connection", "show", n).stdout.strip()  # noqa: E731
    assert get("nmrand", "802-3-ethernet.cloned-mac-address") == "random"
    assert get("nmstable", "802-11-wireless.cloned-mac-address") == "stable"
    assert get("hiddenw", "802-11-wireless.hidden") == "yes"
    assert get("campus", "802-1x.anonymous-identity") == ""
    assert get("nmrand", "connection.llmnr") in ("1", "resolve"), get("nmrand", "connection.llmnr")
    found, _ = audit()
    assert {n: set(f) for n, f in found.items()} == {
        "nmrand": {"mac-nm-random"}, "nmstable": {"mac-nm-stable"},
        "hiddenw": {"wifi-hidden-probes"}, "campus": {"8021x-identity-clear"}}, found
    for name in names:
        NM.nmcli("connection", "delete", name)


try:
    macguised_with_a_profile()
    mgtap.run()
finally:
    NM.stop()
