# SPDX-License-Identifier: GPL-3.0-or-later
"""What a network can record about a station from the frames it sends: each
frame decoded into the identifiers a DHCP server, a router or a listener on
the link keeps (by kind), for the test that two sessions of one profile
share none of them. Frames come as bytes (a capture's "raw" hex).

Kinds: "mac" (Ethernet source, ARP sender, DHCP chaddr, ND link-layer
options), "ipv4" (source and ARP sender addresses), "dhcp4-client-id" (61),
"dhcp4-hostname" (12), "dhcp4-fqdn" (81), "dhcp4-requested" (50, ciaddr),
"dhcp6-duid" (client identifier, 1), "dhcp6-iaid" (IA_NA/IA_TA/IA_PD),
"dhcp6-address" (addresses asked for in an IA), "dhcp6-fqdn" (39),
"ipv6" (source addresses and DAD targets), "ipv6-iid" (their interface
identifiers), "mld-solicited-node" (solicited-node groups a report joins or
is in), "mld-left" (those it says it has left)."""
import socket
import struct

ETH_IPV4, ETH_ARP, ETH_IPV6 = 0x0800, 0x0806, 0x86DD
UNSPECIFIED6 = bytes(16)
SOLICITED_NODE = bytes.fromhex("ff02" + "00" * 9 + "01ff")  # ff02::1:ff00:0/104


def mac_text(b):
    return ":".join(f"{x:02x}" for x in b)


def ip6_text(b):
    return socket.inet_ntop(socket.AF_INET6, bytes(b))


def ip4_text(b):
    return ".".join(str(x) for x in b)


def _dns_name(b):
    """A DNS wire-format name (RFC 1035 labels), as text; a name sent as
    plain text (FQDN's old ASCII form) as it is."""
    labels, i = [], 0
    while i < len(b) and b[i] != 0:
        n = b[i]
        if n > 63 or i + 1 + n > len(b):
            return b.decode("ascii", "replace")
        labels.append(b[i + 1:i + 1 + n].decode("ascii", "replace"))
        i += 1 + n
    return ".".join(labels)


def _add(found, kind, value):
    found.setdefault(kind, set()).add(value)


def _ipv6_address(found, addr):
    """An address of ours: the address and its interface identifier."""
    if addr == UNSPECIFIED6 or addr[0] == 0xFF:
        return
    _add(found, "ipv6", ip6_text(addr))
    _add(found, "ipv6-iid", addr[8:].hex())


def _dhcp4(found, bootp):
    if len(bootp) < 240 or bootp[236:240] != b"\x63\x82\x53\x63":
        return
    hlen = bootp[2]
    if bootp[1] == 1 and hlen == 6:
        _add(found, "mac", mac_text(bootp[28:34]))
    if bootp[12:16] != bytes(4):
        _add(found, "dhcp4-requested", ip4_text(bootp[12:16]))
    i = 240
    while i + 1 < len(bootp) and bootp[i] != 255:
        if bootp[i] == 0:
            i += 1
            continue
        code, size = bootp[i], bootp[i + 1]
        value = bootp[i + 2:i + 2 + size]
        i += 2 + size
        if code == 61:
            _add(found, "dhcp4-client-id", value.hex())
        elif code == 12:
            _add(found, "dhcp4-hostname", value.decode("ascii", "replace"))
        elif code == 81 and size >= 3:
            # flags, two obsolete RCODEs, the name (wire format if flag E)
            name = _dns_name(value[3:]) if value[0] & 4 else value[3:].decode("ascii", "replace")
            _add(found, "dhcp4-fqdn", name)
        elif code == 50 and size == 4:
            _add(found, "dhcp4-requested", ip4_text(value))


def _dhcp6_options(found, data):
    i = 0
    while i + 4 <= len(data):
        code, size = struct.unpack("!HH", data[i:i + 4])
        value = data[i + 4:i + 4 + size]
        i += 4 + size
        if code == 1:
            _add(found, "dhcp6-duid", value.hex())
        elif code in (3, 25) and size >= 12:  # IA_NA, IA_PD: IAID, T1, T2, options
            _add(found, "dhcp6-iaid", value[:4].hex())
            _dhcp6_options(found, value[12:])
        elif code == 4 and size >= 4:  # IA_TA: IAID, options
            _add(found, "dhcp6-iaid", value[:4].hex())
            _dhcp6_options(found, value[4:])
        elif code == 5 and size >= 24:  # IA address, asked for
            _add(found, "dhcp6-address", ip6_text(value[:16]))
        elif code == 26 and size >= 25:  # IA prefix, asked for
            _add(found, "dhcp6-address", ip6_text(value[9:25]))
        elif code == 39 and size >= 1:
            _add(found, "dhcp6-fqdn", _dns_name(value[1:]))


