#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The MAC privacy app in FreedomBox's real web service, driven by a real
browser: FreedomBox (Plinth) from Debian's freedombox package, its
privileged actions run through sudo and its actions runner, the macguise
command against a real NetworkManager and macguised in namespaces, and
headless Chromium driven by Selenium.

Debian's freedombox package is the newest in /var/cache/macguise-freedombox
or the one MG_FREEDOMBOX_DEB names; its version is in the first test's name.
FreedomBox 26.x (whose Python package is `freedombox`, where older ones'
is `plinth`) runs its privileged actions in a daemon of its own, which the
test starts as systemd would; older ones through sudo and their actions
runner.

The test runs in mount and network namespaces of its own: /etc, /usr and
/var are overlays whose changes (the unpacked freedombox package, the app,
FreedomBox's database) live in the test directory; /run is a fresh tmpfs
whose D-Bus system socket is the test's bus; FreedomBox listens on the
namespace's own loopback.

Usage: test-plinth.py MACGUISED MACGUISE APP SCREENSHOT-DIR
APP is the app's source folder (freedombox/ in the tree: it is installed
where its package puts it) or the freedombox-macguise .deb (unpacked).
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
INNER = "MG_PLINTH_NAMESPACES"

if os.environ.get(INNER) != "1":
    # Into namespaces of our own, with Debian's Python (FreedomBox's).
    os.execvpe("unshare", ["unshare", "--mount", "--net", "--propagation", "private",
                           "/usr/bin/python3", os.path.abspath(__file__), *sys.argv[1:]],
               dict(os.environ, **{INNER: "1"}))

sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "nm"))
import mgtap  # noqa: E402
from nmnetns import NmNetns  # noqa: E402
from fbxdeb import freedombox_deb  # noqa: E402

MACGUISED, CLI, APP, SHOTS = sys.argv[1:5]
PORT = 8000
# FreedomBox's URL prefix (its cfg.server_dir: /plinth, /freedombox in
# 26.x), as plinth_prepare.py reads it, and its pages' URL
PREFIX = BASE = None
FREEDOMBOX_DEB = freedombox_deb()
FREEDOMBOX_VERSION = subprocess.run(["dpkg-deb", "-f", FREEDOMBOX_DEB, "Version"], check=True,
                                    capture_output=True, text=True).stdout.strip()
# 26.x's daemon for privileged actions (systemd starts it on a FreedomBox)
PRIVILEGED_DAEMON = "/usr/lib/freedombox/freedombox-privileged"
USER, PASSWORD = "owner", "a long test passphrase 7"
# The modules FreedomBox's own page templates link to (sso until 26.x);
# every other FreedomBox app stays off, and none is set up (see
# plinth_prepare.py).
PLINTH_MODULES = ("backups", "diagnostics", "help", "power", "sso", "storage", "users")


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


def install_freedombox(deb):
    sh("dpkg-deb", "-x", deb, "/")
    # FreedomBox's own list of apps: /etc/plinth/modules-enabled (23.6) or
    # /usr/share/freedombox/modules-enabled (25, 26); 25 and 26 still read
    # the first, where the app's package puts its entry.
    for packaged in ("/etc/plinth/modules-enabled", "/usr/share/freedombox/modules-enabled"):
        for name in os.listdir(packaged) if os.path.isdir(packaged) else ():
            if name not in PLINTH_MODULES:
                os.unlink(os.path.join(packaged, name))
    enabled = "/etc/plinth/modules-enabled"
    os.makedirs(enabled, exist_ok=True)
    if APP.endswith(".deb"):
        sh("dpkg-deb", "-x", APP, "/")
    else:  # as packaging/debian/rules and freedombox-macguise.install do
        app = "/usr/lib/python3/dist-packages/macguise_freedombox"
        shutil.copytree(os.path.join(APP, "macguise_freedombox"), app)
        for po in glob.glob(f"{app}/*/locale/*/LC_MESSAGES/django.po"):
            sh("msgfmt", "-c", "-o", po[:-3] + ".mo", po)
            os.unlink(po)
        shutil.copy(os.path.join(APP, "modules-enabled", "macguise"), enabled)
    shutil.copy(CLI, "/usr/bin/macguise")
    with open("/etc/plinth/plinth.config", "w") as f:
        f.write(f"[Network]\nhost = 127.0.0.1\nport = {PORT}\n")
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


