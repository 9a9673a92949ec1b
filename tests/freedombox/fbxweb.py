# SPDX-License-Identifier: GPL-3.0-or-later
"""The browser side of tests/freedombox/test-plinth.py: headless Chromium
(Selenium) on FreedomBox's pages, waits for what a page shows, and a
failing page kept beside the screenshots. test-plinth.py sets NM (its
NmNetns), DRIVER, SHOTS and BASE (FreedomBox's URL with its prefix)."""
import os

import mgtap

NM = DRIVER = SHOTS = BASE = None


def browser(insecure_certs=False):
    """Headless Chromium; with @insecure_certs, it accepts a self-signed
    certificate (FreedomBox's own, tests/booted/test-freedombox.py)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1280,1400", "--lang=en-US"):
        options.add_argument(arg)
    if insecure_certs:
        options.set_capability("acceptInsecureCerts", True)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.implicitly_wait(0)
    return driver


def wait_page(predicate, what, timeout=60):
    NM.wait_for(what, lambda: predicate(DRIVER), timeout=timeout)


def shot(name):
    DRIVER.save_screenshot(os.path.join(SHOTS, name + ".png"))


def shot_of(css, name):
    """A screenshot of the element @css alone, whole: the window made tall
    enough for it meanwhile."""
    size = DRIVER.get_window_size()
    element = find(css)
    bottom = element.location["y"] + element.size["height"] + 100
    DRIVER.set_window_size(size["width"], max(size["height"], bottom))
    try:
        find(css).screenshot(os.path.join(SHOTS, name + ".png"))
    finally:
        DRIVER.set_window_size(size["width"], size["height"])


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
    follow(element)
    wait_page(lambda d: finds(".alert-success") or finds(ERROR), "its message")
    errors = finds(ERROR)
    return (errors or finds(".alert-success"))[0].text, bool(errors)


# An error FreedomBox shows, not its standing banner for a unit that is not
# running (macguised.service is not, here: no systemd)
ERROR = ".alert-danger:not(#service-not-running)"


def follow(element):
    """Click a link or button (or submit a form) and wait until the old page
    is gone."""
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
