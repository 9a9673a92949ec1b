#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Debian packages on this machine: they install (no service starts:
no systemd here, and policy-rc.d says no), put every file where it belongs
with the right owner and mode, enable the units, run as installed, and come
off again leaving NetworkManager's profiles working; purge removes the
state. The integration tests against the installed programs are
debian/tests, which autopkgtest runs after this. Run as root by `tools/dev test` with the directory of the .debs.
Prints TAP."""
import glob
import json
import os
import stat
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "nm"))
import mgtap  # noqa: E402
from nmnetns import NmNetns  # noqa: E402

DEBS = sys.argv[1]
MAIN, DEFAULTS = "network-manager-macguise", "freedombox-macguise-defaults"
# The FreedomBox app needs FreedomBox, which is not installed on a test
# machine: its package is checked from the .deb here, and run, unpacked,
# inside FreedomBox's web service by tests/freedombox/test-plinth.py.
APP = "freedombox-macguise"
DAEMON = "/usr/libexec/macguised"
HOOK = "/usr/lib/NetworkManager/dispatcher.d/pre-up.d/macguise-pre-up"
CHECKER = "/usr/libexec/macguise-link-check"  # what the hook hands over to
CLI = "/usr/bin/macguise"

# Where this release keeps systemd units: /lib on Debian 12, /usr/lib on 13.
UNITS = subprocess.run(["pkg-config", "--variable=systemdsystemunitdir", "systemd"],
                       capture_output=True, text=True, check=True).stdout.strip()

# path: (kind, mode); every one root:root
LAYOUT = {
    CLI: ("file", 0o755),
    DAEMON: ("file", 0o755),
    HOOK: ("file", 0o755),
    CHECKER: ("file", 0o755),
    "/etc/macguise/macguise.conf": ("file", 0o644),
    f"{UNITS}/macguised.service": ("file", 0o644),
    f"{UNITS}/macguise-boot.service": ("file", 0o644),
    "/usr/share/dbus-1/system.d/org.macguise.Daemon1.conf": ("file", 0o644),
    "/usr/share/dbus-1/system-services/org.macguise.Daemon1.service": ("file", 0o644),
    "/usr/share/bash-completion/completions/macguise": ("file", 0o644),
    "/usr/share/man/man1/macguise.1.gz": ("file", 0o644),
    "/usr/share/man/man5/macguise.conf.5.gz": ("file", 0o644),
    "/usr/share/man/man8/macguised.8.gz": ("file", 0o644),
    # the user's guide and the threat model (the man pages' SEE ALSO)
    "/usr/share/doc/network-manager-macguise/user-guide.md.gz": ("file", 0o644),
    "/usr/share/doc/network-manager-macguise/threat-model.md.gz": ("file", 0o644),
    "/usr/share/locale/de/LC_MESSAGES/macguise.mo": ("file", 0o644),
    "/var/lib/macguise": ("dir", 0o700),
    "/usr/lib/NetworkManager/conf.d/macguise-freedombox.conf": ("file", 0o644),
    "/usr/lib/macguise/conf.d/50-freedombox.conf": ("file", 0o644),
}
# the hook's front at pre-down (the MLD leaves) and at every event (down)
LINKS = {"/usr/lib/NetworkManager/dispatcher.d/pre-down.d/macguise-pre-up":
         "../pre-up.d/macguise-pre-up",
         "/usr/lib/NetworkManager/dispatcher.d/macguise-pre-up": "pre-up.d/macguise-pre-up"}
ENABLED = ["/etc/systemd/system/multi-user.target.wants/macguised.service",
           "/etc/systemd/system/multi-user.target.wants/macguise-boot.service"]
# wanted by NetworkManager, the boot step ran again at every restart of it
NOT_ENABLED = ["/etc/systemd/system/NetworkManager.service.wants/macguise-boot.service"]


def sh(*cmd, check=True, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if check and p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {p.returncode}: {p.stdout[-2000:]}{p.stderr[-2000:]}")
    return p


def installed(pkg):
    p = sh("dpkg-query", "-W", "-f=${Status}", pkg, check=False)
    return p.returncode == 0 and p.stdout.strip() == "install ok installed"


class NoServiceStarts:
    """Debian's policy-rc.d switch, only if the machine has none."""
    PATH = "/usr/sbin/policy-rc.d"

    def __enter__(self):
        self.ours = not os.path.exists(self.PATH)
        if self.ours:
            with open(self.PATH, "w") as f:
                f.write("#!/bin/sh\nexit 101\n")
            os.chmod(self.PATH, 0o755)

    def __exit__(self, *exc):
        if self.ours:
            os.unlink(self.PATH)


NM_PACKAGED_CONF = "/usr/lib/NetworkManager/conf.d"
DEFAULTS_CONF = "macguise-freedombox.conf"


def nm_config_signals(nm):
    """The configuration NetworkManager has re-read, one line a reload (its
    "config: signal:" lines name the files it read)."""
    return [line for line in nm.log_text("nm").splitlines() if "config: signal:" in line]


