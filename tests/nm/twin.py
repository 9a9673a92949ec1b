# SPDX-License-Identifier: GPL-3.0-or-later
"""A host with the same MAC address as the test's station, behind a switch
on the test link of an NmNetns (nmnetns.py)."""
import sys

from reaper import reaper


class SwitchedTwin:
    """A Linux host with @mac behind a switch: the peer's end of the cable
    becomes a port of a bridge (a switch), and the twin, in a namespace of
    its own on another port, keeps its link up whatever ours does: no
    carrier change wakes it when ours comes up. It has an IPv4 address and
    the EUI-64 link-local address its kernel makes, and says nothing until
    it is asked to (each of its link-up messages goes out before ours is
    up)."""
    def __init__(self, nm, mac):
        self.nm = nm
        self.ns = nm.peer + "-twin"
        self.mac = mac

    def __enter__(self):
        try:
            return self._enter()
        except BaseException:
            self.__exit__()  # a with statement does not, when entering fails
            raise

    def _enter(self):
        peer = lambda *cmd: self.nm.run(*cmd, ns=self.nm.peer)  # noqa: E731
        reaper().netns(self.ns)
        if self.nm.run("ip", "netns", "add", self.ns, check=False).returncode != 0:
            reaper().forget("netns", self.ns)  # a name taken is not ours
            raise RuntimeError(f"ip netns add {self.ns} failed")
        peer("ip", "addr", "flush", "dev", "veth1")
        peer("ip", "link", "add", "br0", "type", "bridge", "stp_state", "0", "forward_delay", "0")
        peer("ip", "link", "set", "veth1", "master", "br0")
        peer("ip", "link", "add", "twinp", "type", "veth", "peer", "name", "twin0", "netns",
             self.ns)
        peer("ip", "link", "set", "twinp", "master", "br0")
        peer("ip", "addr", "add", "10.77.0.1/24", "dev", "br0")
        for dev in ("br0", "twinp", "veth1"):
            peer("ip", "link", "set", dev, "up")
        twin = lambda *cmd: self.nm.run(*cmd, ns=self.ns)  # noqa: E731
        twin("ip", "link", "set", "twin0", "address", self.mac)
        # a host that has been up a while: its link-up burst (router
        # solicitations every 4 s, unsolicited MLD reports) is over
        twin("sysctl", "-q", "net.ipv6.conf.twin0.router_solicitations=0",
             "net.ipv6.conf.twin0.mldv2_unsolicited_report_interval=1",
             "net.ipv6.conf.twin0.mldv1_unsolicited_report_interval=1")
        twin("ip", "addr", "add", "10.77.0.5/24", "dev", "twin0")
        twin("ip", "link", "set", "twin0", "up")
        self.nm.wait_for("the twin's link-local address to leave tentative state",
                         lambda: "fe80" in twin("ip", "-6", "addr", "show", "dev", "twin0").stdout
                         and "tentative" not in twin("ip", "-6", "addr", "show", "dev",
                                                     "twin0").stdout)
        return self

    def speaks(self):
        """Everyday traffic: a datagram to a neighbour that has gone, so
        its kernel asks everyone with ARP requests, one a second
        (mcast_probes)."""
        self.nm.run(sys.executable, "-c", "import socket; socket.socket(socket.AF_INET, "
                    "socket.SOCK_DGRAM).sendto(b'x', ('10.77.0.99', 9))", ns=self.ns)

    def __exit__(self, *exc):
        # the pair goes at once (a namespace's devices go when the kernel
        # gets round to it)
        self.nm.run("ip", "link", "del", "twinp", ns=self.nm.peer, check=False)
        if self.nm.run("ip", "netns", "del", self.ns, check=False).returncode == 0:
            reaper().forget("netns", self.ns)
        self.nm.run("ip", "link", "del", "br0", ns=self.nm.peer, check=False)
        self.nm.run("ip", "addr", "add", "10.77.0.1/24", "dev", "veth1", ns=self.nm.peer,
                    check=False)
        return False
