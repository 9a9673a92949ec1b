#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A station on the peer side of the test link, for the link-check tests.

  peer.py answer-all IFACE     answer every duplicate address probe, IPv6
                               (Neighbour Advertisement) and ARP (reply), from
                               IFACE's own address: a hostile or broken LAN
  peer.py send-as IFACE MAC    send a frame with source address MAC every
                               20 ms: a station that uses MAC but runs no IP
  peer.py echo IFACE FILE      send back every broadcast or multicast frame
                               received, unchanged, as a Wi-Fi access point
                               repeats a station's to every station, the
                               sender too; one line a frame echoed to FILE
  peer.py capture IFACE FILE   write one JSON line per received link check
                               probe: {"kind": "arp-probe"|"ns-dad", "src": MAC}
  peer.py frames IFACE FILE READY
                               write one JSON line per frame received, from
                               the first: {"src": MAC, "type": ethertype,
                               "raw": the frame in hex},
                               and for a DHCP client's message "dhcp":
                               {"msg": option 53, "requested": option 50 or
                               null, "ciaddr": its ciaddr or null}, and for
                               a probe "probe": "arp-probe" or "ns-dad"; READY is
                               created once the socket listens
Runs until it is sent SIGTERM."""
import json
import os
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003


def mac_text(b):
    return ":".join(f"{x:02x}" for x in b)


def open_socket(iface):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.bind((iface, 0))
    return s


def own_mac(iface):
    with open(f"/sys/class/net/{iface}/address") as f:
        return bytes.fromhex(f.read().strip().replace(":", ""))


def icmp6_checksum(src, dst, payload):
    data = src + dst + struct.pack("!I3xB", len(payload), 58) + payload
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return (~total) & 0xFFFF


def probe_kind(frame):
    """'arp-probe' or 'ns-dad' for a link-check probe, else None."""
    etype = struct.unpack("!H", frame[12:14])[0]
    if etype == 0x0806 and len(frame) >= 42:
        op = struct.unpack("!H", frame[20:22])[0]
        if op == 1 and frame[28:32] == b"\0\0\0\0":
            return "arp-probe"
    if etype == 0x86DD and len(frame) >= 78 and frame[20] == 58 and frame[54] == 135 \
            and frame[22:38] == bytes(16):
        return "ns-dad"
    return None


def answer_all(iface):
    s = open_socket(iface)
    me = own_mac(iface)
    while True:
        try:
            frame, addr = s.recvfrom(2048)
        except OSError:
            continue
        if addr[2] == socket.PACKET_OUTGOING:
            continue
        kind = probe_kind(frame)
        if kind == "arp-probe":
            sha, tpa = frame[22:28], frame[38:42]
            arp = struct.pack("!HHBBH", 1, 0x0800, 6, 4, 2) + me + tpa + sha + b"\0\0\0\0"
            s.send((sha + me + b"\x08\x06" + arp).ljust(60, b"\0"))
        elif kind == "ns-dad":
            target = frame[62:78]
            src = bytes.fromhex("fe80000000000000") + bytes([me[0] ^ 2]) + me[1:3] + b"\xff\xfe" + me[3:]
            dst = bytes.fromhex("ff020000000000000000000000000001")
            # override flag, target, and a target link-layer address option
            na = struct.pack("!BBHI", 136, 0, 0, 0x20000000) + target + b"\x02\x01" + me
            na = na[:2] + struct.pack("!H", icmp6_checksum(src, dst, na)) + na[4:]
            ip6 = struct.pack("!IHBB", 0x60000000, len(na), 58, 255) + src + dst
            s.send(b"\x33\x33\x00\x00\x00\x01" + me + b"\x86\xdd" + ip6 + na)


def send_as(iface, mac):
    s = open_socket(iface)
    src = bytes.fromhex(mac.replace(":", ""))
    # IEEE 802 "local experimental" ethertype: no stack answers it
    frame = (b"\xff" * 6 + src + b"\x88\xb5" + b"macguise test").ljust(60, b"\0")
    while True:
        try:
            s.send(frame)
        except OSError:
            pass
        time.sleep(0.02)


def echo(iface, path):
    s = open_socket(iface)
    with open(path, "a") as out:
        while True:
            try:
                frame, addr = s.recvfrom(2048)
            except OSError:
                continue
            if addr[2] == socket.PACKET_OUTGOING or not frame[0] & 1:
                continue
            try:
                s.send(frame)
            except OSError:
                continue
            out.write(json.dumps({"src": mac_text(frame[6:12]), "type": frame[12:14].hex()}) + "\n")
            out.flush()


def capture(iface, path):
    s = open_socket(iface)
    with open(path, "a") as out:
        while True:
            try:
                frame, addr = s.recvfrom(2048)
            except OSError:  # ENETDOWN while the test takes the link down
                continue
            if addr[2] == socket.PACKET_OUTGOING:
                continue
            kind = probe_kind(frame)
            if kind:
                seen = {"kind": kind, "src": mac_text(frame[6:12]), "time": time.monotonic()}
                if kind == "ns-dad":
                    # the address it asks about, and its RFC 7527 nonce option
                    seen["target"] = socket.inet_ntop(socket.AF_INET6, frame[62:78])
                    seen["nonce"] = len(frame) >= 86 and frame[78] == 14 and frame[79] == 1
                out.write(json.dumps(seen) + "\n")
                out.flush()


def ipv4_text(b):
    return ".".join(str(x) for x in b)


def dhcp_client_message(frame):
    """For a DHCP message to a server (UDP to port 67): its type (option
    53), the address it asks for (option 50) and its ciaddr; else None."""
    if len(frame) < 14 + 20 + 8 + 240 or struct.unpack("!H", frame[12:14])[0] != 0x0800:
        return None
    ihl = (frame[14] & 0x0F) * 4
    if frame[23] != 17:
        return None
    udp = 14 + ihl
    if struct.unpack("!H", frame[udp + 2:udp + 4])[0] != 67:
        return None
    bootp = frame[udp + 8:]
    if len(bootp) < 240 or bootp[236:240] != b"\x63\x82\x53\x63":
        return None
    ciaddr = bootp[12:16]
    found = {"msg": None, "requested": None,
             "ciaddr": ipv4_text(ciaddr) if ciaddr != bytes(4) else None}
    i = 240
    while i < len(bootp) and bootp[i] != 255:
        if bootp[i] == 0:
            i += 1
            continue
        if i + 1 >= len(bootp):
            break
        code, size = bootp[i], bootp[i + 1]
        value = bootp[i + 2:i + 2 + size]
        if code == 53 and size == 1:
            found["msg"] = value[0]
        elif code == 50 and size == 4:
            found["requested"] = ipv4_text(value)
        i += 2 + size
    return found


def frames(iface, path, ready):
    s = open_socket(iface)
    open(ready, "w").close()
    with open(path, "a") as out:
        while True:
            try:
                frame, addr = s.recvfrom(2048)
            except OSError:
                continue
            if addr[2] == socket.PACKET_OUTGOING or len(frame) < 14:
                continue
            record = {"src": mac_text(frame[6:12]),
                      "type": struct.unpack("!H", frame[12:14])[0],
                      "time": time.monotonic(), "raw": frame.hex()}
            dhcp = dhcp_client_message(frame)
            if dhcp is not None:
                record["dhcp"] = dhcp
            probe = probe_kind(frame)
            if probe is not None:
                record["probe"] = probe
            out.write(json.dumps(record) + "\n")
            out.flush()


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "answer-all":
        answer_all(sys.argv[2])
    elif cmd == "send-as":
        send_as(sys.argv[2], sys.argv[3])
    elif cmd == "echo":
        echo(sys.argv[2], sys.argv[3])
    elif cmd == "capture":
        capture(sys.argv[2], sys.argv[3])
    elif cmd == "frames":
        frames(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(f"unknown command {cmd}")