@mgtap.test
def the_packages_install_with_their_dependencies_and_networkmanager_reloads_the_defaults():
    debs = [d for d in glob.glob(os.path.join(DEBS, "*.deb"))
            if "-dbgsym_" not in d and not os.path.basename(d).startswith(APP + "_")]
    assert len(debs) == 2, debs
    # A running NetworkManager (the test's, on its own bus) that reads the
    # packaged configuration directory: the defaults package's maintainer
    # script tells it to reload, so the defaults apply without a reboot.
    nm = NmNetns(system_config_dir=NM_PACKAGED_CONF).start()
    try:
        with NoServiceStarts():
            sh("apt-get", "install", "-y", "-q", "--no-install-recommends",
               *[os.path.abspath(d) for d in debs],
               env=dict(nm.env, DEBIAN_FRONTEND="noninteractive"))
        nm.wait_for("NetworkManager to read the FreedomBox defaults",
                    lambda: any(DEFAULTS_CONF in line for line in nm_config_signals(nm)))
        reloads = len(nm_config_signals(nm))
        # and drops them again when the package goes
        sh("dpkg", "--remove", DEFAULTS, env=nm.env)
        nm.wait_for("NetworkManager to drop the FreedomBox defaults",
                    lambda: len(nm_config_signals(nm)) > reloads)
        assert DEFAULTS_CONF not in nm_config_signals(nm)[-1], nm_config_signals(nm)[-1]
        with NoServiceStarts():
            sh("apt-get", "install", "-y", "-q", "--no-install-recommends",
               *[os.path.abspath(d) for d in debs if DEFAULTS in d],
               env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    finally:
        nm.stop()
    assert installed(MAIN) and installed(DEFAULTS)


@mgtap.test
def every_file_is_where_it_belongs_with_owner_and_mode():
    for path, (kind, mode) in LAYOUT.items():
        st = os.lstat(path)
        assert (stat.S_ISDIR(st.st_mode) if kind == "dir" else stat.S_ISREG(st.st_mode)), path
        assert st.st_uid == 0 and st.st_gid == 0, (path, st.st_uid, st.st_gid)
        assert stat.S_IMODE(st.st_mode) == mode, (path, oct(stat.S_IMODE(st.st_mode)), oct(mode))
    conffiles = sh("dpkg-query", "-W", "-f=${Conffiles}", MAIN).stdout
    assert "/etc/macguise/macguise.conf" in conffiles, conffiles
    for link, target in LINKS.items():
        assert os.path.islink(link) and os.readlink(link) == target, link
        assert os.path.realpath(link) == HOOK, link
    for link in ENABLED:
        assert os.path.islink(link), f"{link}: the unit is not enabled"
    for link in NOT_ENABLED:
        assert not os.path.lexists(link), f"{link}: the unit is enabled there"
    for exe in (CLI, DAEMON, HOOK, CHECKER):
        assert "not found" not in sh("ldd", exe).stdout, exe
    owned = sh("dpkg", "-L", MAIN).stdout.split()
    for path in [*LAYOUT, *LINKS]:
        if "freedombox" not in path:
            assert path in owned, f"{path} is not the package's"


def app_deb():
    found = glob.glob(os.path.join(DEBS, APP + "_*.deb"))
    assert len(found) == 1, found
    return found[0]


@mgtap.test
def the_freedombox_app_package_holds_the_app_where_freedombox_finds_it():
    deb = app_deb()
    field = lambda name: sh("dpkg-deb", "-f", deb, name).stdout.strip()  # noqa: E731
    depends = field("Depends")
    for needed in ("freedombox", MAIN, "python3"):
        assert needed in depends, depends
    assert field("Architecture") == "all"
    listing = sh("dpkg-deb", "-c", deb).stdout
    files = {line.split()[-1].lstrip(".") for line in listing.splitlines()}
    modules = "/usr/lib/python3/dist-packages/macguise_freedombox/macguise/"
    for name in ("__init__.py", "privileged.py", "views.py", "urls.py", "forms.py",
                 "templates/macguise.html", "templates/macguise_profile.html"):
        assert modules + name in files, name
    assert not [f for f in files if "__pycache__" in f or f.endswith(".pyc")], \
        "byte code is made at install (dh_python3), never shipped"
    assert modules + "locale/de/LC_MESSAGES/django.mo" in files, "the German translation"
    assert not [f for f in files if f.endswith(".po")], "compiled, not the sources"
    # The entry where FreedomBox 25 and later read it, and no conffile: one
    # would outlive `apt remove`, naming a module that is gone, and stop
    # FreedomBox. FreedomBox 23.6's /etc/plinth/modules-enabled gets a link
    # the maintainer scripts make and remove (tests/freedombox runs them).
    assert not [f for f in files if f.startswith("/etc/") and not f.endswith("/")], files
    control = sh("sh", "-c", f"dpkg-deb --ctrl-tarfile {deb} | tar -t").stdout.split()
    assert "./conffiles" not in control, control
    enabled = sh("sh", "-c", f"dpkg-deb --fsys-tarfile {deb} | "
                 "tar -xO ./usr/share/freedombox/modules-enabled/macguise").stdout
    assert "macguise_freedombox.macguise" in enabled.split(), enabled
    script = lambda name: sh("sh", "-c", f"dpkg-deb --ctrl-tarfile {deb} | "  # noqa: E731
                             f"tar -xO ./{name}").stdout
    assert "ln -s \"$ENTRY\" \"$LINK\"" in script("postinst")
    assert "rm -f \"$LINK\"" in script("postrm")
    # an upgrade from a build that shipped the conffile removes it
    assert "rm_conffile /etc/plinth/modules-enabled/macguise" in script("preinst")
    for lang in ("en", "de"):  # the app's page of FreedomBox's manual
        assert f"/usr/share/freedombox/manual/{lang}/MACPrivacy.part.html" in files, lang


@mgtap.test
def install_starts_the_service_but_never_the_boot_step():
    # The boot step would refuse while NetworkManager runs: the maintainer
    # script must not start it (dh_installsystemd --no-start), only enable it.
    with open(f"/var/lib/dpkg/info/{MAIN}.postinst") as f:
        script = f.read()
    starts = [line for line in script.splitlines()
              if "deb-systemd-invoke" in line and "stop" not in line]
    assert any("macguised.service" in line for line in starts), starts
    assert not any("macguise-boot.service" in line for line in starts), starts
    assert "macguise-boot.service" in script  # enabled all the same


@mgtap.test
def the_installed_programs_run():
    assert sh(CLI, "--version").stdout.startswith("macguise ")
    assert sh(DAEMON, "--version").stdout.startswith("macguised ")
    mac = sh(CLI, "generate", "--class", "ethernet").stdout.strip()
    assert int(mac[:2], 16) & 3 == 0, mac
    # a German user's locale where the machine has one (Debian 13's C library
    # ignores LANGUAGE under C.UTF-8), else LANGUAGE, which Debian 12 honours
    german = "de_DE.utf8" in sh("locale", "-a").stdout.split()
    de = sh(CLI, "--help", env=dict(os.environ, LC_ALL="de_DE.UTF-8" if german else "C.UTF-8",
                                    LANGUAGE="de")).stdout
    assert "Aufruf: macguise BEFEHL" in de, de[:200]
    # The hook's front hands --version to the installed checker.
    assert "macguise-pre-up" in sh(HOOK, "--version").stdout
    # The front links nothing but libc: it is what runs for every event.
    libs = sh("ldd", HOOK).stdout
    assert "libglib" not in libs and "libgio" not in libs, libs
    # The installed command reads the FreedomBox defaults under macguise.conf.
    env = {k: v for k, v in os.environ.items() if k != "MACGUISE_PACKAGED_CONF_DIR"}
    defaults = json.loads(sh(CLI, "defaults", "--json", env=env).stdout)
    assert defaults["packaged"] == ["/usr/lib/macguise/conf.d/50-freedombox.conf"], defaults
    kinds = defaults["classes"]
    assert kinds["ethernet"]["rotate"] == "never" and kinds["ethernet"]["harden"] == "no", kinds
    assert kinds["ethernet-shared"]["mode"] == "off", kinds
    assert kinds["wifi"]["rotate"] == "daily" and kinds["ap"]["rotate"] == "daily", kinds


@mgtap.test
def removal_leaves_profiles_working_and_purge_removes_the_state():
    nm = NmNetns().start()
    try:
        # the installed daemon, with the packaged state directory; its
        # link-check index in the test's directory, not the machine's /run
        nm.spawn("macguised", DAEMON, ns=nm.ns,
                 env=dict(nm.env, RUNTIME_DIRECTORY=os.path.join(nm.dir, "run")))
        nm.add_ethernet("kept")
        mac = nm.wait_cloned("kept")
        nm.wait_for("the state in /var/lib/macguise",
                    lambda: os.path.exists("/var/lib/macguise/state"))
        time.sleep(0.5)
        nm.end("macguised")
        sh("dpkg", "--remove", MAIN, DEFAULTS)
        assert not installed(MAIN) and not os.path.exists(HOOK) and not os.path.exists(DAEMON)
        assert os.path.exists("/var/lib/macguise/state"), "removal (not purge) keeps the state"
        # NetworkManager restarted without macguise: the profile keeps its address
        nm.end("nm")
        nm.start_nm()
        assert nm.cloned("kept") == mac
        nm.nmcli("connection", "up", "kept")
        assert nm.link_mac() == mac
        nm.nmcli("connection", "down", "kept")
    finally:
        nm.stop()
    sh("dpkg", "--purge", MAIN, DEFAULTS)
    assert not os.path.exists("/var/lib/macguise"), "purge removes the state"
    assert not os.path.exists("/etc/macguise/macguise.conf"), "purge removes the conffile"
    for link in ENABLED:
        assert not os.path.lexists(link), link


mgtap.run()
