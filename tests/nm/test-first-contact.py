#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""First contact, against a real NetworkManager in network namespaces: the
ways people meet a new network create and activate a profile in one step
(a newly plugged card's automatic "Wired connection", `nmcli device
connect`, `connection add` then `up` at once). Every frame the network
receives from the first on carries a plausible, globally administered
address macguise chose — with macguised running, and with only the
NetworkManager defaults its boot step writes. Also: every activation counts
(`up` on an active profile), a profile whose address is reverted
behind macguised's back comes up again with its own, and under those
defaults a mode=off profile still carries the card's own address."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402
from nmnetns import NmNetns, catalogue_lookup  # noqa: E402

MACGUISED, CLI = sys.argv[1:3]
# Burnt-in addresses of the test's cards: real Intel and Realtek blocks, as
# a network would see them without macguise.
BURNT_IN = ["00:1b:21:3a:4c:01", "00:e0:4c:68:00:02", "00:1b:21:3a:4c:03", "00:e0:4c:68:00:04",
            "00:1b:21:3a:4c:05"]


def assert_plausible(mac, burnt_in):
    assert mac != burnt_in, f"{mac}: the card's own address"
    assert int(mac[:2], 16) & 3 == 0, f"{mac}: not globally administered unicast"
    info = catalogue_lookup(CLI, mac)
    assert info["in_catalogue"] and "ethernet" in info["classes"], info


def policy(name, *settings):
    p = NM.run(CLI, "policy", name, *settings, ns=NM.ns, check=False)
    assert p.returncode == 0, p.stderr


def profile_on(nm, device):
    """The profile active on @device, once there is one."""
    box = {}

    def up():
        out = nm.nmcli("-t", "-f", "GENERAL.CONNECTION", "device", "show", device,
                       check=False).stdout.strip()
        box["name"] = out.split(":", 1)[1] if ":" in out else ""
        return box["name"] not in ("", "--")

    nm.wait_for(f"a profile active on {device}", up)
    return box["name"]


def first_contact(nm, device, burnt_in, connect):
    """A new card @device, its cable plugged in, @connect run: the frames
    the network received, and the profile that came up."""
    capture = os.path.join(nm.dir, f"frames-{device}.jsonl")
    peer_end = nm.new_adapter(device, burnt_in, capture)
    nm.plug_in(peer_end)
    connect()
    name = profile_on(nm, device)
    nm.wait_for(f"frames from {device}", lambda: len(nm.frames_from(capture)) > 0)
    return capture, name


def settled_address(nm, name, device):
    """Waits until macguised has written the link's address into the
    profile (and any re-activation is over): that address."""
    box = {}

    def settled():
        box["mac"] = nm.cloned(name)
        return box["mac"] == nm.link_mac(device) and \
            nm.nmcli("-g", "GENERAL.STATE", "device", "show", device).stdout.startswith("100")

    nm.wait_for(f"'{name}' settled with its address on {device}", settled, timeout=60)
    return box["mac"]


NM = NmNetns(auto_default=("mgauto*",), managed=("veth0", "mgdev*"), boot=MACGUISED).start()
NM.start_macguised(MACGUISED)
# Each test plugs in a card for macguised as it runs: not while it starts
# (it has NetworkManager reload its configuration then, and a card's
# profile found up when it starts is no first contact it saw).
NM.wait_for("macguised to follow NetworkManager",
            lambda: "following NetworkManager" in NM.log_text("macguised"))


@mgtap.test
def new_adapter_automatic_profile_is_on_the_air_only_with_a_macguise_address():
    capture, name = first_contact(NM, "mgauto0", BURNT_IN[0], lambda: None)
    mac = settled_address(NM, name, "mgauto0")
    assert_plausible(mac, BURNT_IN[0])
    seen = set(NM.frames_from(capture))
    # the address NetworkManager drew from macguise's defaults is kept: one
    # address from the first frame on, no second activation
    assert seen == {mac}, (seen, mac)
    status = NM.macguise_status(NM.uuid_of(name))
    assert status is not None and status.get("address") == mac, status


@mgtap.test
def nmcli_device_connect_is_on_the_air_only_with_macguise_addresses():
    capture, name = first_contact(NM, "mgdev0", BURNT_IN[1],
                                  lambda: NM.nmcli("device", "connect", "mgdev0", check=False,
                                                   timeout=90))
    mac = settled_address(NM, name, "mgdev0")
    seen = NM.frames_from(capture)
    for m in set(seen) | {mac}:
        assert_plausible(m, BURNT_IN[1])
    assert seen[-1] == mac, (seen, mac)


@mgtap.test
def connection_add_then_up_at_once_is_on_the_air_only_with_macguise_addresses():
    def add_and_up():
        NM.nmcli("connection", "add", "type", "ethernet", "ifname", "mgdev1", "con-name", "at-once",
                 "connection.autoconnect", "no")
        NM.nmcli("connection", "up", "at-once", check=False, timeout=90)

    capture, name = first_contact(NM, "mgdev1", BURNT_IN[2], add_and_up)
    assert name == "at-once", name
    mac = settled_address(NM, name, "mgdev1")
    seen = NM.frames_from(capture)
    for m in set(seen) | {mac}:
        assert_plausible(m, BURNT_IN[2])
    assert seen[-1] == mac, (seen, mac)


@mgtap.test
def up_on_an_active_profile_is_a_new_activation():
    # rotate=activation: two activations never share an address, also when
    # the second is `up` on a profile that is up (no deactivation between).
    policy("at-once", "rotate=activation")
    NM.nmcli("connection", "up", "at-once", check=False, timeout=90)
    first = settled_address(NM, "at-once", "mgdev1")
    NM.nmcli("connection", "up", "at-once", check=False, timeout=90)
    NM.wait_for("a new address on the link",
                lambda: NM.link_mac("mgdev1") != first and NM.cloned("at-once") != first,
                timeout=60)
    second = settled_address(NM, "at-once", "mgdev1")
    assert second != first
    assert_plausible(second, BURNT_IN[2])


@mgtap.test
def reverted_address_is_repaired_and_the_profile_comes_up_with_its_own():
    # A writer with a stale copy puts an earlier macguise address back while
    # the profile is up: macguised writes the current one again and brings
    # the profile up with it.
    policy("at-once", "rotate=daily")
    NM.nmcli("connection", "up", "at-once", check=False, timeout=90)
    older = settled_address(NM, "at-once", "mgdev1")
    keyfile = os.path.join(NM.dir, "system-connections", "at-once.nmconnection")
    with open(keyfile, encoding="utf-8") as f:
        stale = f.read()  # the copy, with the address and its mark
    p = NM.run(CLI, "rotate", "--now", "at-once", ns=NM.ns, check=False)
    assert p.returncode == 0, p.stderr
    NM.wait_for("the rotation on the link", lambda: NM.link_mac("mgdev1") != older, timeout=60)
    current = settled_address(NM, "at-once", "mgdev1")
    # the stale copy written back whole, as an editor opened before would
    with open(keyfile, "w", encoding="utf-8") as f:
        f.write(stale)
    NM.nmcli("connection", "load", keyfile)
    assert NM.cloned("at-once") in (older, current)
    NM.wait_for("the current address written back",
                lambda: NM.cloned("at-once") == current, timeout=30)
    NM.wait_for("the profile up again with it", lambda: NM.link_mac("mgdev1") == current,
                timeout=60)
    status = NM.macguise_status(NM.uuid_of("at-once"))
    assert status is not None and not status.get("user-owned", False), status


def status_of(name):
    status = NM.macguise_status(NM.uuid_of(name))
    assert status is not None, name
    return status


def up_on(name, device):
    """@name up, and the address its activation put on @device."""
    NM.nmcli("connection", "up", name, timeout=90)
    return NM.link_mac(device)


def own_lan(name, *settings):
    NM.nmcli("connection", "add", "type", "ethernet", "ifname", "mgdev2", "con-name", name,
             "connection.autoconnect", "no", "ipv4.method", "disabled", "ipv6.method", "disabled",
             *settings)


@mgtap.test
def mode_off_under_the_first_contact_defaults_carries_the_cards_own_address():
    # FreedomBox's shared LAN (mode=off, "the card's own address") with the
    # boot step's first-contact defaults in NetworkManager's configuration:
    # without an address of its own the profile would take their random
    # catalogue address at each activation.
    capture = os.path.join(NM.dir, "frames-mgdev2.jsonl")
    NM.plug_in(NM.new_adapter("mgdev2", BURNT_IN[4], capture))
    own_lan("own-lan")
    given = NM.wait_cloned("own-lan")
    policy("own-lan", "mode=off")
    NM.wait_for("macguise's address to leave the profile",
                lambda: NM.cloned("own-lan") != given, timeout=30)
    for _ in range(2):  # at every activation
        on_link = up_on("own-lan", "mgdev2")
        assert on_link == BURNT_IN[4], f"{on_link} on the link, not the card's own"
        NM.nmcli("connection", "down", "own-lan")
    assert NM.cloned("own-lan") == "permanent"
    assert not status_of("own-lan").get("user-owned", False)


@mgtap.test
def a_profile_off_from_the_start_carries_the_cards_own_address():
    # made with mode=off: it never had a macguise address to release
    path = os.path.join(NM.dir, "system-connections", "off-lan.nmconnection")
    with open(path, "w") as f:
        f.write("[connection]\nid=off-lan\nuuid=0b8c5f6e-7d2a-4e1b-9c3f-5a6b7c8d9e01\n"
                "type=ethernet\ninterface-name=mgdev2\nautoconnect=false\n\n[ethernet]\n\n"
                "[ipv4]\nmethod=disabled\n\n[ipv6]\nmethod=disabled\n\n[user]\n"
                "macguise.mode=off\n")
    os.chmod(path, 0o600)
    NM.nmcli("connection", "load", path)
    NM.wait_for("`permanent` in the profile", lambda: NM.cloned("off-lan") == "permanent",
                timeout=30)
    on_link = up_on("off-lan", "mgdev2")
    assert on_link == BURNT_IN[4], f"{on_link} on the link, not the card's own"
    NM.nmcli("connection", "down", "off-lan")
    NM.nmcli("connection", "delete", "off-lan")


@mgtap.test
def back_from_mode_off_macguise_takes_the_profile_up_and_a_permanent_typed_stays():
    # The `permanent` macguised wrote is not set by hand: back to a managed
    # mode, the profile gets an address of its own at once.
    policy("own-lan", "mode=")
    taken = NM.wait_cloned("own-lan", timeout=30)
    assert_plausible(taken, BURNT_IN[4])
    status = status_of("own-lan")
    assert status.get("address") == taken and not status.get("user-owned", False), status
    assert up_on("own-lan", "mgdev2") == taken
    NM.nmcli("connection", "down", "own-lan")
    # A `permanent` typed by hand is the user's: left alone, for good.
    NM.nmcli("connection", "modify", "own-lan", "802-3-ethernet.cloned-mac-address", "permanent")
    NM.wait_for("the profile to count as set by hand",
                lambda: status_of("own-lan").get("user-owned", False))
    policy("own-lan", "mode=off")
    policy("own-lan", "mode=")
    NM.macguised_caught_up()
    assert NM.cloned("own-lan") == "permanent" and status_of("own-lan").get("user-owned"), \
        status_of("own-lan")
    NM.nmcli("connection", "delete", "own-lan")


def first_contact_blocks():
    """The blocks the boot step's first-contact defaults have NetworkManager
    draw Ethernet addresses from."""
    conf = os.path.join(NM.dir, "conf.d", "90-macguise-first-contact.conf")
    with open(conf, encoding="utf-8") as f:
        mask = [line for line in f if line.startswith("ethernet.generate-mac-address-mask=")]
    return {oui.lower()[:8] for oui in mask[0].split("=", 1)[1].split()[1:]}


@mgtap.test
def a_bridge_takes_no_address_from_the_first_contact_defaults():
    # A bridge (as a bond, team, VLAN, macvlan…) takes NetworkManager's
    # global ethernet.cloned-mac-address default when its profile names no
    # address. macguise manages only Ethernet and Wi-Fi profiles, so it would
    # never keep one drawn there: a new address each activation (a server's
    # bridge a new DHCP lease each boot; a VLAN no longer following its
    # parent's). The defaults are for the devices macguise manages.
    NM.nmcli("connection", "add", "type", "bridge", "con-name", "br-mg", "ifname", "mgdev9",
             "connection.autoconnect", "no", "ipv4.method", "disabled", "ipv6.method",
             "disabled")
    blocks = first_contact_blocks()
    assert blocks, "the defaults list blocks"
    on_link = up_on("br-mg", "mgdev9")
    assert on_link[:8] not in blocks, f"{on_link}: drawn from macguise's first-contact defaults"
    NM.nmcli("connection", "down", "br-mg")
    NM.nmcli("connection", "delete", "br-mg")


@mgtap.test
def without_macguised_the_boot_defaults_alone_give_catalogue_addresses():
    # macguised not running (not installed yet, crashed, masked): the
    # defaults its boot step wrote still keep the card's own address off
    # the air, and each activation draws another.
    with NmNetns(auto_default=("mgauto*",), boot=MACGUISED) as nm:
        capture, name = first_contact(nm, "mgauto1", BURNT_IN[3], lambda: None)
        nm.wait_for("the activation's address on the link",
                    lambda: nm.link_mac("mgauto1") != BURNT_IN[3])
        first = nm.link_mac("mgauto1")
        assert_plausible(first, BURNT_IN[3])
        assert nm.cloned(name) == "", nm.cloned(name)
        nm.nmcli("device", "disconnect", "mgauto1")
        nm.nmcli("connection", "up", name, check=False, timeout=90)
        nm.wait_for("the second activation's address",
                    lambda: nm.link_mac("mgauto1") not in (first, BURNT_IN[3]))
        assert_plausible(nm.link_mac("mgauto1"), BURNT_IN[3])
        for m in set(nm.frames_from(capture)):
            assert_plausible(m, BURNT_IN[3])


def section_blocks(text, group, key):
    """The blocks a section of the first-contact defaults lists for @key."""
    section = text.split(f"[{group}]\n", 1)[1].split("\n[", 1)[0]
    mask = [line for line in section.splitlines()
            if line.startswith(f"{key}.generate-mac-address-mask=")]
    return {oui.lower()[:8] for oui in mask[0].split("=", 1)[1].split()[1:]}


@mgtap.test
def a_card_whose_driver_has_a_mix_draws_from_its_section():
    # The boot step's defaults give each chip family its own section, for
    # its drivers (match-device=driver:...), before the general one. A veth
    # is driver `veth`, which no mix takes; the r8152 family's section, made
    # to match the driver NetworkManager reports for the test's card, must
    # then give every activation an address from that family's blocks
    # (Realtek's and Lenovo's), as an RTL8153 adapter gets.
    burnt_in = "00:1b:21:3a:4c:07"
    with NmNetns(auto_default=("mgauto*",), boot=MACGUISED) as nm:
        conf = os.path.join(nm.dir, "conf.d", "90-macguise-first-contact.conf")
        with open(conf, encoding="utf-8") as f:
            text = f.read()
        group = "connection-macguise-first-contact-driver-r8152"
        family = section_blocks(text, group, "ethernet")
        general = section_blocks(text, "connection-macguise-first-contact", "ethernet")
        assert text.index(f"[{group}]") < text.index("[connection-macguise-first-contact]")
        assert "match-device=driver:r8152\n" in text
        capture = os.path.join(nm.dir, "frames-mgauto2.jsonl")
        peer_end = nm.new_adapter("mgauto2", burnt_in, capture)
        nm.wait_for("mgauto2 in NetworkManager", lambda: "mgauto2" in nm.nmcli(
            "-t", "-f", "DEVICE", "device", check=False).stdout)
        driver = nm.nmcli("-g", "GENERAL.DRIVER", "device", "show", "mgauto2").stdout.strip()
        assert driver == "veth", driver
        with open(conf, "w", encoding="utf-8") as f:
            f.write(text.replace("match-device=driver:r8152\n", f"match-device=driver:{driver}\n"))
        nm.nmcli("general", "reload", "conf")
        nm.plug_in(peer_end)
        name = profile_on(nm, "mgauto2")
        seen = []
        for _ in range(3):
            nm.wait_for("the activation's address on the link",
                        lambda: nm.link_mac("mgauto2") not in [burnt_in] + seen)
            seen.append(nm.link_mac("mgauto2"))
            nm.nmcli("device", "disconnect", "mgauto2")
            nm.nmcli("connection", "up", name, check=False, timeout=90)
        for mac in seen:
            assert mac[:8] in family, (mac, sorted(family), len(general))
        for mac in set(nm.frames_from(capture)):
            assert mac[:8] in family, f"{mac} on the air: not from the r8152 section"


@mgtap.test
def installed_without_reboot_macguised_alone_covers_first_contact():
    # The package installed without a reboot: its boot step never ran, so
    # NetworkManager has no first-contact defaults. macguised, which the
    # package starts, writes them and has NetworkManager reload its
    # configuration: a card then meets a network with a catalogue address
    # from its first frame, not from the next boot on. `nmcli device
    # connect` makes the profile and activates it in one step, so only
    # NetworkManager's defaults can choose the first activation's address.
    burnt_in = "00:e0:4c:68:00:06"
    with NmNetns(managed=("veth0", "mgdev*")) as nm:
        conf = os.path.join(nm.dir, "conf.d", "90-macguise-first-contact.conf")
        assert not os.path.exists(conf)
        nm.start_macguised(MACGUISED, first_contact=True)
        nm.wait_for("NetworkManager to reload macguised's first-contact defaults",
                    lambda: "NetworkManager reloaded its configuration"
                    in nm.log_text("macguised"))
        assert os.path.exists(conf)
        capture, name = first_contact(nm, "mgdev9", burnt_in,
                                      lambda: nm.nmcli("device", "connect", "mgdev9",
                                                       check=False, timeout=90))
        mac = settled_address(nm, name, "mgdev9")
        seen = nm.frames_from(capture)
        for m in set(seen) | {mac}:
            assert_plausible(m, burnt_in)
        assert seen[-1] == mac, (seen, mac)

try:
    mgtap.run()
finally:
    NM.stop()
