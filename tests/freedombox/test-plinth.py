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
import json
import os
import shutil
import subprocess
import sys
import traceback

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
from reaper import reaper  # noqa: E402
from fbxdeb import freedombox_deb  # noqa: E402
from fbxinstall import AppPackage  # noqa: E402
import fbxweb  # noqa: E402
from fbxsystem import (PRIVILEGED_DAEMON, install_freedombox, macguise_dirs,  # noqa: E402
                       private_system, run_web_service, sh, start_privileged_daemon)
from fbxweb import (ERROR, diagnostics_rows, find, finds, follow, page_test, shot,  # noqa: E402
                    shot_of, submit, wait_page)

MACGUISED, CLI, APP, SHOTS = sys.argv[1:5]
APP_PACKAGE = AppPackage(APP)
# where FreedomBox 23.6 reads the app's entry, and where 25 and later do
ENTRY_ETC = "/etc/plinth/modules-enabled/macguise"
ENTRY_USR = "/usr/share/freedombox/modules-enabled/macguise"
PORT = 8000
# FreedomBox's URL prefix (its cfg.server_dir: /plinth, /freedombox in
# 26.x), as plinth_prepare.py reads it, and its pages' URL
PREFIX = BASE = None
FREEDOMBOX_DEB = freedombox_deb()
FREEDOMBOX_VERSION = subprocess.run(["dpkg-deb", "-f", FREEDOMBOX_DEB, "Version"], check=True,
                                    capture_output=True, text=True).stdout.strip()
USER, PASSWORD = "owner", "a long test passphrase 7"


def start_plinth(nm):
    """FreedomBox's web service as on a FreedomBox: as the unprivileged user
    plinth, which reaches root only through FreedomBox's sudo rule for its
    actions runner (/etc/sudoers.d/plinth, from the package; up to 25.x) or
    its privileged daemon's socket (26.x)."""
    global PREFIX, BASE
    sh("adduser", "--system", "--quiet", "--group", "--no-create-home",
       "--home", "/var/lib/plinth", "plinth")
    start_privileged_daemon(nm)
    prepared = sh("/usr/bin/python3", os.path.join(HERE, "plinth_prepare.py"), USER, PASSWORD,
                  cwd="/var/lib/plinth")
    PREFIX = json.loads(prepared.stdout.splitlines()[-1])["server_dir"]
    BASE = fbxweb.BASE = f"http://127.0.0.1:{PORT}{PREFIX}"
    sh("chown", "-R", "plinth:plinth", "/var/lib/plinth")
    run_web_service(nm, BASE)


NM = fbxweb.NM = NmNetns(managed=("veth0",))
fbxweb.SHOTS = SHOTS
TOP = reaper().mkdtemp("mg-plinth-")
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
    install_freedombox(FREEDOMBOX_DEB, APP_PACKAGE, CLI, MACGUISED, PORT)
    start_plinth(NM)
    os.makedirs(SHOTS, exist_ok=True)
    DRIVER = fbxweb.DRIVER = fbxweb.browser()


def tear_down():
    """The browser, every process NM started (FreedomBox's among them) and
    the namespaces; then the overlays and their upper layers."""
    if DRIVER is not None:
        DRIVER.quit()
    NM.stop()
    for mount in ("/run", "/var", "/usr", "/etc"):
        subprocess.run(["umount", "--lazy", mount], capture_output=True)
    shutil.rmtree(TOP, ignore_errors=True)
    if not os.path.exists(TOP):
        reaper().forget("dir", TOP)


def cli_json(*args):
    p = NM.run(CLI, *args, "--json", ns=NM.ns)
    return json.loads(p.stdout)


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


@mgtap.test
def the_apps_entry_is_where_this_freedombox_reads_it_and_no_conffile():
    # shipped in /usr/share, which 25 and later read; for 23.6, whose
    # package ships /etc/plinth/modules-enabled and which reads only that,
    # a link postinst makes there (none where FreedomBox has no such
    # directory)
    with open(ENTRY_USR) as f:
        assert "macguise_freedombox.macguise" in f.read().split()
    if os.path.isdir("/etc/plinth/modules-enabled"):
        assert os.path.islink(ENTRY_ETC) and os.readlink(ENTRY_ETC) == ENTRY_USR, \
            os.path.lexists(ENTRY_ETC) and os.lstat(ENTRY_ETC)
    else:
        assert not os.path.lexists(ENTRY_ETC)
    # nothing dpkg would keep after `apt remove`
    assert APP_PACKAGE.conffiles() == [], APP_PACKAGE.conffiles()


