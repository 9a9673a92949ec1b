# SPDX-License-Identifier: GPL-3.0-or-later
"""The system side of tests/freedombox/test-plinth.py, all inside the
test's own mount namespace: overlays over /etc, /usr and /var, Debian's
freedombox package unpacked into them with the app as its package installs
it, macguised's directories and the test's bus where the command looks,
and FreedomBox's processes (ended by the NmNetns that started them)."""
import os
import shutil
import subprocess
import urllib.request

# 26.x's daemon for privileged actions (systemd starts it on a FreedomBox)
PRIVILEGED_DAEMON = "/usr/lib/freedombox/freedombox-privileged"
# The modules FreedomBox's own page templates link to (sso until 26.x) or
# load template tags from (first_boot, in the help pages); every other
# FreedomBox app stays off, and none is set up (see plinth_prepare.py).
KEEP_MODULES = ("backups", "diagnostics", "first_boot", "help", "power", "sso", "storage",
                "users")


def sh(*cmd, **kwargs):
    p = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}:\n{p.stderr[-3000:]}")
    return p


def private_system(top):
    """Overlays on /etc, /usr and /var, and a fresh /run, in this mount
    namespace only."""
    for d in ("etc", "usr", "var"):
        upper, work = os.path.join(top, d + "-upper"), os.path.join(top, d + "-work")
        os.makedirs(upper)
        os.makedirs(work)
        sh("mount", "-t", "overlay", "overlay", "-o",
           f"lowerdir=/{d},upperdir={upper},workdir={work}", f"/{d}")
    sh("mount", "-t", "tmpfs", "-o", "mode=755", "tmpfs", "/run")
    sh("ip", "link", "set", "lo", "up")


def install_freedombox(deb, app_package, cli, macguised, port):
    """Debian's freedombox package @deb unpacked, with only the apps its
    pages need (KEEP_MODULES), the app as its package installs it, this
    build's command and macguised's unit; FreedomBox's web service to listen
    on 127.0.0.1:@port."""
    sh("dpkg-deb", "-x", deb, "/")
    # FreedomBox's own list of apps: /etc/plinth/modules-enabled (23.6) or
    # /usr/share/freedombox/modules-enabled (25, 26, which still read the
    # first too).
    for packaged in ("/etc/plinth/modules-enabled", "/usr/share/freedombox/modules-enabled"):
        for name in os.listdir(packaged) if os.path.isdir(packaged) else ():
            if name not in KEEP_MODULES:
                os.unlink(os.path.join(packaged, name))
    # the app as its package installs it (fbxinstall.py)
    app_package.install()
    shutil.copy(cli, "/usr/bin/macguise")
    # macguised's unit as network-manager-macguise installs and enables it
    # (systemctl works on the unit files without systemd running): what
    # FreedomBox's Daemon component asks about. Nothing runs it here: the
    # test's macguised is NM's.
    units = "/usr/lib/systemd/system"
    os.makedirs(units, exist_ok=True)
    shutil.copy(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(macguised))),
                             "data", "macguised.service"), units)
    sh("systemctl", "enable", "macguised.service")
    os.makedirs("/etc/plinth", exist_ok=True)  # not shipped by 25 and later
    with open("/etc/plinth/plinth.config", "w") as f:
        f.write(f"[Network]\nhost = 127.0.0.1\nport = {port}\n")
    os.makedirs("/var/lib/plinth", exist_ok=True)


def macguise_dirs(nm):
    """macguised's directories where the command (run by FreedomBox through
    sudo, which clears the environment) looks: bound over the defaults."""
    nm.use_macguise_dirs()
    for test_dir, path in (("state", "/var/lib/macguise"), ("config", "/etc/macguise"),
                           ("run", "/run/macguise")):
        os.makedirs(path, exist_ok=True)
        sh("mount", "--bind", os.path.join(nm.dir, test_dir), path)
    os.makedirs("/run/dbus")
    open("/run/dbus/system_bus_socket", "w").close()
    sh("mount", "--bind", nm.bus, "/run/dbus/system_bus_socket")


def start_privileged_daemon(nm):
    """26.x's daemon for privileged actions, as freedombox-privileged.service
    runs it (root; it makes its socket)."""
    if os.path.exists(PRIVILEGED_DAEMON):
        nm.spawn("freedombox-privileged", "/usr/bin/python3", PRIVILEGED_DAEMON,
                 env={k: v for k, v in os.environ.items() if k != "DBUS_SYSTEM_BUS_ADDRESS"})
        nm.wait_for("FreedomBox's privileged daemon",
                    lambda: os.path.exists("/run/freedombox/privileged.socket"), timeout=60)


def run_web_service(nm, base):
    """FreedomBox's web service, until @base answers."""
    env = {k: v for k, v in os.environ.items() if k != "DBUS_SYSTEM_BUS_ADDRESS"}
    env["HOME"] = "/var/lib/plinth"
    nm.spawn("plinth", "setpriv", "--reuid=plinth", "--regid=plinth", "--init-groups",
             "/usr/bin/python3", "/usr/bin/plinth", env=env)

    def answers():
        try:
            with urllib.request.urlopen(base + "/", timeout=5):
                return True
        except OSError:
            return False
    nm.wait_for("FreedomBox's web service", answers, timeout=120)
