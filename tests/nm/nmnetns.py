# SPDX-License-Identifier: GPL-3.0-or-later
"""A real NetworkManager in throwaway network namespaces, for integration
tests (the recipe in shared/nm-netns.md).

Namespace "nm" holds NetworkManager and veth0; namespace "peer" holds the
other end, veth1. A private system bus, udevd and NetworkManager run with
every path inside a temporary directory. Everything started is ended by its
own pid, and both namespaces are deleted, on failure too. Nothing outside the
namespaces and the temporary directory is touched. Each of them is told to
the test process's reaper (reaper.py) before it exists, which ends and
deletes what is left of them if the test process dies before its cleanup
is done (a timeout's SIGKILL, kill -9).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import time

from reaper import reaper

DBUS_CONF = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={bus}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
  </policy>
  <!-- The limits NetworkManager's own bus policy (system.d) sets on a real
       system bus; dbus-daemon's default of 128 pending replies would stall
       libnm clients when hundreds of profiles appear at once. -->
  <limit name="max_replies_per_connection">{max_replies}</limit>
  <limit name="max_match_rules_per_connection">2048</limit>
</busconfig>
"""

# Run by `unshare --mount` in the NetworkManager namespace: a private /run
# whose system bus socket is the test's bus, and the test's dispatcher
# directories over NetworkManager's (hiding the machine's own scripts).
DISPATCHER_SH = """set -e
mount -t tmpfs -o mode=0755 mg-run /run
mkdir /run/dbus
ln -s "$MG_BUS" /run/dbus/system_bus_socket
mkdir /run/macguise
mount --bind "$MG_RUNTIME" /run/macguise
mount --bind "$MG_DISPATCH/etc" /etc/NetworkManager/dispatcher.d
if [ -d /usr/lib/NetworkManager/dispatcher.d ]; then
  mount --bind "$MG_DISPATCH/lib" /usr/lib/NetworkManager/dispatcher.d
fi
# Debian 12 keeps it in /usr/lib/NetworkManager, Debian 13 in /usr/libexec.
for exe in /usr/libexec/nm-dispatcher /usr/lib/NetworkManager/nm-dispatcher; do
  if [ -x "$exe" ]; then exec "$exe" --persist --debug; fi
done
echo "nm-dispatcher not found" >&2
exit 127
"""

PEER_PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peer.py")
# Run by `unshare --mount` in the NetworkManager namespace: NetworkManager
# sees a private /run (with the machine's /run/udev, which udevd in the
# namespace fills, and the test's bus) and a private /var/lib/NetworkManager,
# so it neither reads the machine's runtime configuration nor writes its
# secret_key, leases or timestamps there.
NM_SH = """set -e
mkdir -p "$MG_NM_LIB" "$MG_UDEV_KEEP"
mount --rbind /run/udev "$MG_UDEV_KEEP"
mount -t tmpfs -o mode=0755 mg-nm-run /run
mkdir /run/udev /run/dbus
mount --move "$MG_UDEV_KEEP" /run/udev
ln -s "$MG_BUS" /run/dbus/system_bus_socket
mount --bind "$MG_NM_LIB" /var/lib/NetworkManager
exec "$@"
"""

MAC_RE = re.compile(r"^[0-9a-f]{2}(:[0-9a-f]{2}){5}$")
SANITIZER_RE = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:")

NM_CONF = """[main]
plugins=keyfile
dhcp=internal
dns=none
rc-manager=unmanaged
no-auto-default={no_auto_default}
[keyfile]
path={dir}/system-connections
unmanaged-devices={unmanaged}
[logging]
level=INFO
"""

# Debian's udev rules mark veth devices unmanaged; a device section manages
# the test's as NetworkManager would a real card.
NM_CONF_MANAGED = """[device-mg-managed]
match-device={match}
managed=1
"""


def history_entry(key, mac):
    """The state's history entry for @mac under @key: the first 20 bits, in
    hex, of its keyed BLAKE2b digest (core/mg-state-private.h)."""
    import hashlib
    return hashlib.blake2b(b"macguise history v1" + bytes.fromhex(mac.replace(":", "")),
                           key=key, digest_size=16).hexdigest()[:5]