VERDICT_WORDS = ("not checked yet", "no other device uses it", "another device uses it",
                 "could not be checked")


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
    # the last check in words, never a raw id (none, clean) or a dash
    for uuid, text in rows.items():
        assert any(words in text for words in VERDICT_WORDS), text
    # FreedomBox's own banner for macguised.service (its Daemon component):
    # the unit is not active here, where no systemd runs it
    assert find("#service-not-running").is_displayed()
    assert "MAC Privacy" in find("#service-not-running").text
    # the app's own part, as docs/admin-guide.md shows it (docs/freedombox-app*.png)
    shot_of("#macguise-app", "macguise-app")


@page_test
def learn_more_opens_the_apps_page_of_freedomboxs_manual():
    DRIVER.get(BASE + "/sys/macguise/")
    follow(find("p.manual-page a"))
    wait_page(lambda d: finds("#MACPrivacy"), "the manual page")
    text = find("#MACPrivacy").text
    assert "MAC Privacy (macguise)" in text and "port forwarding" in text, text[:300]


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
def rotate_now_on_the_internet_connection_explains_and_asks_first():
    # the wired connection a router knows the box by: "Rotate now" leads to
    # a page saying what changes for the router; keeping the address keeps it
    before = NM.cloned("wan")
    DRIVER.get(BASE + f"/sys/macguise/profile/{NM.uuid_of('wan')}/")
    follow(find("#macguise-rotate"))
    wait_page(lambda d: finds("#macguise-rotate-explained"), "the explanation")
    text = find("#macguise-rotate-explained").text
    assert "reservation" in text and "port forwarding" in text, text
    assert before.lower() in text.lower(), text
    shot("macguise-rotate-confirm")
    follow(find("#macguise-rotate-cancel"))
    wait_page(lambda d: finds("#macguise-profile"), "the connection's page")
    assert NM.cloned("wan") == before and NM.link_mac() == before.lower()


@page_test
def rotate_now_gives_the_live_link_a_new_address():
    before = NM.cloned("wan")
    assert NM.link_mac() == before.lower()
    DRIVER.get(BASE + f"/sys/macguise/profile/{NM.uuid_of('wan')}/")
    follow(find("#macguise-rotate"))
    message, failed = submit(find("#macguise-rotate-confirm"))
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


def linking(name):
    """The profile's findings that harden would fix."""
    return [f for f in cli_json("audit", name)["profiles"][0]["findings"] if not f["advice"]]


def linking_text(name, count):
    if count == 1:
        return f"Connection {name}: 1 setting links it across addresses"
    return f"Connection {name}: {count} settings link it across addresses"


@page_test
def freedombox_diagnostics_warn_only_about_what_the_owner_has_not_chosen():
    # the hotspot keeps its other identifiers by choice
    cli_json("policy", "hotspot", "harden=no")
    assert linking("hotspot"), "the test's hotspot should start with findings"
    findings = linking("cafe")
    assert findings, "the test's Wi-Fi profile should start with findings"
    machine = cli_json("audit")["global"]
    assert machine, "NetworkManager logs at debug level here: a machine-wide finding"
    rows = diagnostics_rows()
    shot("macguise-diagnostics")
    # the Daemon component's check of the unit (not active here: no systemd)
    assert rows.get("Service macguised is running") == "failed", rows
    assert rows.get(linking_text("cafe", len(findings))) == "warning", rows
    assert rows.get("Connection hotspot: keeps its other identifiers, as chosen "
                    "(hide other identifiers: no)") == "passed", rows
    assert rows.get("Connection wan: nothing links it across addresses") == "passed", rows
    # machine-wide findings are the page's, not warnings
    assert [result for result in rows.values() if result == "warning"] == ["warning"], rows
    DRIVER.get(BASE + "/sys/macguise/")
    for finding in machine:
        assert finding["message"] in find("body").text


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
def diagnostics_repair_hardens_what_they_warned_about_where_freedombox_repairs():
    NM.nmcli("connection", "add", "type", "wifi", "con-name", "library", "ssid", "Library",
             "ifname", "*")
    NM.wait_cloned("library", setting="802-11-wireless")
    count = len(linking("library"))
    assert count, "a new Wi-Fi profile should start with findings"
    rows = diagnostics_rows()
    assert rows.get(linking_text("library", count)) == "warning", rows
    repair = finds("form.form-diagnostics-repair-button input[type=submit]")
    if not os.path.exists(f"/usr/lib/python3/dist-packages/{FREEDOMBOX_PACKAGE}/"
                          "diagnostic_check.py"):
        # FreedomBox 23.6 repairs nothing: no button
        print("# this FreedomBox has no repair")
        assert not repair
        return
    follow(repair[0])
    NM.wait_for("the repair to harden the connection", lambda: not linking("library"),
                timeout=60)
    assert cli_json("audit", "library")["profiles"][0]["kept_hardened"]

    # FreedomBox shows the repair's operation in place of the app's page
    # until it is over
    def page_back(_driver):
        DRIVER.get(BASE + "/sys/macguise/")
        return finds("#macguise-connections")
    wait_page(page_back, "the app's page after the repair")


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
        body = find("#macguise-connections tbody").text
        assert "noch nicht geprüft" in body or "kein anderes Gerät nutzt sie" in body, body
        shot("macguise-german")
    finally:
        DRIVER.delete_cookie("django_language")