def start_plinth(nm):
    """FreedomBox's web service as on a FreedomBox: as the unprivileged user
    plinth, which reaches root only through FreedomBox's sudo rule for its
    actions runner (/etc/sudoers.d/plinth, from the package; up to 25.x) or
    its privileged daemon's socket (26.x)."""
    global PREFIX, BASE
    sh("adduser", "--system", "--quiet", "--group", "--no-create-home",
       "--home", "/var/lib/plinth", "plinth")
    if os.path.exists(PRIVILEGED_DAEMON):
        # as freedombox-privileged.service, root; it makes its socket
        nm.spawn("freedombox-privileged", "/usr/bin/python3", PRIVILEGED_DAEMON,
                 env={k: v for k, v in os.environ.items() if k != "DBUS_SYSTEM_BUS_ADDRESS"})
        nm.wait_for("FreedomBox's privileged daemon",
                    lambda: os.path.exists("/run/freedombox/privileged.socket"), timeout=60)
    prepared = sh("/usr/bin/python3", os.path.join(HERE, "plinth_prepare.py"), USER, PASSWORD,
                  cwd="/var/lib/plinth")
    PREFIX = json.loads(prepared.stdout.splitlines()[-1])["server_dir"]
    BASE = f"http://127.0.0.1:{PORT}{PREFIX}"
    sh("chown", "-R", "plinth:plinth", "/var/lib/plinth")
    env = {k: v for k, v in os.environ.items() if k != "DBUS_SYSTEM_BUS_ADDRESS"}
    env["HOME"] = "/var/lib/plinth"
    nm.spawn("plinth", "setpriv", "--reuid=plinth", "--regid=plinth", "--init-groups",
             "/usr/bin/python3", "/usr/bin/plinth", env=env)

    def answers():
        try:
            with urllib.request.urlopen(BASE + "/", timeout=5):
                return True
        except OSError:
            return False
    nm.wait_for("FreedomBox's web service", answers, timeout=120)


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1280,1400", "--lang=en-US"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.implicitly_wait(0)
    return driver


NM = NmNetns(managed=("veth0",))
TOP = tempfile.mkdtemp(prefix="mg-plinth-")
DRIVER = None


def set_up():
    """NetworkManager, macguised, the profiles, FreedomBox and the browser;
    whatever of it started is ended by tear_down, whatever fails here."""
    global DRIVER
    private_system(TOP)
    NM.start()
    macguise_dirs(NM)
    NM.start_macguised(MACGUISED)
    NM.add_ethernet("wan")
    NM.nmcli("connection", "add", "type", "wifi", "con-name", "cafe", "ssid", "Cafe",
             "ifname", "*")
    NM.nmcli("connection", "add", "type", "wifi", "con-name", "hotspot", "ssid", "FreedomBox",
             "ifname", "*", "802-11-wireless.mode", "ap", "ipv4.method", "shared")
    NM.wait_cloned("wan")
    NM.wait_cloned("cafe", setting="802-11-wireless")
    NM.wait_cloned("hotspot", setting="802-11-wireless")
    NM.nmcli("connection", "up", "wan")
    install_freedombox(FREEDOMBOX_DEB)
    start_plinth(NM)
    os.makedirs(SHOTS, exist_ok=True)
    DRIVER = browser()


def tear_down():
    """The browser, every process NM started (FreedomBox's among them) and
    the namespaces; then the overlays and their upper layers."""
    if DRIVER is not None:
        DRIVER.quit()
    NM.stop()
    for mount in ("/run", "/var", "/usr", "/etc"):
        subprocess.run(["umount", "--lazy", mount], capture_output=True)
    shutil.rmtree(TOP, ignore_errors=True)


def cli_json(*args):
    p = NM.run(CLI, *args, "--json", ns=NM.ns)
    return json.loads(p.stdout)


def wait_page(predicate, what, timeout=60):
    NM.wait_for(what, lambda: predicate(DRIVER), timeout=timeout)


