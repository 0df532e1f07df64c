"""An alarm's sunrise on the kiosk face, against the real daemon on a fake clock (`--fake-time`) and a fake sysfs
backlight: in headless Chromium, the face's colour at three moments of a sunrise (deep red, orange, warm white),
each checked against the daemon's live state and against the colour stops the clock promises, and saved as a
screenshot; and the packaged launcher, `deploy/kiosk/aubade-kiosk`, with no desktop session, starting the face
under cage on its headless backend (Chromium on Wayland), photographed with grim: the face is there, in the
sunrise's colour.

Every program a test starts dies with it: the daemon and the fixtures through `setpriv --pdeathsig`, cage and
everything under it as one process group killed at the test's end (and through `--pdeathsig` too)."""

import json
import os
import pwd
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from pathlib import Path

from harness import ROOT, SCREENSHOTS, WATCHDOG, Browser, BrowserTest, Clock
from daemon_rig import end_session  # noqa: E402 - on the path harness puts Support on
from test_kiosk import tomorrow_at
from test_night import NightTests

LAUNCHER = ROOT / "deploy" / "kiosk" / "aubade-kiosk"
# The colour stops of AubadeCore's SunriseCurve, read here independently: (progress, r, g, b).
STOPS = [(0.0, 0x07, 0x05, 0x0A), (0.3, 0x5C, 0x0A, 0x04), (0.6, 0xE0, 0x5A, 0x12), (0.8, 0xFF, 0xB0, 0x5C),
         (1.0, 0xFF, 0xF1, 0xD8)]


def sky(p):
    """The sunrise's background at progress `p` (0…1), as (r, g, b)."""
    p = min(max(p, 0.0), 1.0)
    for (p0, *a), (p1, *b) in zip(STOPS, STOPS[1:]):
        if p <= p1:
            t = (p - p0) / (p1 - p0)
            return tuple(round(x + (y - x) * t) for x, y in zip(a, b))
    return tuple(STOPS[-1][1:])


def rgb(text):
    """"#rrggbb" or "rgb(r, g, b)" as (r, g, b)."""
    text = text.strip()
    if text.startswith("#"):
        return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))
    return tuple(int(float(v)) for v in text[text.index("(") + 1:text.index(")")].split(",")[:3])