def history_entries(state_dir):
    """The secret key and the history entries of the state in @state_dir."""
    with open(os.path.join(state_dir, "secret.key"), "rb") as f:
        key = f.read()
    with open(os.path.join(state_dir, "state"), encoding="utf-8") as f:
        return key, set(re.findall(r"^([0-9a-f]{5})=", f.read(), re.M))


def catalogue_lookup(cli, mac):
    """What `macguise lookup` says of @mac: its vendor, classes, whether the
    catalogue holds its block."""
    p = subprocess.run([cli, "lookup", "--json", mac], capture_output=True, text=True, check=True)
    return json.loads(p.stdout)[0]


def strict_bus_conf(bus):
    """A bus that enforces what a real system bus does: the default policy
    of Debian's system.conf (no name owned, no method called unless a
    policy file allows it), the policy files installed for NetworkManager
    and nm-dispatcher, and macguise's own from the source tree."""
    with open("/usr/share/dbus-1/system.conf", encoding="utf-8") as f:
        policies = re.findall(r"<policy\b.*?</policy>", f.read(), re.S)
    ours = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data",
                        "org.macguise.Daemon1.conf")
    return "\n".join([
        '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"',
        ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">',
        "<busconfig>", "  <type>system</type>", f"  <listen>unix:path={bus}</listen>",
        "  <auth>EXTERNAL</auth>", *policies,
        "  <includedir>/usr/share/dbus-1/system.d</includedir>",
        f"  <include>{os.path.realpath(ours)}</include>",
        '  <limit name="max_replies_per_connection">1024</limit>',
        "</busconfig>", ""])


def _exit_on_sigterm(signum, frame):
    # (a second SIGTERM must not cut the cleanup short)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise SystemExit(128 + signum)


