"""The real parts the browser tests drive: the built `aubade` binary (its daemon on a free port of 127.0.0.1,
its CLI on the same database), the sound going to alsa-lib's `file` plugin (raw S16_LE stereo at 44.1 kHz,
over its `null` slave), and Debian's Chromium headless through chromedriver, each browser with a fresh profile.

Nothing here sleeps for a fixed time to let something happen: every wait is for an event (a daemon event line,
a condition in the page) under a generous watchdog, because the machine may be loaded.
"""

import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Support"))
from daemon_rig import DIE_WITH_US, WATCHDOG, DaemonClock  # noqa: E402

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Tests" / "Fixtures"
AUBADE = os.environ.get("AUBADE_BIN") or str(ROOT / ".build" / "debug" / "aubade")
ARTEFACTS = Path(os.environ.get("AUBADE_ARTEFACTS") or ROOT / ".build" / "artefacts")
SCREENSHOTS = ARTEFACTS / "screenshots"
RATE = 44100
# What may reach the card after a stop was reported: the chunk being written when it came (1024 frames) and
# what the device still held (200 ms, 8820 frames). A stop that was not honoured adds 44 100 frames a second.
FRAMES_AFTER_A_STOP = 1024 + 8820


class Clock(DaemonClock):
    """A clock in a fresh folder (`DaemonClock`) that may stream from this machine, removed when the test ends;
    `directory`: the base addresses of its station directory (a local mirror), else the directory is off."""

    def __init__(self, test, zone="UTC", directory=None):
        super().__init__(AUBADE, prefix="aubade-browser-", zone=zone, local_streams=True, directory=directory)
        test.addCleanup(self.close)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    # The API (`DaemonClock.api`), as another program on the clock's own machine would use it

    def pairing_code(self):
        status, answer = self.api("POST", "/pair/code", {})
        assert status == 201, answer
        return answer["code"]

    # What reached the sound card

    def card_bytes(self):
        return self.card.stat().st_size if self.card.exists() else 0

    def samples(self, start_frame=0):
        """The card's samples (interleaved stereo, signed 16-bit) from `start_frame` on."""
        with open(self.card, "rb") as f:
            f.seek(start_frame * 4)
            data = f.read()
        data = data[: len(data) - len(data) % 2]
        return struct.unpack(f"<{len(data) // 2}h", data)

    def wait_for_card(self, seconds):
        """Until the card has taken `seconds` of audio (a file's growth has no event to wait for)."""
        deadline = time.monotonic() + WATCHDOG
        while self.card_bytes() < seconds * RATE * 4:
            if time.monotonic() > deadline:
                raise AssertionError(f"the card got only {self.card_bytes() // 4} frames")
            time.sleep(0.1)


class Fixture:
    """A server of Tests/Fixtures on a free port of 127.0.0.1 (it prints the port first), killed when the test
    ends (and with the test process, like every program a test starts)."""

    def __init__(self, test, script, *args):
        self.process = subprocess.Popen([*DIE_WITH_US, sys.executable, str(FIXTURES / script), *map(str, args)],
                                        stdout=subprocess.PIPE, text=True, cwd=FIXTURES)
        test.addCleanup(self.close)
        self.base = f"http://127.0.0.1:{int(self.process.stdout.readline())}"

    def close(self):
        self.process.kill()
        self.process.wait()
        self.process.stdout.close()


def tone_mp3(path, seconds=30):
    """An MP3 of a 440 Hz tone, made with sox and lame (128 kbps CBR, 44.1 kHz stereo)."""
    wav = path.with_suffix(".wav")
    subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", str(wav), "synth", str(seconds), "sine", "440", "vol", "0.5"],
                   check=True)
    subprocess.run(["lame", "--quiet", "--cbr", "-b", "128", str(wav), str(path)], check=True)
    wav.unlink()
    return path


def tiny_png(rgb=(31, 95, 168)):
    """A valid 8×8 PNG of one colour (a station's logo the browser can draw)."""
    import zlib
    row = b"\x00" + bytes(rgb) * 8
    chunk = lambda kind, data: (struct.pack(">I", len(data)) + kind + data
                                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * 8)) + chunk(b"IEND", b""))