def macguise_conf():
    try:
        with open("/etc/macguise/macguise.conf", "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


@page_test
def a_typo_in_macguise_conf_is_shown_with_its_file_and_line_and_costs_only_that_line():
    before = macguise_conf()
    with open("/etc/macguise/macguise.conf", "ab") as f:
        f.write(b"\n[wifi]\nrotate=weeky\n")
    lines = macguise_conf().decode().count("\n")
    try:
        DRIVER.get(BASE + "/sys/macguise/")
        alert = find("#macguise-config-problems").text
        assert f"/etc/macguise/macguise.conf, line {lines}:" in alert, alert
        assert "weeky" in alert, alert
        # the rest of the file applies: the form still shows the defaults
        assert find("#id_ethernet__rotate")
        shot("macguise-config-problem")
    finally:
        if before is None:
            os.remove("/etc/macguise/macguise.conf")
        else:
            with open("/etc/macguise/macguise.conf", "wb") as f:
                f.write(before)
    DRIVER.get(BASE + "/sys/macguise/")
    assert not finds("#macguise-config-problems")


@page_test
def without_networkmanager_the_page_says_why_and_writes_no_default():
    DRIVER.get(BASE + "/sys/macguise/")
    form = find("#app-form")
    before = macguise_conf()
    NM.end("nm")
    try:
        # the form, sent as it was shown, once its state cannot be read
        follow(form)
        wait_page(lambda d: finds("#macguise-no-defaults"), "the explanation")
        assert not finds("#app-form") and finds(ERROR)
        assert macguise_conf() == before, "the defaults were written"
        shot("macguise-no-networkmanager")
        rows = diagnostics_rows()
        failed = [text for text, result in rows.items()
                  if text.startswith("macguise checks the connections: ") and result == "failed"]
        assert failed and len(failed[0]) > len("macguise checks the connections: "), rows
    finally:
        NM.start_nm()


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


def restart_freedombox():
    """FreedomBox's web service (and 26.x's privileged daemon) started
    again, as after apt-get's restart: it reads its list of apps anew."""
    NM.end("plinth")
    if os.path.exists(PRIVILEGED_DAEMON):
        NM.end("freedombox-privileged")
        start_privileged_daemon(NM)
    run_web_service(NM, BASE)


def the_system_page_without_the_app():
    DRIVER.get(BASE + "/sys/")
    wait_page(lambda d: finds("a[href$='/sys/users/']"), "the System page")
    assert not finds("a[href$='/sys/macguise/']")


@page_test
def freedombox_starts_and_serves_its_pages_after_apt_remove():
    APP_PACKAGE.remove()
    # no entry naming the module that is gone (a conffile would stay)
    assert not os.path.lexists(ENTRY_ETC) and not os.path.lexists(ENTRY_USR)
    restart_freedombox()
    the_system_page_without_the_app()


@page_test
def freedombox_starts_and_serves_its_pages_after_apt_purge():
    APP_PACKAGE.purge()
    restart_freedombox()
    the_system_page_without_the_app()
    shot("system-page-after-purge")


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