class NmNetns:
    def __init__(self, strict_bus=False, managed=("veth0",), auto_default=(), boot=None,
                 max_replies=1024, system_config_dir=None):
        """@managed: the interface names (globs) NetworkManager manages;
        every other device in its namespace is left alone. @auto_default:
        names (globs) of devices that get NetworkManager's automatic
        "Wired connection" profile, as a newly plugged card does. @boot:
        macguised, run with --boot before NetworkManager starts, as the
        boot unit does. @max_replies: the bus's limit on a client's pending
        calls (1,024, NetworkManager's own policy, unless a benchmark needs
        more). @system_config_dir: where NetworkManager reads packaged
        configuration (the test's own empty one unless given; read only)."""
        self.max_replies = max_replies
        self.system_config_dir = system_config_dir
        self.strict_bus = strict_bus
        self.managed = tuple(managed) + tuple(auto_default)
        self.auto_default = tuple(auto_default)
        self.boot = boot
        tag = f"{os.getpid()}-{time.monotonic_ns() % 100000}"
        self.ns = f"mg-nm-{tag}"
        self.peer = f"mg-peer-{tag}"
        self.dir = reaper().mkdtemp("mg-nm-")
        self.bus = os.path.join(self.dir, "bus")
        # NetworkManager's /var/lib/NetworkManager (its DHCP leases), bound
        # there in its own mount namespace
        self.nm_lib = os.path.join(self.dir, "nm-lib")
        # Criticals are bugs and abort; warnings are what the programs report
        # to people (a profile that cannot be recovered, say) and must not.
        self.env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=f"unix:path={self.bus}",
                        G_DEBUG="fatal-criticals")
        # No packaged macguise defaults (an installed freedombox-macguise-
        # defaults, say) unless a test gives its own.
        self.env.setdefault("MACGUISE_PACKAGED_CONF_DIR", os.path.join(self.dir, "packaged-conf.d"))
        self.pids = []  # everything we started, ended in reverse order
        self.namespaces = []
        self.logs = []

    # -- helpers -----------------------------------------------------------
    def run(self, *cmd, ns=None, check=True, timeout=30):
        full = (["ip", "netns", "exec", ns] if ns else []) + list(cmd)
        p = subprocess.run(full, env=self.env, capture_output=True, text=True, timeout=timeout)
        if check and p.returncode != 0:
            raise RuntimeError(f"{' '.join(full)}: {p.returncode}: {p.stderr.strip()}")
        return p

    def nmcli(self, *args, check=True, timeout=30):
        return self.run("nmcli", *args, ns=self.ns, check=check, timeout=timeout)

    def spawn(self, name, *cmd, ns=None, env=None):
        # Appended to, so a restarted process keeps its earlier log.
        log = open(os.path.join(self.dir, name + ".log"), "a")
        self.logs.append(log)
        full = (["ip", "netns", "exec", ns] if ns else []) + list(cmd)
        p = reaper().spawn(full, env=env or self.env, stdout=log, stderr=subprocess.STDOUT)
        self.pids.append((name, p))
        return p

    def wait_for(self, what, predicate, timeout=20.0):
        # A bound on a stall, not on speed: memcheck makes macguised some ten
        # times slower, so the same event may take longer to come.
        if os.environ.get("MG_VALGRIND") == "1":
            timeout *= 3
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return
            for name, p in self.pids:
                if p.poll() is not None:
                    raise RuntimeError(f"{name} exited ({p.returncode}) while waiting for {what}:\n"
                                       + self.log_tail(name))
            time.sleep(0.05)
        raise TimeoutError(f"timed out waiting for {what}; macguised's log ends:\n"
                           + self.log_tail("macguised", lines=15))

    def log_text(self, name):
        """Everything process @name has logged so far."""
        try:
            with open(os.path.join(self.dir, name + ".log"), encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def log_tail(self, name, lines=30):
        return "".join(self.log_text(name).splitlines(keepends=True)[-lines:])

    # -- life cycle ----------------------------------------------------------
    def start(self):
        # A timeout's SIGTERM ends the test through its `finally`, which
        # ends what it started by pid and deletes its namespaces; the default
        # action would leave NetworkManager, D-Bus and udevd running. What
        # the SIGKILL that follows (half a second later) cuts short, the
        # reaper finishes.
        if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _exit_on_sigterm)
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self):
        for ns in (self.ns, self.peer):
            reaper().netns(ns)  # told before it exists
            self.namespaces.append(ns)
            add = self.run("ip", "netns", "add", ns, check=False)
            if add.returncode != 0:  # (a name taken is not ours to delete)
                self.namespaces.remove(ns)
                reaper().forget("netns", ns)
                raise RuntimeError(f"ip netns add {ns}: {add.stderr.strip()}")
        self.run("ip", "link", "add", "veth0", "netns", self.ns, "type", "veth",
                 "peer", "name", "veth1", "netns", self.peer)
        self.run("ip", "link", "set", "lo", "up", ns=self.peer)
        self.run("ip", "link", "set", "veth1", "up", ns=self.peer)

        conf = os.path.join(self.dir, "dbus.conf")
        with open(conf, "w") as f:
            f.write(strict_bus_conf(self.bus) if self.strict_bus else DBUS_CONF.format(bus=self.bus, max_replies=self.max_replies))
        self.spawn("dbus", "dbus-daemon", "--nofork", f"--config-file={conf}")
        self.wait_for("the private bus", lambda: os.path.exists(self.bus))

        self.spawn("udevd", "/lib/systemd/systemd-udevd", ns=self.ns)
        time.sleep(0.2)
        self.run("udevadm", "trigger", "--subsystem-match=net", "--action=add", ns=self.ns)
        self.run("udevadm", "settle", "--timeout=10", ns=self.ns, check=False)

        for d in ("system-connections", "conf.d", "sysconf.d"):
            os.makedirs(os.path.join(self.dir, d), exist_ok=True)
        os.chmod(os.path.join(self.dir, "system-connections"), 0o700)
        nm_conf = os.path.join(self.dir, "nm.conf")
        spec = lambda names: ";".join(f"interface-name:{n}" for n in names)  # noqa: E731
        with open(nm_conf, "w") as f:
            f.write(NM_CONF.format(
                dir=self.dir,
                unmanaged=";".join(f"except:interface-name:{name}" for name in self.managed),
                no_auto_default=f"except:{spec(self.auto_default)}" if self.auto_default
                else "*"))
            f.write(NM_CONF_MANAGED.format(match=spec(self.managed)))
        if self.boot is not None:
            self.run_boot_step(self.boot)
        self.start_nm()

    def use_macguise_dirs(self):
        """macguise's state, configuration and runtime directories, in the
        test directory, for every macguise program started from now on."""
        for d in ("state", "config", "run"):
            os.makedirs(os.path.join(self.dir, d), exist_ok=True)
        self.env["STATE_DIRECTORY"] = os.path.join(self.dir, "state")
        self.env["RUNTIME_DIRECTORY"] = os.path.join(self.dir, "run")
        self.env["CONFIGURATION_DIRECTORY"] = os.path.join(self.dir, "config")

    def run_boot_step(self, exe, check=True):
        """macguised --boot, with NetworkManager's keyfiles and
        configuration directory those of the test."""
        self.use_macguise_dirs()
        return self.run(exe, "--boot", f"--keyfile-dir={self.dir}/system-connections",
                        f"--nm-conf-dir={self.dir}/conf.d", f"--nm-state-dir={self.nm_lib}",
                        ns=self.ns, check=check)

    def start_nm(self):
        d = self.dir
        nm_conf = os.path.join(d, "nm.conf")
        env = dict(self.env, MG_BUS=self.bus, MG_NM_LIB=self.nm_lib,
                   MG_UDEV_KEEP=os.path.join(d, "udev-keep"))
        self.spawn("nm", "unshare", "--mount", "--propagation", "private", "sh", "-c", NM_SH, "sh",
                   "NetworkManager", "--debug", f"--config={nm_conf}",
                   f"--config-dir={d}/conf.d", f"--system-config-dir={self.system_config_dir or d + '/sysconf.d'}",
                   f"--intern-config={d}/intern.conf", f"--state-file={d}/nm.state",
                   f"--pid-file={d}/nm.pid", ns=self.ns, env=env)
        self.wait_for("NetworkManager", lambda: self.nmcli("general", "status", check=False).returncode == 0)
        self.wait_for("veth0 in NetworkManager",
                      lambda: "veth0" in self.nmcli("-t", "-f", "DEVICE", "device", check=False).stdout)
        self.nmcli("device", "set", "veth0", "managed", "yes")

    def end(self, name, sig=signal.SIGTERM):
        """Ends one process we started, by its pid, and forgets it."""
        for i, (n, p) in enumerate(self.pids):
            if n == name:
                if p.poll() is None:
                    p.send_signal(sig)
                    p.wait(timeout=20)
                reaper().forget("pid", p.pid)
                del self.pids[i]
                return
        raise KeyError(name)

    def start_macguised(self, exe, *args, env=None, first_contact=False):
        """macguised in the NetworkManager namespace, its state and
        configuration in the test directory; @env: more environment.
        @first_contact: it keeps its first-contact defaults in
        NetworkManager's configuration directory, as installed; else in one
        NetworkManager does not read, so that a test meets only the
        defaults it asks for (its boot step's, say)."""
        self.use_macguise_dirs()
        conf_dir = os.path.join(self.dir, "conf.d" if first_contact else "macguised-conf.d")
        # MG_VALGRIND=1: macguised under memcheck, its report checked at stop.
        wrap = []
        if os.environ.get("MG_VALGRIND") == "1":
            supp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "valgrind.supp")
            wrap = ["valgrind", "--leak-check=full", "--show-leak-kinds=definite",
                    "--errors-for-leak-kinds=definite", f"--suppressions={supp}",
                    f"--log-file={self.dir}/valgrind-macguised-%p.txt"]
        return self.spawn("macguised", *wrap, exe, f"--nm-state-dir={self.nm_lib}",
                          f"--nm-conf-dir={conf_dir}", *args,
                          ns=self.ns, env=dict(self.env, **(env or {})))

    def start_dispatcher(self, hook=None, pre_down=None):
        """NetworkManager's own nm-dispatcher, in a mount namespace of its
        own where the dispatcher directories are the test's (with @hook as
        the only pre-up script, @pre_down as the only pre-down one and the
        only one for every event, as the packages install it) and the
        default system bus socket is the private bus: the dispatcher gives
        scripts a fresh environment, so the hook finds the bus where it
        would on a real system."""
        base = os.path.join(self.dir, "dispatcher")
        for top in ("etc", "lib"):
            for sub in ("", "pre-up.d", "pre-down.d", "no-wait.d"):
                os.makedirs(os.path.join(base, top, sub), exist_ok=True)
        for script, sub in ((hook, "pre-up.d"), (pre_down, "")):
            if script is not None:
                dest = os.path.join(base, "lib", sub, os.path.basename(script))
                shutil.copyfile(script, dest)
                os.chmod(dest, 0o755)
        if pre_down is not None:  # linked, as the packages link it
            os.symlink(os.path.join("..", os.path.basename(pre_down)),
                       os.path.join(base, "lib", "pre-down.d", os.path.basename(pre_down)))
        # macguised's runtime directory (the link-check index) appears
        # where the hook looks for it, /run/macguise.
        runtime = os.path.join(self.dir, "run")
        os.makedirs(runtime, exist_ok=True)
        # NetworkManager 1.52's nm-dispatcher logs each script it runs at
        # debug level, which GLib prints only when asked.
        env = dict(self.env, MG_BUS=self.bus, MG_DISPATCH=base, MG_RUNTIME=runtime,
                   G_MESSAGES_DEBUG="all")
        self.spawn("dispatcher", "unshare", "--mount", "--propagation", "private",
                   "sh", "-c", DISPATCHER_SH, ns=self.ns, env=env)
        self.wait_for("nm-dispatcher on the bus",
                      lambda: self.name_has_owner("org.freedesktop.nm_dispatcher"))

    def name_has_owner(self, name):
        p = self.run("gdbus", "call", "--system", "--dest", "org.freedesktop.DBus",
                     "--object-path", "/org/freedesktop/DBus",
                     "--method", "org.freedesktop.DBus.NameHasOwner", name, check=False)
        return "true" in p.stdout

    def stop(self):
        for name, p in reversed(self.pids):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(timeout=10)
            reaper().forget("pid", p.pid)
        self.pids.clear()
        for log in self.logs:
            log.close()
        self.logs.clear()
        for ns in reversed(self.namespaces):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
            reaper().forget("netns", ns)
        self.namespaces.clear()
        # In a sanitizer build, what a daemon or the hook reported must not
        # go unseen just because the behaviour under test held.
        reports = []
        for name in sorted(os.listdir(self.dir)) if os.path.isdir(self.dir) else []:
            if name.endswith(".log"):
                with open(os.path.join(self.dir, name), encoding="utf-8", errors="replace") as f:
                    reports += [f"{name}: {line.rstrip()}" for line in f if SANITIZER_RE.search(line)]
        for name in sorted(os.listdir(self.dir)) if os.path.isdir(self.dir) else []:
            if name.startswith("valgrind-"):
                with open(os.path.join(self.dir, name), encoding="utf-8", errors="replace") as f:
                    text = f.read()
                # A process ended by SIGKILL writes no summary: nothing to judge.
                if "ERROR SUMMARY:" in text and "ERROR SUMMARY: 0 errors" not in text:
                    reports += [f"{name}: {line}" for line in text.splitlines()
                                if "definitely lost" in line or "Invalid" in line
                                or "uninitialised" in line or "ERROR SUMMARY" in line]
        keep = os.environ.get("MG_KEEP_DIR")
        if keep and os.path.isdir(self.dir):  # for a failure's post-mortem: the logs and files, not the sockets
            shutil.copytree(self.dir, os.path.join(keep, os.path.basename(self.dir)),
                            symlinks=True, dirs_exist_ok=True,
                            ignore=lambda d, names: [n for n in names
                                                     if not os.path.isfile(os.path.join(d, n))
                                                     and not os.path.isdir(os.path.join(d, n))])
        shutil.rmtree(self.dir, ignore_errors=True)
        if not os.path.exists(self.dir):
            reaper().forget("dir", self.dir)
        if reports:
            raise RuntimeError("sanitizer or memcheck reports:\n" + "\n".join(reports[:40]))

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    # -- what tests look at --------------------------------------------------
    def hook_lines(self):
        """What nm-dispatcher logged of the pre-up hook, line by line."""
        with open(os.path.join(self.dir, "dispatcher.log"), encoding="utf-8",
                  errors="replace") as f:
            return [line for line in f if "macguise-pre-up" in line]

    def link_mac(self, iface="veth0", ns=None):
        out = self.run("ip", "-o", "link", "show", iface, ns=ns or self.ns).stdout
        return out.split("link/ether ")[1].split()[0]

    def cloned(self, name, setting="802-3-ethernet"):
        """A profile's cloned-mac-address, lower case."""
        v = self.nmcli("-g", f"{setting}.cloned-mac-address", "connection", "show", name).stdout
        return v.strip().replace("\\:", ":").lower()

    def new_adapter(self, name, mac, capture):
        """A card plugged in: a veth device called @name with the burnt-in
        address @mac appears in NetworkManager's namespace, its cable
        (the other end, in the peer namespace) still unplugged. Every frame
        the peer then receives is recorded (peer.py frames) in @capture;
        plug_in() connects the cable."""
        peer_end = name + "p"
        self.run("ip", "link", "add", name, "netns", self.peer, "address", mac, "type", "veth",
                 "peer", "name", peer_end, "netns", self.peer)
        ready = capture + ".ready"
        self.spawn(f"frames-{name}", "python3", PEER_PY, "frames", peer_end, capture, ready,
                   ns=self.peer)
        self.wait_for(f"the capture on {peer_end}", lambda: os.path.exists(ready))
        self.run("ip", "link", "set", name, "netns", self.ns, ns=self.peer)
        self.wait_for(f"{name} in NetworkManager",
                      lambda: name in self.nmcli("-t", "-f", "DEVICE", "device", check=False).stdout)
        return peer_end

    def plug_in(self, peer_end):
        """Connects a new adapter's cable: the peer end up, with a DHCP
        server (dnsmasq) on it, as a home router would have."""
        subnet = len([n for n, _ in self.pids if n.startswith("dnsmasq-")]) + 1
        self.run("ip", "addr", "add", f"10.88.{subnet}.1/24", "dev", peer_end, ns=self.peer)
        self.run("ip", "link", "set", peer_end, "up", ns=self.peer)
        self.spawn(f"dnsmasq-{peer_end}", "dnsmasq", "--keep-in-foreground", "--port=0",
                   "--bind-interfaces", f"--interface={peer_end}", "--except-interface=lo",
                   f"--dhcp-range=10.88.{subnet}.10,10.88.{subnet}.200,1h",
                   f"--dhcp-leasefile={self.dir}/leases-{peer_end}", "--user=root",
                   f"--pid-file={self.dir}/dnsmasq-{peer_end}.pid", "--log-dhcp",
                   "--log-facility=-", ns=self.peer)

    @staticmethod
    def frame_records(capture):
        """The frames recorded (peer.py frames), in order, each a dict."""
        try:
            with open(capture, encoding="utf-8") as f:
                return [json.loads(line) for line in f if line.endswith("\n")]
        except FileNotFoundError:
            return []

    @staticmethod
    def frames_from(capture):
        """The source addresses of the frames recorded, in order."""
        return [r["src"] for r in NmNetns.frame_records(capture)]

    def peer_as(self, mac, ipv4="10.77.0.1/24", ipv6=True, extra_ipv6=None):
        """Makes the peer side a station with @mac, @ipv4 and, with @ipv6,
        the link-local address a Linux host derives from its MAC, as it
        would after booting: the link goes down and up again."""
        run = lambda *cmd: self.run(*cmd, ns=self.peer)  # noqa: E731
        run("ip", "link", "set", "veth1", "down")
        run("ip", "addr", "flush", "dev", "veth1")
        run("ip", "link", "set", "veth1", "address", mac)
        run("sysctl", "-q", f"net.ipv6.conf.veth1.disable_ipv6={0 if ipv6 else 1}")
        run("ip", "link", "set", "veth1", "up")
        if ipv4:
            run("ip", "addr", "add", ipv4, "dev", "veth1")
        if extra_ipv6:
            run("ip", "-6", "addr", "add", extra_ipv6 + "/64", "dev", "veth1", "nodad")
        if ipv6:
            # the EUI-64 link-local appears once the link has carrier; the
            # NetworkManager side may be down, so wait only for it to settle
            self.wait_for("the peer's IPv6 addresses to leave tentative state",
                          lambda: "tentative" not in run("ip", "-6", "addr", "show", "dev",
                                                         "veth1").stdout)

    def wait_cloned(self, name, setting="802-3-ethernet", other_than=None, timeout=15):
        """Waits for a MAC address (other than @other_than) in the profile."""
        box = {}

        def ready():
            box["mac"] = self.cloned(name, setting)
            return MAC_RE.match(box["mac"]) is not None and box["mac"] != other_than

        self.wait_for(f"a MAC address in '{name}'", ready, timeout=timeout)
        return box["mac"]

    def sends_host_name(self, name):
        """Whether profile @name has DHCP send the host name, by the setting
        in effect: NetworkManager 1.52's dhcp-send-hostname-v2 where it is
        set, else dhcp-send-hostname."""
        false = ("no", "0", "false")
        v2 = self.nmcli("-g", "ipv4.dhcp-send-hostname-v2", "connection", "show", name,
                        check=False)
        if v2.returncode == 0 and v2.stdout.strip() not in ("", "-1", "default"):
            return v2.stdout.strip() not in false
        return self.nmcli("-g", "ipv4.dhcp-send-hostname", "connection", "show",
                          name).stdout.strip() not in false

    def uuid_of(self, name):
        return self.nmcli("-g", "connection.uuid", "connection", "show", name).stdout.strip()

    def macguise_call(self, method, *args, user=None):
        """A call to macguised's D-Bus API with gdbus, as root or as @user."""
        cmd = ["gdbus", "call", "--system", "--dest", "org.macguise.Daemon1",
               "--object-path", "/org/macguise/Daemon1",
               "--method", f"org.macguise.Daemon1.{method}", *args]
        if user is not None:
            cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *cmd]
        return self.run(*cmd, ns=self.ns, check=False)

    def nm_version(self):
        """The running NetworkManager's version, as (major, minor)."""
        p = self.run("gdbus", "call", "--system", "--dest", "org.freedesktop.NetworkManager",
                     "--object-path", "/org/freedesktop/NetworkManager", "--method",
                     "org.freedesktop.DBus.Properties.Get", "org.freedesktop.NetworkManager",
                     "Version", ns=self.ns)
        return tuple(int(x) for x in re.search(r"'(\d+)\.(\d+)", p.stdout).groups())

    def macguise_status(self, uuid):
        """One profile's GetStatus dictionary, its values as Python values."""
        p = self.macguise_call("GetStatus")
        if p.returncode != 0:
            raise RuntimeError(f"GetStatus: {p.stderr.strip()}")
        for chunk in p.stdout.split("}, {"):
            if f"'uuid': <'{uuid}'>" in chunk:
                status = {}
                for key, value in re.findall(r"'([a-z-]+)': <([^>]*)>", chunk):
                    value = re.sub(r"^(u?int\d+|byte) ", "", value)
                    if value in ("true", "false"):
                        status[key] = value == "true"
                    elif value[:1] in ("'", '"'):
                        # GVariant's text quotes a string holding ' with "
                        status[key] = value[1:-1]
                    else:
                        status[key] = int(value)
                return status
        return None

    def macguised_caught_up(self):
        """Returns once macguised has carried out everything it decided
        before this call: a new profile added now is decided after those
        events, and its write is sent after theirs, so once NetworkManager
        shows its address, every write decided earlier has reached
        NetworkManager too. What a test asserts did not happen has then
        had its chance to happen."""
        self._caught_up = getattr(self, "_caught_up", 0) + 1
        name = f"caught-up-{self._caught_up}"
        self.add_ethernet(name)
        self.wait_cloned(name, timeout=30)
        self.nmcli("connection", "delete", name)

    def add_ethernet(self, name, *settings):
        self.nmcli("connection", "add", "type", "ethernet", "ifname", "veth0", "con-name", name,
                   "ipv4.method", "manual", "ipv4.addresses", "10.77.0.2/24",
                   "ipv6.method", "disabled", "connection.autoconnect", "no", *settings)