def _udp(found, payload, sport, dport):
    if dport == 67 and sport == 68:
        _dhcp4(found, payload)
    elif dport == 547 and len(payload) >= 4:
        _dhcp6_options(found, payload[4:])  # message type, transaction id


def _ipv4(found, pkt):
    if len(pkt) < 20:
        return
    ihl = (pkt[0] & 0x0F) * 4
    if pkt[12:16] != bytes(4):
        _add(found, "ipv4", ip4_text(pkt[12:16]))
    if pkt[9] == 17 and len(pkt) >= ihl + 8:
        sport, dport = struct.unpack("!HH", pkt[ihl:ihl + 4])
        _udp(found, pkt[ihl + 8:], sport, dport)


def _nd_options(found, data):
    i = 0
    while i + 2 <= len(data) and data[i + 1] > 0:
        kind, size = data[i], data[i + 1] * 8
        if kind in (1, 2) and size >= 8:  # source, target link-layer address
            _add(found, "mac", mac_text(data[i + 2:i + 8]))
        i += size


def _mld_report(found, icmp):
    """Solicited-node groups a report joins or is in, and those it leaves
    (an MLDv2 record changing to INCLUDE with no source, an MLDv1 Done)."""
    records = []
    if icmp[0] in (131, 132) and len(icmp) >= 24:  # MLDv1 report, done
        records.append((icmp[0] == 132, icmp[8:24]))
    elif icmp[0] == 143 and len(icmp) >= 8:  # MLDv2 report: records
        count, i = struct.unpack("!H", icmp[6:8])[0], 8
        for _ in range(count):
            if i + 20 > len(icmp):
                break
            kind, aux, sources = icmp[i], icmp[i + 1], struct.unpack("!H", icmp[i + 2:i + 4])[0]
            records.append((kind == 3 and sources == 0, icmp[i + 4:i + 20]))
            i += 20 + 16 * sources + 4 * aux
    for left, group in records:
        if group[:13] == SOLICITED_NODE:
            _add(found, "mld-left" if left else "mld-solicited-node", ip6_text(group))


def _ipv6(found, pkt):
    if len(pkt) < 40:
        return
    src, nxt, payload = pkt[8:24], pkt[6], pkt[40:]
    _ipv6_address(found, src)
    if nxt == 0 and len(payload) >= 8:  # hop-by-hop options (MLD's router alert)
        nxt, payload = payload[0], payload[(payload[1] + 1) * 8:]
    if nxt == 17 and len(payload) >= 8:
        sport, dport = struct.unpack("!HH", payload[:4])
        _udp(found, payload[8:], sport, dport)
    elif nxt == 58 and len(payload) >= 4:
        kind = payload[0]
        if kind == 135 and len(payload) >= 24:  # neighbour solicitation
            if src == UNSPECIFIED6:  # DAD: the target is the address we will have
                _ipv6_address(found, payload[8:24])
            _nd_options(found, payload[24:])
        elif kind == 136 and len(payload) >= 24:  # neighbour advertisement
            _ipv6_address(found, payload[8:24])
            _nd_options(found, payload[24:])
        elif kind == 133:  # router solicitation
            _nd_options(found, payload[8:])
        elif kind in (131, 132, 143):
            _mld_report(found, payload)


def identifiers(frame):
    """{kind: set of values} a network can record from @frame (bytes)."""
    found = {}
    if len(frame) < 14:
        return found
    _add(found, "mac", mac_text(frame[6:12]))
    etype = struct.unpack("!H", frame[12:14])[0]
    body = frame[14:]
    if etype == ETH_ARP and len(body) >= 28:
        _add(found, "mac", mac_text(body[8:14]))
        if body[14:18] != bytes(4):
            _add(found, "ipv4", ip4_text(body[14:18]))
    elif etype == ETH_IPV4:
        _ipv4(found, body)
    elif etype == ETH_IPV6:
        _ipv6(found, body)
    return found


def session(frames):
    """The identifiers of a run of frames, merged: {kind: set}."""
    merged = {}
    for frame in frames:
        for kind, values in identifiers(frame).items():
            merged.setdefault(kind, set()).update(values)
    return merged