class DirectoryMirror(Fixture):
    """The local stand-in of the public station directory (`directory_server.py`), in a folder of its own, with
    `stations` (in the directory's own field names; `{base}` in a value becomes the mirror's address), Swiss
    Jazz's logo at /logo/jazz.png and a 440 Hz MP3 at /stream.mp3."""

    def __init__(self, test, stations):
        folder = Path(tempfile.mkdtemp(prefix="aubade-directory-"))
        test.addCleanup(shutil.rmtree, folder, True)
        self.stations_file = folder / "stations.json"
        self.stations_file.write_text("[]")
        (folder / "jazz.png").write_bytes(tiny_png())
        super().__init__(test, "directory_server.py", "ok", self.stations_file, folder / "requests.log",
                         tone_mp3(folder / "tone.mp3"))
        self.stations_file.write_text(json.dumps(
            [{k: v.replace("{base}", self.base) if isinstance(v, str) else v for k, v in s.items()} for s in stations]))


class Browser:
    """Chromium headless through chromedriver, with a fresh profile in a temp folder and the viewport set to
    exactly `width`×`height` CSS pixels. It is kept off the network: no background or component fetches."""

    def __init__(self, test, width, height, mobile=False):
        self.profile = tempfile.mkdtemp(prefix="aubade-chromium-")
        test.addCleanup(shutil.rmtree, self.profile, True)
        options = webdriver.ChromeOptions()
        options.binary_location = self.dying_with_its_parent("chromium", shutil.which("chromium") or "/usr/bin/chromium")
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         f"--user-data-dir={self.profile}", f"--window-size={width},{height}", "--hide-scrollbars",
                         "--lang=en-GB", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync",
                         "--disable-default-apps", "--disable-features=Translate,OptimizationHints,MediaRouter",
                         "--metrics-recording-only", "--password-store=basic"]:
            options.add_argument(argument)
        options.add_experimental_option("prefs", {"intl.accept_languages": "en-GB"})
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver_path = self.dying_with_its_parent("chromedriver", shutil.which("chromedriver") or "/usr/bin/chromedriver")
        service = Service(driver_path, env=dict(os.environ, TZ="UTC"))
        self.driver = webdriver.Chrome(service=service, options=options)
        test.addCleanup(self.driver.quit)
        self.driver.set_page_load_timeout(WATCHDOG)
        self.driver.set_script_timeout(WATCHDOG)
        self.resize(width, height, mobile)

    def dying_with_its_parent(self, name, program):
        """A script in the profile's folder that runs `program` with DIE_WITH_US: chromedriver dies with this test
        process and Chromium with chromedriver (and its helpers with Chromium), even when the test is killed and
        no clean-up runs; Selenium starts each by a path and nothing else."""
        script = Path(self.profile) / f"{name}-dying-with-its-parent"
        script.write_text("#!/bin/sh\nexec " + " ".join(DIE_WITH_US) + f' "{program}" "$@"\n')
        script.chmod(0o755)
        return str(script)

    def resize(self, width, height, mobile=False):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        self.size = (width, height)

    def open(self, url):
        self.driver.get(url)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def wait(self, condition, what, timeout=WATCHDOG):
        """Waits until `condition(driver)` is truthy; fails naming `what`. An element that is missing or was
        just replaced (a list drawn again) counts as not yet."""
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1,
                                 ignored_exceptions=[NoSuchElementException, StaleElementReferenceException]).until(condition)
        except TimeoutException:
            failures = ARTEFACTS / "failures"
            failures.mkdir(parents=True, exist_ok=True)
            shot = failures / f"{time.strftime('%H%M%S')}-{abs(hash(what)) % 10000}.png"
            self.driver.save_screenshot(str(shot))
            raise AssertionError(f"the page never showed {what} within {timeout:.0f} s (screenshot: {shot}); "
                                 f"console: {self.console()}") from None

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def visible(self, css):
        elements = self.driver.find_elements(By.CSS_SELECTOR, css)
        return bool(elements) and elements[0].is_displayed()

    def wait_visible(self, css, what=None):
        return self.wait(lambda d: self.visible(css) and self.find(css), what or css)

    def wait_hidden(self, css, what=None):
        return self.wait(lambda d: not self.visible(css), what or f"{css} hidden")

    def text(self, css):
        return self.find(css).text

    def click(self, css):
        element = self.wait_visible(css)
        self.js("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def type(self, css, text):
        field = self.wait_visible(css)
        self.js("arguments[0].scrollIntoView({block: 'center'})", field)
        field.clear()
        field.send_keys(text)

    def scroll_to(self, css, margin=8):
        """Scrolls the page so that `css` starts `margin` px below the top of the viewport (as far as it goes)."""
        self.js("const r = arguments[0].getBoundingClientRect(); window.scrollTo(0, scrollY + r.top - arguments[1]);",
                self.find(css), margin)

    def tap(self, x, y):
        """A touch at (x, y) of the viewport, as the kiosk's touchscreen sends it."""
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
        for kind in ("touchStart", "touchEnd"):
            points = [{"x": x, "y": y}] if kind == "touchStart" else []
            self.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def console(self):
        """The page's console messages since the last call, in order."""
        try:
            entries = self.driver.get_log("browser")
        except Exception:  # noqa: BLE001 - a closed browser has no log
            return []
        return [(e["level"], e["message"]) for e in entries]

    def screenshot(self, name):
        """Saves the viewport as `name`.png among the run's artefacts (and in docs/screenshots with
        AUBADE_SCREENSHOTS=docs)."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.driver.save_screenshot(str(path))
        if os.environ.get("AUBADE_SCREENSHOTS") == "docs":
            docs = ROOT / "docs" / "screenshots"
            docs.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, docs / f"{name}.png")
        return path

    def layout_problems(self, min_target=44):
        """What a small screen would get wrong: content wider or (for a fixed face) taller than the viewport,
        visible buttons smaller than `min_target` px, or outside the viewport."""
        return self.js("""
            const [minTarget, width] = arguments;
            const problems = [];
            const root = document.scrollingElement;
            // A phone widens its layout to fit what overflows, so innerWidth alone would not tell.
            if (root.scrollWidth > width || innerWidth > width) problems.push(`wider than ${width}px: ${root.scrollWidth}`);
            for (const b of document.querySelectorAll('button, input, select')) {
              const r = b.getBoundingClientRect();
              if (!r.width || !r.height || getComputedStyle(b).visibility === 'hidden') continue;
              if (b.type === 'checkbox' && b.closest('.switch, .switch-field')) continue;
              if (b.type === 'radio' || (b.type === 'checkbox' && b.closest('.days'))) continue;
              if (r.height < minTarget) problems.push(`${b.id || b.textContent.trim() || b.name} is ${r.height}px tall`);
              if (r.right > width + 1 || r.left < -1) problems.push(`${b.id || b.textContent.trim()} is outside`);
            }
            return problems;""", min_target, self.size[0])

    def script_ran(self):
        """Whether a hostile name's markup ran: the names set window.__pwned when they run."""
        return self.js("return window.__pwned !== undefined || document.querySelectorAll('img[onerror]').length > 0")


HOSTILE_ALARM = "<script>window.__pwned=1</script>"
HOSTILE_STATION = '<img src=x onerror="window.__pwned=2">'


class BrowserTest(unittest.TestCase):
    """A test with a clock and helpers for its pages."""

    def pair_phone(self, clock, browser, name="phone"):
        """Pairs the phone page the way a user does, with a code the clock's own machine asked for."""
        browser.open(clock.url + "/")
        browser.wait_visible("#pair-code", "the pairing form")
        browser.type("#pair-code", clock.pairing_code())
        browser.type("#pair-name", name)
        browser.click("#pair-submit")
        browser.wait_visible("#alarms-card", "the alarms after pairing")

    def open_kiosk(self, clock, browser):
        """Opens the kiosk face and waits until it shows the clock's live state and has paired itself."""
        browser.open(clock.url + "/kiosk")
        browser.wait(lambda d: browser.js("return localStorage.getItem('aubade.kiosk.token')"), "the kiosk's own token")
        browser.wait(lambda d: browser.text("#clock") != "--:--", "the time")

    def assert_no_script_errors(self, browser):
        """No error of the pages' own code in the console (refused requests and a daemon that is away are
        logged by the browser too, and are expected)."""
        errors = [m for level, m in browser.console()
                  if level == "SEVERE" and "Failed to load resource" not in m and "net::ERR_" not in m]
        self.assertEqual(errors, [], "the page's scripts logged errors")
