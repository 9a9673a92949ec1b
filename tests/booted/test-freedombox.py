#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The FreedomBox app on FreedomBox installed for real: Debian's freedombox
package installed with apt in a booted Debian (systemd-nspawn --boot on a
tools/debian-tree SUITE-fbx tree, offline: apt's cache there holds every
package), its web service under systemd (plinth.service behind apache2,
HTTPS with FreedomBox's own self-signed certificate), the administrator
made with FreedomBox's first-boot wizard in the browser, the app's .debs
(network-manager-macguise, freedombox-macguise) installed with apt, and the
app driven by headless Chromium on this machine (tests/freedombox/fbxweb.py)
over the container's cable.

One boot a Debian release, two rounds in it: the release's own FreedomBox,
then SUITE-backports' current one as an upgrade with apt. Each round
installs the app, loads its page, sets a profile's policy on it, renders
FreedomBox's System page with it, then removes and purges the app with apt,
restarting plinth.service each time: FreedomBox must start and serve its
System page, the app's URL answering 404. The versions are the ones the
archive served when the tree was made, each named in the tests' names.

  test-freedombox.py TREE DEBDIR SCREENSHOT-DIR

The test runs in network and mount namespaces of its own, which go with
its processes; the container is powered off and waited for on SIGTERM too.
Prints TAP."""
import glob
import http.cookiejar
import os
import re
import signal
import ssl
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
INNER = "MG_FBXBOOT_NAMESPACES"
if os.environ.get(INNER) != "1":
    os.execvpe("unshare", ["unshare", "--net", "--mount", "--propagation", "private",
                           "/usr/bin/python3", os.path.abspath(__file__), *sys.argv[1:]],
               dict(os.environ, **{INNER: "1"}))

sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "freedombox"))
import mgtap  # noqa: E402
import fbxweb  # noqa: E402
from fbxcontainer import ADDRESS, Container  # noqa: E402
from fbxweb import find, finds, follow, page_test, shot, shot_of, submit, wait_page  # noqa: E402

TREE, DEBS, SHOTS = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
DEBS_INSIDE = "/mnt/macguise-debs"
APP, MAIN = "freedombox-macguise", "network-manager-macguise"
DEFAULTS = "freedombox-macguise-defaults"
USER, PASSWORD = "owner", "a long test passphrase 7"
ORIGIN = f"https://{ADDRESS}"
C = None
BASE = None  # FreedomBox's pages: ORIGIN + its prefix (/plinth, /freedombox from 26.x)
# FreedomBox releases that answer any URL nothing serves with HTTP 500, not
# 404 ("Internal Server Error: /plinth/sys/no-such-app/" in its journal,
# seen on 25.9.3+deb13u2 and 25.9.3~bpo12+2; 23.6 and 26.15 answer 404)
NOT_FOUND_FAILS = ("25.",)
# the policy each round sets on the container's connection (a value the
# round before did not leave)
ROTATE = ("never", "weekly")


def insecure():
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def status_of(url, cookies=True):
    """The HTTP status @url answers (redirects not followed), with the
    browser's cookies: its session."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=insecure()),
                                         urllib.request.HTTPCookieProcessor(jar))
    opener.addheaders = [("Cookie", "; ".join(f"{c['name']}={c['value']}"
                                              for c in fbxweb.DRIVER.get_cookies()))] \
        if cookies and fbxweb.DRIVER else []

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args):
            return None
    opener.add_handler(NoRedirect())
    try:
        with opener.open(url, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return None


def setup_finishes():
    """FreedomBox's own word that its setup of apps is over since
    plinth.service last started ("Setup thread finished." to 23.6, "Setup
    finished." later); a failed setup, which it retries, fails the wait."""
    def finished():
        invocation = C.inside("systemctl", "show", "-P", "InvocationID", "plinth").stdout.strip()
        if not invocation:
            return False
        log = C.inside("journalctl", "-o", "cat", "--no-pager",
                       f"_SYSTEMD_INVOCATION_ID={invocation}", check=False).stdout
        failed = [line for line in log.splitlines() if "Unable to complete setup" in line]
        assert not failed, failed
        return re.search(r"^Setup (thread )?finished\.$", log, re.M) is not None
    started = time.monotonic()
    C.wait_for("FreedomBox's setup of its apps", finished, timeout=900)
    return time.monotonic() - started


def web_service_answers():
    """plinth.service and apache2 active, FreedomBox's pages answering
    through apache2 over HTTPS; BASE set from where / leads."""
    global BASE
    C.wait_for("plinth.service", lambda: C.is_active("plinth"), timeout=120)
    C.wait_for("apache2", lambda: C.is_active("apache2"), timeout=120)
    C.wait_for("FreedomBox's pages over HTTPS",
               lambda: status_of(ORIGIN + "/plinth/", cookies=False) in (200, 302), timeout=120)
    DRIVER = fbxweb.DRIVER
    DRIVER.get(ORIGIN + "/")
    match = re.match(r"https://[^/]+(/[a-z]+)", DRIVER.current_url)
    assert match, DRIVER.current_url
    BASE = fbxweb.BASE = ORIGIN + match.group(1)


def restart_plinth():
    C.inside("systemctl", "restart", "plinth")
    web_service_answers()
    return setup_finishes()


def logged_in():
    """The owner's session, logging in again where FreedomBox asks (its
    URL prefix moved with 26.x, and with it the session's cookie)."""
    fbxweb.DRIVER.get(BASE + "/sys/")
    wait_page(lambda d: finds("#id_username") or finds("a[href$='/sys/users/']"),
              "the System page or the login")
    if finds("#id_username"):
        find("#id_username").send_keys(USER)
        find("#id_password").send_keys(PASSWORD)
        follow(find("#id_password"))
        wait_page(lambda d: finds("a[href$='/sys/users/']"), "the System page")


def first_boot_wizard():
    """FreedomBox's first-boot wizard as an owner goes through it: the
    secret its package wrote, the administrator's account, then each
    further step as offered (skipped where it can be, offers to update or
    to turn something on declined: there is no network), to its end."""
    DRIVER = fbxweb.DRIVER
    DRIVER.get(BASE + "/")
    secret = C.inside("cat", "/var/lib/plinth/firstboot-wizard-secret", check=False).stdout.strip()
    content = ".content-container "
    steps = []
    for _ in range(12):
        wait_page(lambda d: finds(content + "form") or finds(content + "a.btn-primary"),
                  "a wizard step")
        url = DRIVER.current_url
        steps.append(url.split(BASE, 1)[-1])
        if "firstboot" not in url or "/firstboot/complete/" in url:
            break
        if finds("#id_secret"):
            find("#id_secret").send_keys(secret)
        if finds("#id_password1"):
            find("#id_username").send_keys(USER)
            find("#id_password1").send_keys(PASSWORD)
            find("#id_password2").send_keys(PASSWORD)
        for box in finds(content + "form input[type=checkbox]:checked"):
            box.click()
        for radio in finds(content + "form input[type=radio]"):
            if not finds(f"input[type=radio][name='{radio.get_attribute('name')}']:checked"):
                radio.click()
        skip = finds(content + "form [name=skip]")
        buttons = finds(f"{content}form input[type=submit], {content}form button[type=submit]")
        follow(skip[0] if skip and not finds("#id_password1") else
               buttons[0] if buttons else find(content + "a.btn-primary"))
    print(f"# the first-boot wizard's steps: {' '.join(steps)}")
    assert "/firstboot/complete/" in steps[-1] or "firstboot" not in steps[-1], steps


def app_page():
    """The app's page, once its table shows the container's connection."""
    def shown(driver):
        driver.get(BASE + "/sys/macguise/")
        return finds("#macguise-connections tbody tr[data-uuid]")
    wait_page(shown, "the app's page with the connections", timeout=120)


def system_page(with_app):
    fbxweb.DRIVER.get(BASE + "/sys/")
    wait_page(lambda d: finds("a[href$='/sys/users/']"), "FreedomBox's System page")
    entry = finds("a[href$='/sys/macguise/']")
    assert bool(entry) == with_app, [e.text for e in entry]
    if with_app:
        assert "MAC Privacy" in entry[0].text, entry[0].text


def inside_json(*cmd):
    import json
    return json.loads(C.inside(*cmd).stdout)


def round_tests(n, version, backports, screenshot):
    """The tests of one FreedomBox: @backports, installed from there;
    @screenshot, the docs' name for the app's screenshot of this one."""
    tag = re.sub(r"[^0-9a-z]+", "_", version.lower())

    def installs():
        started = time.monotonic()
        target = ["-t", backports] if backports else []
        C.apt("install", *target, f"freedombox={version}")
        assert C.version("freedombox") == version, C.version("freedombox")
        installed = time.monotonic() - started
        if fbxweb.DRIVER is None:
            fbxweb.DRIVER = fbxweb.browser(insecure_certs=True)
        web_service_answers()
        setup = setup_finishes()
        print(f"# FreedomBox {version}: apt {installed:.0f} s, its setup {setup:.0f} s, "
              f"pages under {BASE}")
        if n == 0:
            first_boot_wizard()
        logged_in()
        system_page(with_app=False)

    def app_loads():
        # the app recommends FreedomBox's defaults package: apt installs it
        debs = [os.path.basename(d) for d in glob.glob(os.path.join(DEBS, "*.deb"))
                if os.path.basename(d).startswith((APP + "_", MAIN + "_", DEFAULTS + "_"))]
        assert len(debs) == 3, debs
        C.apt("install", *[f"{DEBS_INSIDE}/{d}" for d in sorted(debs)])
        C.wait_for("macguised", lambda: C.is_active("macguised"))
        # the package's postinst restarted FreedomBox, which sets the app up
        web_service_answers()
        setup_finishes()
        logged_in()
        app_page()
        rows = {r.get_attribute("data-uuid"): r.text
                for r in finds("#macguise-connections tbody tr[data-uuid]")}
        # every profile macguise knows, with the address it gave (none yet
        # for the live one made before macguise came: its next activation)
        profiles = inside_json("macguise", "status", "--json")["profiles"]
        assert profiles and {p["uuid"] for p in profiles} == set(rows), (profiles, rows)
        assert any(p["address"] for p in profiles), profiles
        for p in profiles:
            assert (p["address"] or "—").lower() in rows[p["uuid"]].lower(), (p, rows)
        shot(f"{tag}-app-page")
        if screenshot:
            shot_of("#macguise-app", screenshot)

    def policy_is_set():
        from selenium.webdriver.support.ui import Select
        uuid = C.inside("nmcli", "-g", "connection.uuid", "connection", "show",
                        "lan").stdout.strip()
        fbxweb.DRIVER.get(BASE + f"/sys/macguise/profile/{uuid}/")
        wait_page(lambda d: finds("#id_rotate"), "the connection's page")
        Select(find("#id_rotate")).select_by_value(ROTATE[n])
        # a new schedule for a wired connection changes what the router
        # knows: the app asks for the owner's tick, which the owner gives
        # (by script: FreedomBox 25's page keeps something over the box)
        if finds("#id_confirm") and not find("#id_confirm").is_selected():
            fbxweb.DRIVER.execute_script("arguments[0].click()", find("#id_confirm"))
            assert find("#id_confirm").is_selected()
        message, failed = submit(find("#macguise-settings"))
        assert not failed, message
        settings = inside_json("macguise", "policy", "lan", "--json")["settings"]
        assert settings["rotate"] == {"value": ROTATE[n], "source": "profile"}, settings
        shot(f"{tag}-profile")

    def system_page_with_app():
        system_page(with_app=True)
        shot(f"{tag}-system-page")

    def gone(how):
        def run():
            C.apt(how, APP)
            assert C.version(APP) == "" or how == "remove", C.version(APP)
            assert not C.inside("test", "-e", "/usr/share/freedombox/modules-enabled/macguise",
                                check=False).returncode == 0
            # FreedomBox started again under systemd reads its list of apps anew
            restart_plinth()
            logged_in()
            system_page(with_app=False)
            # the app's URL answers as a URL no app ever had
            never = status_of(BASE + "/sys/no-such-app/")
            app_url = status_of(BASE + "/sys/macguise/")
            print(f"# FreedomBox {version} after apt {how}: the app's URL {app_url}, "
                  f"a URL no app had {never}")
            assert app_url == never, (app_url, never)
            assert app_url == 404 or version.startswith(NOT_FOUND_FAILS), app_url
            shot(f"{tag}-system-page-after-{how}")
        return run

    tests = [(f"freedombox_{tag}_installs_with_apt_and_serves_https_under_systemd", installs),
             (f"the_app_installed_with_apt_loads_in_freedombox_{tag}", app_loads),
             (f"a_profiles_policy_is_set_from_the_app_in_freedombox_{tag}", policy_is_set),
             (f"freedombox_{tag}_system_page_renders_with_the_app", system_page_with_app),
             (f"freedombox_{tag}_starts_and_serves_its_pages_after_apt_remove_of_the_app",
              gone("remove")),
             (f"freedombox_{tag}_starts_and_serves_its_pages_after_apt_purge_of_the_app",
              gone("purge"))]
    for name, fn in tests:
        fn.__name__ = name
        page_test(fn)


def versions():
    """The release's own FreedomBox and its backports' (apt's lists in the
    tree): [(version, backports suite or "")]."""
    codename = C.inside("sh", "-c", ". /etc/os-release; echo $VERSION_CODENAME").stdout.strip()
    found = {}
    for line in C.inside("apt-cache", "madison", "freedombox").stdout.splitlines():
        version, where = [w.strip() for w in line.split("|")[1:3]]
        found.setdefault("backports" if f"{codename}-backports" in where else "own", version)
    assert set(found) == {"own", "backports"}, found
    return [(found["own"], ""), (found["backports"], f"{codename}-backports")]


def main():
    global C

    def terminate(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGINT, terminate)
    os.makedirs(SHOTS, exist_ok=True)
    fbxweb.SHOTS = SHOTS
    C = fbxweb.NM = Container(TREE, {DEBS: DEBS_INSIDE})
    try:
        started = time.monotonic()
        try:
            C.start()
            found = versions()
        except Exception as e:
            print("1..1\nnot ok 1 - the container boots with FreedomBox's packages in apt's cache")
            for line in str(e).splitlines():
                print(f"# {line}")
            sys.exit(1)
        print(f"# booted in {time.monotonic() - started:.1f} s; FreedomBox "
              f"{' then '.join(v for v, _ in found)}")
        # the app's screenshots in docs/: of the oldest FreedomBox and the newest
        names = {("bookworm", 0): "freedombox-app", ("trixie", 1): "freedombox-app-26"}
        codename = found[1][1].split("-")[0]
        for n, (version, backports) in enumerate(found):
            round_tests(n, version, backports, names.get((codename, n)))
        mgtap.run()
    finally:
        if fbxweb.DRIVER is not None:
            fbxweb.DRIVER.quit()
        C.stop()


if __name__ == "__main__":
    main()