def shot(name):
    DRIVER.save_screenshot(os.path.join(SHOTS, name + ".png"))


def find(css):
    from selenium.webdriver.common.by import By
    return DRIVER.find_element(By.CSS_SELECTOR, css)


def finds(css):
    from selenium.webdriver.common.by import By
    return DRIVER.find_elements(By.CSS_SELECTOR, css)


def submit(element):
    """Click a button (or submit a form) and wait for the page it leads to:
    the old page gone, an alert on the new one; the alert's text and
    whether it is an error."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    old_page = find("html")
    if element.tag_name == "form":
        element.submit()
    else:
        element.click()

    def replaced(_driver):
        try:
            old_page.tag_name
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            # Debian 13's chromedriver says so in its own words when the
            # page it asked about has just been replaced
            if "does not belong to the document" in str(error):
                return True
            raise
    wait_page(replaced, "the next page")
    wait_page(lambda d: finds(".alert-success") or finds(".alert-danger"), "its message")
    errors = finds(".alert-danger")
    return (errors or finds(".alert-success"))[0].text, bool(errors)


def page_test(fn):
    """A browser test: on failure, the page as the browser had it is kept
    beside the screenshots (failed-NAME.png and .html)."""
    def run():
        try:
            fn()
        except Exception:
            shot("failed-" + fn.__name__)
            with open(os.path.join(SHOTS, f"failed-{fn.__name__}.html"), "w") as f:
                f.write(DRIVER.page_source)
            for line in NM.log_tail("plinth", 40).splitlines():
                print("# plinth: " + line)
            raise
    run.__name__ = fn.__name__
    return mgtap.test(run)


def an_administrator_logs_in_to_freedombox():
    DRIVER.get(BASE + f"/accounts/login/?next={PREFIX}/sys/macguise/")
    find("#id_username").send_keys(USER)
    find("#id_password").send_keys(PASSWORD)
    find("#id_password").submit()
    wait_page(lambda d: d.current_url.endswith(f"{PREFIX}/sys/macguise/"),
              "the login to finish")


# The FreedomBox under test, named in the first test's name.
an_administrator_logs_in_to_freedombox.__name__ = \
    f"an_administrator_logs_in_to_freedombox_{FREEDOMBOX_VERSION}"
an_administrator_logs_in_to_freedombox = page_test(an_administrator_logs_in_to_freedombox)


@page_test
def the_system_page_renders_with_the_app():
    DRIVER.get(BASE + "/sys/")
    wait_page(lambda d: finds("a[href$='/sys/macguise/']"), "the app's entry")
    entry = find("a[href$='/sys/macguise/']")
    assert "MAC Privacy" in entry.text, entry.text
    # its icon drawn: the font's glyph, or an inline SVG (26.x)
    assert entry.find_elements("css selector", "span.fa-user-secret, svg"), \
        entry.get_attribute("innerHTML")
    shot("system-page")


@page_test
def the_system_page_lists_every_connection_with_its_address():
    DRIVER.get(BASE + "/sys/macguise/")
    wait_page(lambda d: finds("#macguise-connections tbody tr[data-uuid]"), "the table")
    shot("macguise-connections")
    rows = {row.get_attribute("data-uuid"): row.text
            for row in finds("#macguise-connections tbody tr[data-uuid]")}
    for name, setting in (("wan", "802-3-ethernet"), ("cafe", "802-11-wireless")):
        uuid = NM.uuid_of(name)
        assert uuid in rows, f"{name} not listed: {rows}"
        assert NM.cloned(name, setting).lower() in rows[uuid], (name, rows[uuid])
    status = cli_json("status", "wan")["profiles"][0]
    assert status["vendor"] in rows[NM.uuid_of("wan")], rows


@page_test
def keeping_the_wan_address_is_saved_into_the_profile():
    from selenium.webdriver.support.ui import Select
    DRIVER.get(BASE + f"/sys/macguise/profile/{NM.uuid_of('wan')}/")
    Select(find("#id_rotate")).select_by_value("never")
    message, failed = submit(find("#macguise-settings"))
    assert not failed, message
    settings = cli_json("policy", "wan")["settings"]
    assert settings["rotate"] == {"value": "never", "source": "profile"}, settings
    assert settings["mode"]["source"] == "default", settings
    shot("macguise-profile")


@page_test
def rotate_now_gives_the_live_link_a_new_address():
    before = NM.cloned("wan")
    assert NM.link_mac() == before.lower()
    DRIVER.get(BASE + f"/sys/macguise/profile/{NM.uuid_of('wan')}/")
    message, failed = submit(find("#macguise-rotate"))
    assert not failed, message
    after = NM.cloned("wan")
    assert after != before
    NM.wait_for("the link to carry the new address", lambda: NM.link_mac() == after.lower())
    assert after.lower() in find("#macguise-profile").text
    shot("macguise-rotated")


@page_test
def a_refused_setting_is_shown_as_freedombox_shows_errors():
    DRIVER.get(BASE + f"/sys/macguise/profile/{NM.uuid_of('hotspot')}/")
    find("#id_quiet_hours").send_keys("25:00-26:00")
    message, failed = submit(find("#macguise-settings"))
    assert failed and "25:00-26:00" in message, message
    assert cli_json("policy", "hotspot")["settings"]["quiet-hours"]["source"] == "default"


@page_test
def ticking_makers_draws_the_next_address_from_them():
    DRIVER.get(BASE + f"/sys/macguise/profile/{NM.uuid_of('cafe')}/")
    labels = [e.text for e in finds("#id_vendors label")]
    assert labels[0].startswith("Intel ("), labels  # the most common Wi-Fi maker first
    for vendor in ("intel", "azurewave"):
        find(f"input[name=vendors][value={vendor}]").click()
    message, failed = submit(find("#macguise-settings"))
    assert not failed, message
    vendors = cli_json("policy", "cafe")["settings"]["vendors"]
    assert vendors["source"] == "profile" and set(vendors["value"].split(",")) == \
        {"intel", "azurewave"}, vendors
    for _ in range(3):
        before = NM.cloned("cafe", "802-11-wireless")
        message, failed = submit(find("#macguise-rotate"))
        assert not failed, message
        assert NM.cloned("cafe", "802-11-wireless") != before
        assert cli_json("status", "cafe")["profiles"][0]["vendor_id"] in ("intel", "azurewave")


def diagnostics_rows():
    """FreedomBox's diagnostics for the app, run from the app's menu as an
    owner would: {test: result}."""
    DRIVER.get(BASE + "/sys/macguise/")
    find("section.toolbar .dropdown-toggle").click()
    button = find("form.form-diagnostics-button input[type=submit]")
    wait_page(lambda d: button.is_displayed(), "the app's menu to open")
    button.click()
    wait_page(lambda d: finds("table.diagnostics-results tbody tr"), "the diagnostics")
    rows = {}
    for row in finds("table.diagnostics-results tbody tr"):
        cells = row.find_elements("css selector", "td")
        rows[cells[0].text] = cells[1].text
    return rows


@page_test
def freedombox_diagnostics_report_what_links_each_connection():
    rows = diagnostics_rows()
    shot("macguise-diagnostics")
    assert rows.get("macguised is running") == "passed", rows
    findings = [f for f in cli_json("audit", "cafe")["profiles"][0]["findings"]
                if not f["advice"]]
    assert findings, "the test's Wi-Fi profile should start with findings"
    assert rows.get(f"Connection cafe: {len(findings)} settings link it across addresses") \
        == "warning", rows
    assert rows.get("Connection wan: nothing links it across addresses") == "passed", rows


@page_test
def apply_fixes_hardens_the_connection():
    DRIVER.get(BASE + f"/sys/macguise/profile/{NM.uuid_of('cafe')}/")
    assert finds("#macguise-findings li") and not finds("#macguise-kept-hardened")
    message, failed = submit(find("#macguise-harden"))
    assert not failed, message
    left = [f for f in cli_json("audit", "cafe")["profiles"][0]["findings"] if not f["advice"]]
    assert left == [], left
    assert not NM.sends_host_name("cafe")
    assert not finds("#macguise-findings li")
    # macguised now puts the fixes back should the Networks page undo them
    assert finds("#macguise-kept-hardened")
    assert diagnostics_rows().get("Connection cafe: nothing links it across addresses") \
        == "passed"


@page_test
def the_defaults_form_writes_macguise_conf():
    from selenium.webdriver.support.ui import Select
    DRIVER.get(BASE + "/sys/macguise/")
    assert cli_json("defaults")["classes"]["wifi"]["rotate"] == "daily"
    Select(find("#id_wifi__rotate")).select_by_value("activation")
    message, failed = submit(find("#app-form"))
    assert not failed, message
    classes = cli_json("defaults")["classes"]
    assert classes["wifi"]["rotate"] == "activation", classes
    assert classes["ethernet"]["rotate"] == "weekly", classes
    # The Wi-Fi profile without its own setting follows the default.
    assert cli_json("policy", "cafe")["settings"]["rotate"] == \
        {"value": "activation", "source": "default"}


@page_test
def the_cards_own_address_takes_macguises_out_of_the_profile():
    from selenium.webdriver.support.ui import Select
    DRIVER.get(BASE + f"/sys/macguise/profile/{NM.uuid_of('cafe')}/")
    assert NM.cloned("cafe", "802-11-wireless") != ""
    Select(find("#id_mode")).select_by_value("off")
    message, failed = submit(find("#macguise-settings"))
    assert not failed, message
    NM.wait_for("macguised to give the card's own address back",
                lambda: NM.cloned("cafe", "802-11-wireless") == "permanent")
    DRIVER.get(BASE + f"/sys/macguise/profile/{NM.uuid_of('cafe')}/")
    assert "—" in find("#macguise-profile .macguise-address").text
    shot("macguise-own-address")


@page_test
def the_page_speaks_the_language_the_owner_chose():
    # the cookie FreedomBox's own language selection sets
    DRIVER.get(BASE + "/sys/macguise/")
    DRIVER.add_cookie({"name": "django_language", "value": "de", "path": "/"})
    try:
        DRIVER.get(BASE + "/sys/macguise/")
        wait_page(lambda d: finds("#macguise-connections"), "the page")
        text = find("body").text
        assert "MAC-Privatsphäre" in text and "Verbindungen" in text, text[:400]
        assert "Nächster Wechsel" in find("#macguise-connections thead").text
        shot("macguise-german")
    finally:
        DRIVER.delete_cookie("django_language")


@mgtap.test
def freedomboxs_own_test_setup_runs_the_app_views_for_real():
    """tests/freedombox/views under pytest with FreedomBox's Django test
    settings, as FreedomBox tests its apps' views, in this FreedomBox with
    its sudo rule and actions runner, against this NetworkManager."""
    env = dict(NM.env, PYTHONDONTWRITEBYTECODE="1", LC_ALL="C.UTF-8")
    p = subprocess.run(
        ["/usr/bin/python3", "-m", "pytest", "-p", "no:cacheprovider", "-c", "/dev/null",
         "--rootdir", os.path.join(HERE, "views"), "-ra", "-v",
         f"--ds={FREEDOMBOX_PACKAGE}.tests.data.django_test_settings",
         os.path.join(HERE, "views")],
        cwd="/var/lib/plinth", env=env, capture_output=True, text=True, timeout=600)
    for line in (p.stdout + p.stderr).splitlines():
        print("# pytest: " + line)
    assert p.returncode == 0, "pytest failed"
    summary = p.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary, summary


try:
    print(f"# FreedomBox {FREEDOMBOX_VERSION} ({os.path.basename(FREEDOMBOX_DEB)})", flush=True)
    try:
        set_up()
    except Exception:
        # FreedomBox (or its privileged daemon) did not start with the app:
        # one failure the TAP shows, with why
        print("1..1")
        print(f"not ok 1 - freedombox_{FREEDOMBOX_VERSION}_starts_with_the_app")
        for line in traceback.format_exc().splitlines():
            print("# " + line)
        for name in ("plinth", "freedombox-privileged"):
            for line in NM.log_tail(name, 20).splitlines():
                print(f"# {name}: {line}")
        raise
    FREEDOMBOX_PACKAGE = "freedombox" if os.path.isdir(
        "/usr/lib/python3/dist-packages/freedombox") else "plinth"
    mgtap.run()
finally:
    tear_down()