def close(a, b, tolerance=6):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def png_pixels(path):
    """A PNG's size and its pixels as rows of (r, g, b): 8-bit RGB or RGBA, not interlaced (what Chromium and grim
    write), decoded here so that the tests need nothing beyond the standard library."""
    data = Path(path).read_bytes()
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
        elif kind == b"IDAT":
            idat += body
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up, corner = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                pa, pb, pc = abs(up - corner), abs(left - corner), abs(left + up - 2 * corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


class SunriseTests(BrowserTest):
    backlight = NightTests.backlight
    brightness = NightTests.brightness

    def sunrise_clock(self, seconds_before, sunrise="20m"):
        """A clock dimmed 22:00–09:00 at 10 % with a daily 08:00 alarm whose sunrise is `sunrise`, started
        `seconds_before` the alarm on a fake sysfs backlight."""
        clock = Clock(self)
        for key, value in (("dimFrom", "22:00"), ("dimUntil", "09:00"), ("dimLevel", "10")):
            clock.cli("settings", "set", key, value)
        clock.cli("alarm", "add", "--name", "Work", "--time", "08:00", "--days", "daily", "--source", "tone",
                  "--duration", "5m", "--sunrise", sunrise)
        root = self.backlight(clock)
        clock.start(fake_time=tomorrow_at(8, 0, seconds_before=seconds_before), extra=["--backlight-root", str(root)])
        return clock

    def test_the_face_goes_from_deep_red_through_orange_to_warm_white(self):
        """Three clocks, each started at one moment of a sunrise (one step every 6 s of a 20-minute one, so the
        moment holds while the page loads): a quarter of the way, 60 %, and 97.5 % — that one of a two-hour sunrise,
        3 minutes before its alarm, so that the ring (which ends the sunrise face) never comes while it is looked at."""
        kiosk = Browser(self, 800, 480)
        moments = (
            (900, "20m", "kiosk-sunrise-red", lambda c: c[0] > 3 * c[1] and c[0] > 60, "deep red"),
            (480, "20m", "kiosk-sunrise-orange", lambda c: c[0] > 180 and 60 < c[1] < 0.6 * c[0] and c[2] < c[1],
             "orange"),
            (180, "2h", "kiosk-sunrise-white", lambda c: min(c) > 190 and c[0] >= c[1] >= c[2], "warm white"),
        )
        levels = []
        for seconds_before, sunrise, name, looks, words in moments:
            clock = self.sunrise_clock(seconds_before, sunrise)
            began = clock.wait_for("sunrise", lambda e: e.get("state") == "began")
            self.assertEqual(began["lead_s"], {"20m": 1200, "2h": 7200}[sunrise])
            self.open_kiosk(clock, kiosk)
            kiosk.wait(lambda d: kiosk.js("return document.body.classList.contains('sunrise')"), f"the {words} face")
            # The page fades into each step in a second: wait until what is shown is what the daemon sent.
            kiosk.wait(lambda d: kiosk.js("""
                const target = getComputedStyle(document.body).getPropertyValue('--sunrise-sky').trim();
                const now = getComputedStyle(document.body).backgroundColor;
                const hex = '#' + now.match(/\\d+/g).slice(0, 3).map(v => (+v).toString(16).padStart(2, '0')).join('');
                return target !== '' && hex.toUpperCase() === target.toUpperCase();"""), f"the {words} face settled")
            shown = int(kiosk.js("return document.body.dataset.sunrise"))
            target = rgb(kiosk.js("return getComputedStyle(document.body).getPropertyValue('--sunrise-sky')"))
            self.assertTrue(close(target, sky(shown / 1000), 2), f"{target} at {shown}‰, expected {sky(shown / 1000)}")
            path = kiosk.screenshot(name)
            width, height, rows = png_pixels(path)
            corner = rows[height - 5][5]  # the face's background, away from the digits
            self.assertTrue(close(corner, target), f"{name}: the screenshot shows {corner}, the page {target}")
            self.assertTrue(looks(corner), f"{name}: {corner} is not {words}")
            self.assertTrue(kiosk.visible("#clock"), "the time on the sunrise face")
            kiosk.wait(lambda d: self.brightness() > 26, "the backlight above the night's 10 %")
            levels.append(self.brightness())
            self.assert_no_script_errors(kiosk)
            clock.close()
        self.assertEqual(levels, sorted(levels), f"later moments, brighter screens: {levels}")
        self.assertEqual(levels[-1] > 200, True, f"near full at 97.5 %: {levels}")


class CageTests(BrowserTest):
    """The packaged launcher without a desktop session: it runs the face under cage."""

    backlight = NightTests.backlight

    def setUp(self):
        for tool in ("cage", "grim", "chromium", "setpriv"):
            if not shutil.which(tool):
                self.fail(f"{tool} is missing: make deps-test installs it")

    def start_cage(self, clock):
        """The launcher on the clock's /kiosk in a session of its own, as an unprivileged user when the tests run
        as root (cage refuses to run as root): cage on wlroots' headless backend with the pixman renderer (no GPU
        here), Chromium on Wayland. Returns the private XDG_RUNTIME_DIR, where cage's Wayland socket appears."""
        folder = Path(tempfile.mkdtemp(prefix="aubade-cage-"))
        folder.chmod(0o755)  # the unprivileged user reaches its runtime folder and home through it
        self.addCleanup(shutil.rmtree, folder, True)
        runtime, home = folder / "run", folder / "home"
        runtime.mkdir(mode=0o700)
        home.mkdir()
        # Chromium with the launcher's own flags (inside cage: an app window, maximised), and what this machine
        # needs beside them: no sandbox (no user namespaces for an unprivileged user here), no infobar about it,
        # Wayland named, a profile in the test's home.
        browser = folder / "chromium"
        browser.write_text('#!/bin/sh\nexec chromium --no-sandbox --test-type --ozone-platform=wayland '
                           f'"$@" --user-data-dir="{home}/profile"\n')
        browser.chmod(0o755)
        drop = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("nobody")
            os.chown(runtime, user.pw_uid, user.pw_gid)
            os.chown(home, user.pw_uid, user.pw_gid)
            drop = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--"]
        env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_RUNTIME_DIR": str(runtime),
               "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
               "AUBADE_KIOSK_BROWSER": str(browser),
               # Chromium whatever this machine's memory (under 1 GiB the launcher would pick the native face).
               "AUBADE_KIOSK_FACE": "chromium"}
        log = open(folder / "cage.log", "w")
        self.addCleanup(log.close)
        process = subprocess.Popen([*drop, "setpriv", "--pdeathsig", "KILL", "--", str(LAUNCHER), clock.url + "/kiosk"],
                                   env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.addCleanup(end_session, process)  # cage, Chromium and the rest of the launcher's session
        self.cage_log = folder / "cage.log"
        return runtime

    def grim(self, runtime, name):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        done = subprocess.run(["grim", str(path)], env={"PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": str(runtime),
                                                           "WAYLAND_DISPLAY": "wayland-0"}, capture_output=True)
        return path if done.returncode == 0 else None

    def test_the_launcher_runs_the_face_under_cage_in_the_sunrise(self):
        clock = Clock(self)
        for key, value in (("dimFrom", "22:00"), ("dimUntil", "09:00"), ("dimLevel", "10")):
            clock.cli("settings", "set", key, value)
        clock.cli("alarm", "add", "--name", "Work", "--time", "08:00", "--days", "daily", "--source", "tone",
                  "--sunrise", "2h")
        root = self.backlight(clock)
        # An hour into a two-hour sunrise: the face is orange-red for minutes, whatever cage's start costs.
        clock.start(fake_time=tomorrow_at(8, 0, seconds_before=3600), extra=["--backlight-root", str(root)])
        clock.wait_for("sunrise", lambda e: e.get("state") == "began")
        runtime = self.start_cage(clock)

        def face_shown():
            path = self.grim(runtime, "kiosk-cage-sunrise")
            if not path:
                return False
            width, height, rows = png_pixels(path)
            status = json.loads(clock.cli("status", "--json").stdout)
            progress = status["face"]["sunriseProgress"] / 100
            expected = [sky(progress + d / 100) for d in range(-2, 3)]
            skyish = [(x, y) for y in range(0, height, 8) for x in range(0, width, 8)
                      if any(close(rows[y][x], e, 8) for e in expected)]
            self.face = (width, height, rows, skyish, expected)
            return len(skyish) > 500  # a sunrise-coloured face, not a few stray pixels

        deadline = time.monotonic() + WATCHDOG * 3
        while not face_shown():
            if time.monotonic() > deadline:
                self.fail(f"no sunrise-coloured face on cage's screen; cage's log: {self.cage_log.read_text()[-2000:]}")
            time.sleep(1)
        width, height, rows, skyish, expected = self.face
        self.assertGreater(width, 0)
        # The face's digits: pixels of the sunrise's ink inside the area the sky covers.
        xs, ys = [x for x, _ in skyish], [y for _, y in skyish]
        inked = sum(1 for y in range(min(ys), max(ys), 2) for x in range(min(xs), max(xs), 2)
                    if not any(close(rows[y][x], e, 30) for e in expected))
        self.assertGreater(inked, 50, "the clock's digits on the sunrise face")
        if os.environ.get("AUBADE_SCREENSHOTS") == "docs":
            shutil.copyfile(SCREENSHOTS / "kiosk-cage-sunrise.png", ROOT / "docs" / "screenshots" / "kiosk-cage-sunrise.png")


class PhoneSunriseTests(BrowserTest):
    """The phone page's alarm form sets an alarm's sunrise, read back with the real CLI."""

    def test_the_alarm_form_sets_and_clears_a_sunrise(self):
        clock = Clock(self)
        clock.start()
        phone = Browser(self, 360, 780, mobile=True)
        self.pair_phone(clock, phone)
        phone.click("#add-alarm")
        phone.type("#f-name", "Work")
        phone.type("#f-time", "0645")
        self.assertEqual(phone.find("#f-sunrise").get_attribute("value"), "", "a new alarm: the clock's default")
        phone.type("#f-sunrise", "15")
        phone.click("#f-save")
        phone.wait(lambda d: "sunrise 15 min before" in phone.text("#alarms"), "the sunrise in the alarm's summary")
        work = clock.cli_json("alarm", "list")["alarms"][0]
        self.assertEqual(work["sunriseSeconds"], 900)
        self.assertEqual(phone.layout_problems(), [])

        phone.click(f'#alarms li[data-id="{work["id"]}"] .alarm-open')
        phone.wait(lambda d: phone.find("#f-sunrise").get_attribute("value") == "15", "the sunrise in the editor")
        phone.type("#f-sunrise", "0")
        phone.click("#f-save")
        phone.wait(lambda d: "sunrise" not in phone.text("#alarms"), "no sunrise in the summary")
        self.assertEqual(clock.cli_json("alarm", "list")["alarms"][0]["sunriseSeconds"], 0)
        self.assert_no_script_errors(phone)
