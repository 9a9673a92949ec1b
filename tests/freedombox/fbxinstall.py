# SPDX-License-Identifier: GPL-3.0-or-later
"""The app's package (freedombox-macguise) installed, removed and purged in
the test's overlays of /etc, /usr and /var, as dpkg does it:

- the .deb with dpkg itself, its maintainer scripts and its conffile
  handling (FreedomBox is unpacked, not installed, hence --force-depends);
- the source folder by the package's own freedombox-macguise.install and
  maintainer scripts, run as dpkg runs them: files under /etc are
  conffiles (debhelper marks every one), which `remove` leaves and `purge`
  deletes; every other file goes at `remove`.

Either way the test sees what an owner's FreedomBox sees after apt-get
install, remove and purge."""
import glob
import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
DEBIAN = os.path.join(HERE, "..", "..", "packaging", "debian")
PACKAGE = "freedombox-macguise"


def _sh(*cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}:\n{p.stdout[-2000:]}"
                           f"{p.stderr[-3000:]}")
    return p


def _dpkg(*args):
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    env.pop("DBUS_SYSTEM_BUS_ADDRESS", None)
    return _sh("dpkg", *args, env=env)


class AppPackage:
    """freedombox-macguise from @app: its .deb, or the source folder
    (freedombox/ in the tree)."""

    def __init__(self, app):
        self.app = app
        self.deb = app.endswith(".deb")
        self.files = []  # what the source folder's install put in place

    def install(self):
        if self.deb:
            _dpkg("--force-depends", "-i", self.app)
            return
        root = os.path.dirname(os.path.abspath(self.app))
        with open(os.path.join(DEBIAN, PACKAGE + ".install")) as f:
            lines = [line.split() for line in f if line.strip() and not line.startswith("#")]
        for source, dest in lines:
            self._copy(os.path.join(root, source), os.path.join("/", dest))
        self._script("postinst", "configure")

    def _copy(self, source, dest_dir):
        """As dh_install, with the .mo files debian/rules compiles and no
        .po (dh_install --exclude=django.po)."""
        os.makedirs(dest_dir, exist_ok=True)
        target = os.path.join(dest_dir, os.path.basename(source))
        if os.path.isdir(source):
            shutil.copytree(source, target,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            for po in glob.glob(f"{target}/**/django.po", recursive=True):
                _sh("msgfmt", "-c", "-o", po[:-3] + ".mo", po)
                os.unlink(po)
            for top, _dirs, names in os.walk(target):
                self.files += [os.path.join(top, name) for name in names]
        else:
            shutil.copy(source, target)
            self.files.append(target)

    def _script(self, name, *args):
        script = os.path.join(DEBIAN, f"{PACKAGE}.{name}")
        if os.path.exists(script):
            _sh("sh", "-e", script, *args)

    def _delete(self, conffiles):
        for path in [f for f in self.files if f.startswith("/etc/") == conffiles]:
            if os.path.lexists(path):
                os.unlink(path)
            self.files.remove(path)
        for path in ("/usr/lib/python3/dist-packages/macguise_freedombox",):
            if not conffiles:
                shutil.rmtree(path, ignore_errors=True)

    def remove(self):
        """apt-get remove: every file but the conffiles, then postrm."""
        if self.deb:
            _dpkg("--remove", PACKAGE)
            return
        self._script("prerm", "remove")
        self._delete(conffiles=False)
        self._script("postrm", "remove")

    def purge(self):
        """apt-get purge after remove: the conffiles too."""
        if self.deb:
            _dpkg("--purge", PACKAGE)
            return
        self._delete(conffiles=True)
        self._script("postrm", "purge")

    def conffiles(self):
        """The package's conffiles, as dpkg lists them (the source folder's:
        what it put under /etc)."""
        if self.deb:
            out = _sh("dpkg-query", "-W", "-f=${Conffiles}", PACKAGE).stdout
            return [line.split()[0] for line in out.splitlines() if line.strip()]
        return [f for f in self.files if f.startswith("/etc/")]
