#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The built macguise binary: generate, lookup, vendors and defaults, as a
user and a program (--json) see them, and the usage errors."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import mgtap  # noqa: E402

CLI = sys.argv[1]
MAC_RE = re.compile(r"^[0-9a-f]{2}(:[0-9a-f]{2}){5}$")


def run(*args, env=None):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60, env=env)


def first_octet_ok(mac):
    return int(mac[:2], 16) & 3 == 0


def json_of(*args):
    p = run(*args)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@mgtap.test
def generate_prints_one_wifi_address_by_default():
    p = run("generate")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == 1 and MAC_RE.match(lines[0]), p.stdout
    assert first_octet_ok(lines[0])
    info = json_of("lookup", "--json", lines[0])[0]
    assert info["in_catalogue"] and "wifi" in info["classes"], info


def getrandom_calls(*args):
    # LeakSanitizer cannot run under ptrace; the other tests check leaks
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    p = subprocess.run(["strace", "-f", "-e", "trace=getrandom", CLI, *args],
                       capture_output=True, text=True, timeout=60, env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    calls = [line for line in p.stderr.splitlines() if line.startswith("getrandom(")]
    blocking = [c for c in calls if c.rstrip().split(")")[-2].endswith(", 0")]
    return calls, blocking


@mgtap.test
def generation_waits_for_a_seeded_kernel_pool():
    # libsodium's getrandom(2) without GRND_NONBLOCK: early in boot it waits
    # until the kernel's pool is seeded instead of drawing from an unseeded
    # one. Debian 12's libsodium asks the kernel for every draw, Debian 13's
    # seeds its own generator once; either way with a blocking call. The C
    # library's own non-blocking call (malloc's, Debian 13) is in the
    # baseline, a run that draws nothing: drawing adds none.
    if shutil.which("strace") is None:
        raise AssertionError("strace is needed for this test (tools/dev installs it)")
    base_calls, base_blocking = getrandom_calls("--version")
    calls, blocking = getrandom_calls("generate", "--count", "3")
    assert len(blocking) >= 1, calls
    assert len(calls) - len(blocking) == len(base_calls) - len(base_blocking), (calls, base_calls)


@mgtap.test
def generate_count_gives_distinct_global_addresses():
    p = run("generate", "--count", "500", "--class", "ethernet")
    assert p.returncode == 0, p.stderr
    macs = p.stdout.split()
    assert len(macs) == 500
    assert all(MAC_RE.match(m) and first_octet_ok(m) for m in macs)
    # 500 draws over millions of serials: a repeat would mean a broken source.
    assert len(set(macs)) == 500


@mgtap.test
def generate_json_has_the_documented_fields():
    for cls in ("wifi", "ethernet"):
        arr = json_of("generate", "--json", "-n", "50", "--class", cls)
        assert isinstance(arr, list) and len(arr) == 50
        for o in arr:
            assert set(o) >= {"mac", "oui", "vendor", "class"}, o
            assert o["class"] == cls
            assert MAC_RE.match(o["mac"]) and o["mac"].startswith(o["oui"]), o
            looked = json_of("lookup", "--json", o["mac"])[0]
            assert looked["vendor"] == o["vendor"] and cls in looked["classes"], (o, looked)


def driver_shares(cls, driver, count=20000):
    p = run("generate", "--json", "--class", cls, "--driver", driver, "--count", str(count))
    assert p.returncode == 0, p.stderr
    arr = json.loads(p.stdout)
    shares = {}
    for a in arr:
        shares[a["vendor_id"]] = shares.get(a["vendor_id"], 0) + 1 / len(arr)
    return {a["mix"] for a in arr}, shares, p.stderr


@mgtap.test
def generate_for_a_driver_draws_the_makers_of_its_chip():
    # issue #32's Check, with held-out bands
    mixes, shares, _ = driver_shares("wifi", "iwlwifi")
    assert mixes == {"driver:iwlwifi"} and shares.get("intel", 0) >= 0.99, shares
    for driver, mix in (("rtw89_pci", "rtw89"), ("ath11k_pci", "ath11k"), ("mt7921e", "mt7921")):
        mixes, shares, _ = driver_shares("wifi", driver)
        assert mixes == {"driver:" + mix}, mixes
        assert "intel" not in shares and len(shares) >= 2, (driver, shares)
        assert max(shares.values()) < 0.9, (driver, shares)
    mixes, shares, _ = driver_shares("ethernet", "r8169")
    assert mixes == {"driver:r8169"} and "intel" not in shares, shares
    mixes, shares, _ = driver_shares("ethernet", "r8152")
    assert mixes == {"driver:r8152"} and shares.get("realtek", 0) > 0.75, shares


@mgtap.test
def generate_for_an_unknown_driver_falls_back_with_a_note():
    mixes, shares, err = driver_shares("wifi", "veth", count=2000)
    assert mixes == {"class"}, mixes
    assert 0.35 < shares.get("intel", 0) < 0.55, shares
    assert "no mix for driver 'veth'" in err and "wifi" in err, err
    # without --class, the class whose mix takes the driver
    arr = json_of("generate", "--json", "--driver", "r8169", "-n", "5")
    assert {a["class"] for a in arr} == {"ethernet"}, arr
    assert {a["mix"] for a in arr} == {"driver:r8169"}, arr
    p = run("generate", "--driver", "iwlwifi", "--vendor", "intel")
    assert p.returncode == 2 and "exclude each other" in p.stderr, p.stderr


@mgtap.test
def lookup_names_the_chips_a_maker_ships():
    info = json_of("lookup", "--json", "00:e0:4c:12:34:56", "9c:b6:d0:12:34:56")
    chips = {c["mix"]: c for c in info[0]["chips"]}
    assert "r8152" in chips and "r8152" in chips["r8152"]["drivers"], info[0]
    assert 0.75 < chips["r8152"]["share"] <= 1, chips
    p = run("lookup", "00:e0:4c:12:34:56")
    assert p.returncode == 0 and "r8152" in p.stdout, p.stdout


@mgtap.test
def generate_vendor_restriction():
    arr = json_of("generate", "--json", "-n", "40", "--vendor", "lenovo", "--vendor", "Intel",
                  "--class", "ethernet")
    assert {o["vendor_id"] for o in arr} <= {"lenovo", "intel"}, arr
    p = run("generate", "--vendor", "no-such-maker")
    assert p.returncode == 2 and "no-such-maker" in p.stderr and "macguise vendors" in p.stderr
    p = run("generate", "--vendor", "dell", "--class", "wifi")
    assert p.returncode == 1 and "no vendor" in p.stderr, p.stderr


@mgtap.test
def usage_errors_exit_2_with_one_line():
    cases = [
        ("generate", "--count", "0"),
        ("generate", "--count", "many"),
        ("generate", "--class", "bluetooth"),
        ("generate", "--bogus"),
        ("generate", "extra"),
        ("lookup",),
        ("vendors", "--class", "radio"),
        ("frobnicate",),
        (),
    ]
    for args in cases:
        p = run(*args)
        assert p.returncode == 2, (args, p.returncode)
        if args:
            lines = p.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("macguise"), (args, p.stderr)
        assert "CRITICAL" not in p.stderr and "WARNING" not in p.stderr, p.stderr


@mgtap.test
def with_json_a_usage_error_is_also_a_json_object():
    for args in (("generate", "--count", "0", "--json"), ("generate", "--json", "--bogus"),
                 ("vendors", "--class", "radio", "--json")):
        p = run(*args)
        assert p.returncode == 2, (args, p.returncode)
        err = json.loads(p.stdout)["error"]
        assert err["id"] == "usage" and err["command"] == args[0] and err["message"], err
        assert p.stderr.startswith("macguise "), p.stderr
    # Without --json, standard output stays empty.
    assert run("generate", "--count", "0").stdout == ""


@mgtap.test
def help_on_every_command():
    for args in (("--help",), ("generate", "--help"), ("lookup", "--help"), ("vendors", "--help")):
        p = run(*args)
        assert p.returncode == 0, (args, p.stderr)
        assert "Usage:" in p.stdout, p.stdout
    assert "--class" in run("generate", "--help").stdout
    assert re.match(r"^macguise \d+\.\d+", run("--version").stdout)
    top = run("--help").stdout
    assert "--version" in top and "10 no such profile" in top, top


@mgtap.test
def lookup_knows_catalogue_local_multicast_and_registry():
    p = run("lookup", "00:e0:4c:01:02:03", "F2-B7-7C-01-02-03", "01005e0000fb", "0011.2233.4455")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "Realtek" in out and "ethernet" in out and "current" in out
    assert "registered:" in out
    assert "locally administered" in out
    assert "multicast" in out
    # 00:11:22 is not in the catalogue; ieee-data names its owner.
    assert "not in the macguise catalogue" in out
    if os.path.exists(os.path.join(os.environ["MG_IEEE_DATA_DIR"], "oui.csv")):
        assert "CIMSYS" in out, out
    arr = json_of("lookup", "--json", "8c:8c:aa:00:00:01", "02:00:00:00:00:01",
                  "b8:27:eb:00:00:01")
    assert arr[0]["vendor_id"] == "lenovo" and arr[0]["kind"] == "global"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", arr[0]["registered"]), arr[0]
    assert arr[1]["kind"] == "local" and not arr[1]["in_catalogue"]
    # A Raspberry Pi's block is left out of the catalogue: only the registry knows it.
    assert arr[2]["kind"] == "global" and not arr[2]["in_catalogue"], arr[2]


@mgtap.test
def lookup_bad_mac_is_named_and_the_rest_still_answered():
    p = run("lookup", "nonsense", "b8:27:eb:00:00:01")
    assert p.returncode == 1
    assert "'nonsense' is not a MAC address" in p.stderr, p.stderr
    assert "Raspberry Pi" in p.stdout


@mgtap.test
def vendors_lists_weights_and_sources():
    p = run("vendors")
    assert p.returncode == 0
    for text in ("Class wifi", "Class ethernet", "Class ap", "linux-hardware.org",
                 "ieee-blocks", "two years", "ten years"):
        assert text in p.stdout, (text, p.stdout)
    everything = json_of("vendors", "--json")
    arr = everything["vendors"]
    assert len(arr) >= 40
    for cls in ("wifi", "ethernet", "ap"):
        shares = [v["weights"][cls]["share"] for v in arr if cls in v["weights"]]
        assert abs(sum(shares) - 1.0) < 1e-9, cls
    for v in arr:
        assert v["products"] and v["blocks"], v
        for cls, w in v["weights"].items():
            assert w["weight"] > 0 and w["source"], (v["id"], cls, w)
        for b in v["blocks"]:
            assert re.fullmatch(r"\d{4}-\d\d-\d\d", b["registered"]), b
    rule = everything["age_rule"]
    assert rule["min_age_days"] == 730 and rule["wifi_old_factor"] == 0.25, rule
    wifi = json_of("vendors", "--json", "--class", "wifi")["vendors"]
    assert all("wifi" in v["classes"] and list(v["weights"]) == ["wifi"] for v in wifi)
    assert "dell" not in {v["id"] for v in wifi}


@mgtap.test
def vendors_lists_each_chip_familys_makers_with_their_evidence():
    p = run("vendors", "--class", "wifi")
    assert p.returncode == 0, p.stderr
    assert "Chip families of class wifi" in p.stdout and "drivers: iwlwifi" in p.stdout, p.stdout
    assert "Chip families of class ethernet" not in p.stdout
    everything = json_of("vendors", "--json")
    vendor_ids = {v["id"] for v in everything["vendors"]}
    families = everything["chip_families"]
    assert {"iwlwifi", "rtw89", "r8169"} <= {f["id"] for f in families}, families
    for f in families:
        assert f["class"] in ("wifi", "ethernet") and f["drivers"] and f["products"], f
        assert abs(sum(w["share"] for w in f["weights"]) - 1.0) < 1e-9, f["id"]
        for w in f["weights"]:
            assert w["vendor"] in vendor_ids and w["weight"] > 0 and w["source"], (f["id"], w)
    intel = next(f for f in families if f["id"] == "iwlwifi")
    assert [w["vendor"] for w in intel["weights"]] == ["intel"], intel
    # a Realtek radio carries its module makers' blocks, never the chip maker's
    rtw89 = next(f for f in families if f["id"] == "rtw89")
    assert "realtek" not in {w["vendor"] for w in rtw89["weights"]}, rtw89
    ethernet = json_of("vendors", "--json", "--class", "ethernet")["chip_families"]
    assert ethernet and all(f["class"] == "ethernet" for f in ethernet), ethernet


def defaults_env(conf_dir):
    # no system bus: macguised is not there to be told
    return dict(os.environ, CONFIGURATION_DIRECTORY=conf_dir,
                DBUS_SYSTEM_BUS_ADDRESS="unix:path=/nonexistent/bus")


@mgtap.test
def defaults_sets_a_class_default_in_macguise_conf_keeping_the_rest():
    with tempfile.TemporaryDirectory() as d:
        env = defaults_env(d)
        conf = os.path.join(d, "macguise.conf")
        shipped = os.path.join(os.environ["MG_SOURCE_ROOT"], "data", "macguise.conf")
        shutil.copy(shipped, conf)
        with open(conf) as f:
            comments = [line for line in f if line.startswith("#")]
        shown = json.loads(run("defaults", "--json", env=env).stdout)
        assert shown["classes"]["ethernet"]["rotate"] == "weekly", shown
        assert "quiet-hours" in shown["classes"]["ap"] and "quiet-hours" not in shown["classes"]["wifi"]
        p = run("defaults", "ethernet", "rotate=daily", "macguise.mode=keep-vendor", env=env)
        assert p.returncode == 0, p.stderr
        assert "macguised is not running; it reads the file when it starts" in p.stderr, p.stderr
        out = json.loads(run("defaults", "ethernet", "--json", env=env).stdout)
        assert out["classes"]["ethernet"]["rotate"] == "daily", out
        assert out["classes"]["ethernet"]["mode"] == "keep-vendor", out
        assert list(out["classes"]) == ["ethernet"], out
        with open(conf) as f:
            text = f.read()
        assert [line for line in text.splitlines(True) if line.startswith("#")] == comments
        assert oct(os.stat(conf).st_mode & 0o777) == "0o644"
        # KEY= goes back to the built-in default
        assert run("defaults", "ethernet", "rotate=", env=env).returncode == 0
        out = json.loads(run("defaults", "ethernet", "--json", env=env).stdout)
        assert out["classes"]["ethernet"]["rotate"] == "weekly", out


@mgtap.test
def defaults_refuses_what_macguised_would_refuse_and_changes_nothing():
    with tempfile.TemporaryDirectory() as d:
        env = defaults_env(d)
        conf = os.path.join(d, "macguise.conf")
        with open(conf, "w") as f:
            f.write("[wifi]\nrotate=weekly\n")
        for args in (["wifi", "rotate=fortnightly"], ["wifi", "quiet-hours=03:00-05:00"],
                     ["modem", "rotate=daily"], ["wifi", "vendors=nosuch"], ["wifi", "colour=red"],
                     ["wifi", "rotate"]):
            p = run("defaults", *args, env=env)
            assert p.returncode == 2, (args, p.returncode, p.stderr)
        with open(conf) as f:
            assert f.read() == "[wifi]\nrotate=weekly\n"
        # a bad line already there stays through an edit of another key (it
        # costs only itself), an edit making another is refused, and the
        # edit that mends it is taken
        with open(conf, "w") as f:
            f.write("[wifi]\nrotate=sometimes\n")
        p = run("defaults", "--json", "wifi", "mode=off", env=env)
        assert p.returncode == 0, p.stderr
        assert json.loads(p.stdout)["classes"]["wifi"]["mode"] == "off", p.stdout
        with open(conf) as f:
            assert "rotate=sometimes" in f.read()
        p = run("defaults", "--json", "wifi", "mode=of", env=env)
        assert p.returncode == 2, (p.returncode, p.stdout)
        p = run("defaults", "wifi", "rotate=weekly", env=env)
        assert p.returncode == 0, p.stderr
        assert run("defaults", "--check", env=env).returncode == 0


@mgtap.test
def a_bad_line_costs_that_line_and_is_named_by_defaults_and_its_check():
    with tempfile.TemporaryDirectory() as d:
        env = defaults_env(d)
        packaged = os.path.join(d, "packaged")
        os.makedirs(packaged)
        with open(os.path.join(packaged, "50-freedombox.conf"), "w") as f:
            f.write("[ethernet]\nrotate=never\n")
        env["MACGUISE_PACKAGED_CONF_DIR"] = packaged
        conf = os.path.join(d, "macguise.conf")
        assert run("defaults", "--check", env=env).returncode == 0
        with open(conf, "w") as f:
            f.write("[wifi]\nmode=keep-vendor\nrotate=weeky\n")
        shown = run("defaults", "--json", env=env)
        assert shown.returncode == 0, shown.stderr
        out = json.loads(shown.stdout)
        # the packaged default and the good line beside the typo still apply
        assert out["classes"]["ethernet"]["rotate"] == "never", out
        assert out["classes"]["wifi"]["mode"] == "keep-vendor", out
        assert out["classes"]["wifi"]["rotate"] == "daily", out
        [problem] = out["problems"]
        assert (problem["file"], problem["line"], problem["section"], problem["key"]) == \
            (conf, 3, "wifi", "rotate"), problem
        assert "'weeky'" in problem["message"], problem
        # for people: file, line and key, on standard error
        text = run("defaults", env=env)
        assert text.returncode == 0 and f"{conf}:3: [wifi] macguise.rotate: 'weeky'" in text.stderr, \
            text.stderr
        # for scripts and package scripts: the exit code
        check = run("defaults", "--check", env=env)
        assert check.returncode == 1 and f"{conf}:3:" in check.stderr, (check.returncode, check.stderr)
        check = run("defaults", "--check", "--json", env=env)
        assert check.returncode == 1 and json.loads(check.stdout)["problems"][0]["line"] == 3
        assert run("defaults", "--check", "wifi", env=env).returncode == 2


@mgtap.test
def defaults_by_someone_who_may_not_write_the_file_fails_cleanly():
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)
        env = defaults_env(d)
        p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                            CLI, "defaults", "--json", "wifi", "mode=off"],
                           capture_output=True, text=True, timeout=60, env=env)
        assert p.returncode == 1, (p.returncode, p.stderr)
        assert json.loads(p.stdout)["error"]["id"] == "permission-denied", p.stdout
        assert not os.path.exists(os.path.join(d, "macguise.conf"))


mgtap.run()
