#!/usr/bin/env python3
"""Screenshots of the clock's device page in a real Home Assistant, for the README: docs/screenshots/ha-*.png.

It starts, each in a fresh folder under /tmp, a private Mosquitto, a Home Assistant from a virtualenv (onboarded,
with an MQTT entry for that broker and a user made with `hass --script auth`, its frontend on 127.0.0.1) and a
clock with two alarms ("Work" 06:45 mon-fri, "Weekend" 08:30 sat,sun, plus a switched-off "Flight") and two
stations (served here by Tests/Fixtures/fault_server.py: a quiet sine with ICY titles), run with
`aubade run --mqtt`. It logs into the frontend with headless Chromium (a token from Home
Assistant's own login flow, put where the frontend keeps it) and saves:

  ha-device.png       the device page: controls (buttons, alarm switches, times and days, volume, station, sleep
                      timer), sensors and the activity, the clock idle
  ha-next-alarm.png   the "Next alarm" entity's dialog
  ha-alarm.png        the Work alarm's switch dialog with its attributes (time, days, source, volume, today)
  ha-event.png        Developer tools → States: the "Alarm" event entity with the pre_alarm event's attributes
                      (the clock restarted with --fake-time 40 s before the Work alarm, within its pre-alarm lead)
  ha-ringing.png      the device page while the Work alarm rings: State "ringing", Ringing on
  ha-radio.png        the device page after Snooze, Stop, the station FIP and a 30-minute sleep timer, all from
                      Home Assistant (Stop is refused while an alarm is snoozed; the CLI ends the snooze then):
                      State "sleep", Now playing "FIP — <title>"

It then prints every entity of the device with its state and unit, and Home Assistant's log lines that name MQTT
or the clock, so that what Home Assistant made of the device can be checked. Everything it starts dies with it
(util-linux's setpriv arms the parent-death signal), even when it is killed.

Rerun (any Python with selenium; the PNGs are shrunk with the Pillow of Home Assistant's own venv):
  .build/browser-venv/bin/python scripts/ha_screenshots.py --aubade .build/debug/aubade --ha-venv /path/to/ha-venv
"""

import argparse
import datetime
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "Support"))
from daemon_rig import DIE_WITH_US, DaemonClock, free_port  # noqa: E402 - found through the line above

WATCHDOG = 180.0
USER, PASSWORD = "demo", "aubade-demo-password"
CLIENT_ID = "aubade-bedroom"
NODE = "aubade-bedroom"
PREFIX = "aubade/bedroom"
DEVICE_NAME = "Bedside Aubade"


def wait_until(what, check, timeout=WATCHDOG, every=0.5):
    """Polls `check` until it returns something truthy (returned), or fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            result = check()
        except Exception as error:  # noqa: BLE001 - not there yet
            result, last = None, error
        else:
            last = None
        if result:
            return result
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting for {what}" + (f" ({last})" if last else ""))
        time.sleep(every)


class Processes:
    """What this script started, each dying with it; `stop` ends them in reverse order."""

    def __init__(self):
        self.started = []

    def start(self, name, args, log, **kwargs):
        with open(log, "ab") as out:
            process = subprocess.Popen([*DIE_WITH_US, *args], stdout=kwargs.pop("stdout", out), stderr=out, **kwargs)
        self.started.append((name, process))
        return process

    def stop(self, process):
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def stop_all(self):
        for _, process in reversed(self.started):
            self.stop(process)


# Mosquitto


def start_broker(run, work):
    port = free_port()
    conf = work / "mosquitto.conf"
    # "user root": started as root, Mosquitto would otherwise become the user mosquitto, and that change of
    # credentials clears the parent-death signal (it would outlive this script).
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nuser root\n")
    run.start("mosquitto", ["mosquitto", "-c", str(conf)], work / "mosquitto.log")
    wait_until("Mosquitto", lambda: socket.create_connection(("127.0.0.1", port), timeout=1).close() or True)
    return port


# The radio: Tests/Fixtures/fault_server.py serving a quiet sine MP3 with ICY titles, as two local "stations"


def start_radio(run, work):
    wav, mp3 = work / "sine.wav", work / "sine.mp3"
    subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", str(wav), "synth", "20", "sine", "440",
                    "vol", "0.05"], check=True, timeout=WATCHDOG)
    subprocess.run(["lame", "--quiet", "--cbr", "-b", "128", str(wav), str(mp3)], check=True, timeout=WATCHDOG)
    server = run.start("radio", [sys.executable, str(ROOT / "Tests" / "Fixtures" / "fault_server.py"), str(mp3)],
                       work / "radio.log", stdout=subprocess.PIPE)
    port = int(server.stdout.readline())
    return lambda title: (f"http://127.0.0.1:{port}/mp3-icy?metaint=8192&repeat=500&title="
                          + urllib.parse.quote(title))


# Home Assistant


class HomeAssistant:
    def __init__(self, venv, work, broker_port, zone):
        self.venv = Path(venv)
        self.dir = work / "ha"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.token = None
        storage = self.dir / ".storage"
        storage.mkdir(parents=True)
        (self.dir / "configuration.yaml").write_text(
            "homeassistant:\n"
            "  name: Home\n  latitude: 52.52\n  longitude: 13.40\n  elevation: 34\n"
            f"  unit_system: metric\n  time_zone: {zone}\n  country: DE\n  currency: EUR\n"
            "http:\n  server_host: 127.0.0.1\n"
            f"  server_port: {self.port}\n"
            "frontend:\nconfig:\nhistory:\nlogbook:\nsearch:\n"
            "recorder:\n  commit_interval: 1\n"
            "logger:\n  default: warning\n")
        (storage / "onboarding").write_text(json.dumps({
            "version": 4, "minor_version": 1, "key": "onboarding",
            "data": {"done": ["user", "core_config", "analytics", "integration"]}}))
        now = datetime.datetime.now(datetime.timezone.utc).isoformat()
        (storage / "core.config_entries").write_text(json.dumps({
            "version": 1, "minor_version": 5, "key": "core.config_entries", "data": {"entries": [{
                "created_at": now, "modified_at": now, "data": {"broker": "127.0.0.1", "port": broker_port},
                "disabled_by": None, "discovery_keys": {}, "domain": "mqtt", "entry_id": "01JAUBADESHOTSMQTT0000000",
                "minor_version": 2, "options": {}, "pref_disable_new_entities": False,
                "pref_disable_polling": False, "source": "user", "subentries": [], "title": "MQTT",
                "unique_id": None, "version": 1}]}}))
        subprocess.run([*DIE_WITH_US, str(self.venv / "bin" / "hass"), "--script", "auth", "-c", str(self.dir),
                        "add", USER, PASSWORD], check=True, capture_output=True, timeout=WATCHDOG)

    def start(self, run):
        run.start("hass", [str(self.venv / "bin" / "hass"), "-c", str(self.dir), "--skip-pip"],
                  self.dir.parent / "hass.out", cwd=self.dir)
        wait_until("Home Assistant's frontend", lambda: self.get("/auth/providers", auth=False), timeout=600)
        self.log_in()
        wait_until("Home Assistant started", lambda: self.get("/api/config")["state"] == "RUNNING", timeout=600)

    def request(self, path, data=None, auth=True, form=False, raw=False):
        headers = {}
        if auth:
            headers["Authorization"] = f"Bearer {self.token['access_token']}"
        body = None
        if data is not None:
            if form:
                body = urllib.parse.urlencode(data).encode()
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            else:
                body = json.dumps(data).encode()
                headers["Content-Type"] = "application/json"
        with urllib.request.urlopen(urllib.request.Request(self.url + path, body, headers), timeout=30) as r:
            text = r.read().decode()
        return text if raw else json.loads(text)

    def get(self, path, auth=True):
        return self.request(path, auth=auth)

    def log_in(self):
        """A token for USER through Home Assistant's own login flow, as the frontend gets it."""
        client = self.url + "/"
        flow = self.request("/auth/login_flow", {
            "client_id": client, "handler": ["homeassistant", None], "redirect_uri": client + "?auth_callback=1"},
            auth=False)
        done = self.request(f"/auth/login_flow/{flow['flow_id']}", {
            "client_id": client, "username": USER, "password": PASSWORD}, auth=False)
        self.token = self.request("/auth/token", {
            "grant_type": "authorization_code", "code": done["result"], "client_id": client}, auth=False, form=True)
        self.token.update(hassUrl=self.url, clientId=client,
                          expires=int(time.time() * 1000) + self.token["expires_in"] * 1000)

    def state(self, entity_id):
        return self.template(f"{{{{ states('{entity_id}') }}}}")

    def template(self, text):
        return self.request("/api/template", {"template": text}, raw=True)

    def device_entities(self):
        """The clock device's id and its entities: [(entity_id, state, unit, name)], from the template API."""
        out = json.loads(self.template(
            "{% set ns = namespace(rows=[], device=none) %}"
            "{% for e in integration_entities('mqtt') %}"
            f"{{% if device_attr(device_id(e), 'name') == '{DEVICE_NAME}' %}}"
            "{% set ns.device = device_id(e) %}"
            "{% set ns.rows = ns.rows + [[e, states(e), state_attr(e, 'unit_of_measurement'),"
            " state_attr(e, 'friendly_name')]] %}"
            "{% endif %}{% endfor %}"
            "{{ {'device': ns.device, 'entities': ns.rows} | tojson }}"))
        return out["device"], out["entities"]

    def log_lines(self):
        """Home Assistant's warnings and errors that name MQTT or the clock."""
        path = self.dir / "home-assistant.log"
        lines = path.read_text(errors="replace").splitlines() if path.exists() else []
        return [line for line in lines
                if any(w in line for w in ("WARNING", "ERROR", "CRITICAL"))
                and any(w in line.lower() for w in ("mqtt", "aubade", NODE, "bedside"))]


# The clock


class Clock(DaemonClock):
    """The tests' clock in a fresh folder (Tests/Support/daemon_rig.py: its database, a config whose sound card is
    alsa-lib's `file` plugin, its own runtime folder) with an [mqtt] section, its daemon run with --mqtt and
    without HTTP."""

    def __init__(self, aubade, zone):
        super().__init__(str(Path(aubade).resolve()), prefix="ha-screenshots-clock-", zone=zone, local_streams=True)
        with open(self.config, "a") as config:
            config.write(f'[mqtt]\nclient_id = "{CLIENT_ID}"\ndevice_name = "{DEVICE_NAME}"\n'
                         f'topic_prefix = "{PREFIX}"\n')
        self.zone = zone

    def furnish(self, radio):
        self.cli("station", "add", "--name", "FIP", "--url", radio("Nina Simone - Feeling Good"))
        self.cli("station", "add", "--name", "Radio Paradise", "--url", radio("Khruangbin - Maria También"))
        self.cli("alarm", "add", "--name", "Work", "--time", "06:45", "--days", "mon-fri", "--source", "FIP",
                 "--volume", "60", "--duration", "15m")
        self.cli("alarm", "add", "--name", "Weekend", "--time", "08:30", "--days", "sat,sun", "--source",
                 "Radio Paradise", "--volume", "40")
        self.cli("alarm", "add", "--name", "Flight", "--time", "04:10", "--days", "once", "--source", "tone",
                 "--disabled")

    def start_with_mqtt(self, broker_port, fake_time=None):
        """`aubade run --json --http off --mqtt …` (its wall clock starting at `fake_time`); returns once READY."""
        args = [*DIE_WITH_US, self.aubade, "run", "--json", "--db", str(self.db), "--config", str(self.config),
                "--http", "off", "--mqtt", f"mqtt://127.0.0.1:{broker_port}"]
        if fake_time:
            args += ["--fake-time", fake_time]
        with self.changed:
            self.events, self.reading = [], True
        with open(self.dir / "daemon.err", "a") as errors:
            self.process = subprocess.Popen(args, env=self.env, stdout=subprocess.PIPE, stderr=errors, text=True,
                                            cwd=self.dir)
        threading.Thread(target=self._read, args=(self.process,), daemon=True).start()
        self.wait_for("ready")

    def next_work_alarm(self, lead):
        """`lead` seconds before the Work alarm's next occurrence (06:45 on a weekday), as `--fake-time` takes it."""
        zone = ZoneInfo(self.zone)
        day = datetime.datetime.now(zone)
        while True:
            at = day.replace(hour=6, minute=45, second=0, microsecond=0)
            if at.weekday() < 5 and at > datetime.datetime.now(zone):
                break
            day += datetime.timedelta(days=1)
        start = at - datetime.timedelta(seconds=lead)
        return start.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# The browser


DEEP_QUERY = """
const deep = (root, selector) => {
  const found = [];
  const walk = node => {
    if (!node) return;
    if (node.querySelectorAll) found.push(...node.querySelectorAll(selector));
    const all = node.querySelectorAll ? node.querySelectorAll('*') : [];
    for (const e of all) if (e.shadowRoot) walk(e.shadowRoot);
    if (node.shadowRoot) walk(node.shadowRoot);
  };
  walk(root);
  return found;
};
"""


class Browser:
    """Headless Chromium through chromedriver, both started through setpriv so that they die with this script."""

    def __init__(self, work, zone, width, height):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        chromium = work / "chromium"
        chromium.write_text("#!/bin/sh\nexec setpriv --pdeathsig KILL -- "
                            f"{shutil.which('chromium') or '/usr/bin/chromium'} \"$@\"\n")
        chromium.chmod(0o755)
        options = webdriver.ChromeOptions()
        options.binary_location = str(chromium)
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars",
                     "--lang=en-GB", f"--window-size={width},{height}", "--force-device-scale-factor=1",
                     "--disable-gpu", f"--user-data-dir={work / 'chromium-profile'}"):
            options.add_argument(flag)
        options.add_experimental_option("prefs", {"intl.accept_languages": "en-GB,en"})

        class DyingService(Service):
            def command_line_args(self):
                return ["--pdeathsig", "KILL", "--", shutil.which("chromedriver") or "/usr/bin/chromedriver",
                        *super().command_line_args()]

        service = DyingService(shutil.which("setpriv"), env=dict(os.environ, TZ=zone),
                               log_output=str(work / "chromedriver.log"))
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                    {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
        self.driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": zone})
        self.size = (width, height)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def js_async(self, script, *args):
        """Runs `script`, an async function body, and returns what it returns."""
        return self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"(async (...args) => {{ {script} }})(...Array.from(arguments).slice(0, -1))"
            ".then(done, e => done({error: String(e)}));", *args)

    def viewport(self, width, height):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.size = (width, height)

    def log_in(self, ha):
        """Puts the token where the frontend keeps it, as its own login page would."""
        self.driver.get(ha.url + "/auth/providers")
        self.js("localStorage.setItem('hassTokens', arguments[0]);"
                "localStorage.setItem('selectedLanguage', JSON.stringify('en-GB'));"
                "localStorage.setItem('dockedSidebar', JSON.stringify('auto'));", json.dumps(ha.token))

    def open(self, url, ready_selector):
        self.driver.get(url)
        wait_until("the frontend connected", lambda: self.js(
            "const ha = document.querySelector('home-assistant'); return !!(ha && ha.hass && ha.hass.connected);"),
            timeout=120)
        wait_until(f"{ready_selector} on {url}",
                   lambda: self.js(DEEP_QUERY + "return deep(document, arguments[0]).length > 0;", ready_selector),
                   timeout=120)

    def fit_page(self, width, least):
        """Makes the viewport as tall as the page's cards need (at least `least`), so that one shot has them all."""
        bottom = self.js(DEEP_QUERY + "return Math.max(...deep(document, 'ha-card').map(c =>"
                                      " c.getBoundingClientRect().bottom));")
        self.viewport(width, max(least, int(bottom) + 24))

    def notifications(self):
        """Home Assistant's notifications (title, message), then dismisses them (so the badge shows none)."""
        found = self.js_async("const ha = document.querySelector('home-assistant').hass;"
                              "const n = await ha.callWS({type: 'persistent_notification/get'});"
                              "await ha.callService('persistent_notification', 'dismiss_all', {});"
                              "return n.map(x => [x.title || '', x.message || '']);")
        return found

    def more_info(self, entity_id, attributes=False):
        """Opens the entity's dialog, as a click on its row does; with `attributes`, its Attributes unfolded."""
        def opened():
            # Asked again while it is not open: right after another dialog closed, the frontend drops the ask.
            return self.js(DEEP_QUERY + "if (deep(document, 'ha-more-info-info').length > 0) return true;"
                           "document.querySelector('home-assistant').dispatchEvent(new CustomEvent('hass-more-info',"
                           " {detail: {entityId: arguments[0]}, bubbles: true, composed: true})); return false;",
                           entity_id)

        wait_until("the entity dialog", opened, every=2)
        if attributes:
            # A click on its header, as a person would: the panel renders its rows only then (and not for a click
            # that came before the dialog was ready: then it is folded again and clicked once more).
            wait_until("the entity's attributes", lambda: self.js(
                DEEP_QUERY + "const dialog = deep(document, 'ha-more-info-dialog')[0];"
                "if (deep(dialog, '.data-entry').length > 0) return true;"
                "for (const a of deep(dialog, 'ha-attributes')) {"
                "  const p = a.shadowRoot && a.shadowRoot.querySelector('ha-expansion-panel');"
                "  if (!p) continue;"
                "  if (p.expanded) p.expanded = false; else p.shadowRoot.querySelector('#summary').click();"
                "}"
                "return false;"), every=1)

    def state_table(self, ha, entity_filter):
        """Developer tools → States with the entities filtered; returns the box of the page's title and table."""
        self.open(ha.url + "/developer-tools/state", "developer-tools-state")
        tool = DEEP_QUERY + "const tool = deep(document, 'developer-tools-state')[0];"
        field = wait_until("the entity filter", lambda: self.js(
            tool + "return deep(deep(tool, 'search-input')[0], 'input')[0];"), timeout=60)
        field.send_keys(entity_filter)
        wait_until("the filtered states", lambda: self.js(
            tool + "return tool.shadowRoot.querySelectorAll('table.entities tr').length == 3;"), timeout=60)
        box = self.js(DEEP_QUERY + "const d = deep(document, 'developer-tools-state')[0];"
                                   "const r = d.getBoundingClientRect();"
                                   "const t = d.shadowRoot.querySelector('table.entities').getBoundingClientRect();"
                                   "return [r.left, r.top, r.width, t.bottom - r.top];")
        return {"x": box[0], "y": box[1], "width": box[2], "height": box[3] + 16, "scale": 1}

    def dialog_clip(self, margin=0):
        """The open dialog's box, `margin` px around it."""
        r = self.js(DEEP_QUERY + "const s = deep(document, '.mdc-dialog__surface').filter(e =>"
                                 " e.getBoundingClientRect().width > 0)[0].getBoundingClientRect();"
                                 "return [s.left, s.top, s.width, s.height];")
        x, y = max(0, r[0] - margin), max(0, r[1] - margin)
        return {"x": x, "y": y, "width": min(self.size[0] - x, r[2] + 2 * margin),
                "height": min(self.size[1] - y, r[3] + 2 * margin), "scale": 1}

    def close_dialog(self):
        self.js(DEEP_QUERY + "deep(document, 'ha-more-info-dialog').forEach(d => d.closeDialog());")
        wait_until("the dialog closed", lambda: self.js(
            DEEP_QUERY + "return deep(document, 'ha-more-info-info').length == 0;"))

    def settle(self):
        """Lets the page finish its transitions (the frontend animates dialogs, sliders and ripples)."""
        time.sleep(1.5)

    def shot(self, path, clip=None):
        import base64

        params = {"format": "png"}
        if clip:
            params["clip"] = clip
        data = self.driver.execute_cdp_cmd("Page.captureScreenshot", params)["data"]
        Path(path).write_bytes(base64.b64decode(data))
        return Path(path)

    def quit(self):
        self.driver.quit()


def shrink(ha_venv, paths):
    """Palette PNGs (256 colours, no dithering), which keep the frontend's flat colours; Pillow from HA's venv."""
    code = ("import sys\nfrom PIL import Image\n"
            "for p in sys.argv[1:]:\n"
            "    im = Image.open(p).convert('RGB')\n"
            "    im.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)"
            ".save(p, optimize=True)\n")
    subprocess.run([str(Path(ha_venv) / "bin" / "python"), "-c", code, *map(str, paths)], check=True)


class Entities:
    """The device's entity ids by platform and the end of their object id: ids["sensor.next_alarm"] (Home
    Assistant makes the ids from the device's and the components' names)."""

    def __init__(self, entities):
        self.ids = [e for e, *_ in entities]

    def __getitem__(self, key):
        platform, end = key.split(".")
        return next(e for e in self.ids if e.startswith(platform + ".") and e.endswith("_" + end))


def show(label, entities):
    for entity_id, state, unit, name in sorted(entities):
        print(f"  {label:8} {entity_id:45} {state!s:28} {unit or '':4} {name}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--aubade", required=True, help="the aubade binary (e.g. .build/debug/aubade)")
    parser.add_argument("--ha-venv", required=True, help="a Home Assistant virtualenv with its frontend")
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"), help="where the PNGs go")
    parser.add_argument("--zone", default="Europe/Berlin", help="the time zone of the clock, HA and the browser")
    parser.add_argument("--width", type=int, default=1100, help="the browser's viewport width")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (logs, HA config) afterwards")
    args = parser.parse_args()
    missing = [tool for tool in ("setpriv", "mosquitto", "sox", "lame", "chromium", "chromedriver")
               if not shutil.which(tool)]
    if missing:
        raise SystemExit(f"needs {', '.join(missing)} on PATH")
    try:
        import selenium  # noqa: F401 - only whether it is there
    except ImportError:
        raise SystemExit("needs selenium: run it with a Python that has it (e.g. .build/browser-venv/bin/python)")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="ha-screenshots-"))
    run = Processes()
    browser = clock = None
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    try:
        broker = start_broker(run, work)
        print(f"work folder {work}; Mosquitto on {broker}", flush=True)
        ha = HomeAssistant(args.ha_venv, work, broker, args.zone)
        clock = Clock(args.aubade, args.zone)
        clock.furnish(start_radio(run, work))
        ha.start(run)
        print(f"Home Assistant on {ha.url}", flush=True)
        clock.start_with_mqtt(broker)
        expected = 4 + 3 + 3 * 3 + 5  # sensors, buttons, three per alarm, volume/station/sleep/now playing/event
        device, entities = wait_until("the clock's entities in Home Assistant", lambda: (
            lambda d, e: (d, e) if d and len(e) >= expected and all(s != "unavailable" for _, s, _, _ in e) else None
        )(*ha.device_entities()))
        print(f"device {device}: {len(entities)} entities", flush=True)
        show("idle", entities)
        ids = Entities(entities)

        browser = Browser(work, args.zone, args.width, 900)
        browser.log_in(ha)
        page = f"{ha.url}/config/devices/device/{device}"
        browser.open(page, "ha-device-entities-card")
        for flow in browser.js_async("return await document.querySelector('home-assistant').hass.callWS("
                                     "{type: 'config_entries/flow/progress'});"):
            print(f"Home Assistant's discovery flow: {flow.get('handler')} ({flow.get('context')})", flush=True)
        for title, message in browser.notifications():
            print(f"Home Assistant's notification (dismissed): {title}: {message}", flush=True)
        browser.fit_page(args.width, 900)
        browser.settle()
        shots = [browser.shot(out / "ha-device.png")]
        browser.more_info(ids["sensor.next_alarm"])
        browser.settle()
        shots.append(browser.shot(out / "ha-next-alarm.png", browser.dialog_clip()))
        browser.close_dialog()
        browser.more_info(ids["switch.work"], attributes=True)
        browser.settle()
        shots.append(browser.shot(out / "ha-alarm.png", browser.dialog_clip()))
        browser.close_dialog()

        # The Work alarm: the clock again, its wall clock starting 40 s before 06:45 on a weekday, so within the
        # pre-alarm lead (15 minutes): the pre_alarm event first (shown in Developer tools), then the ring.
        clock.stop()
        clock.start_with_mqtt(broker, fake_time=clock.next_work_alarm(40))
        event_type = f"{{{{ state_attr('{ids['event.alarm']}', 'event_type') }}}}"
        wait_until("the pre_alarm event in Home Assistant", lambda: ha.template(event_type) == "pre_alarm", timeout=30)
        browser.viewport(args.width, 900)
        clip = browser.state_table(ha, ids["event.alarm"])
        browser.settle()
        shots.append(browser.shot(out / "ha-event.png", clip))
        if ha.template(event_type) != "pre_alarm":
            raise SystemExit("the alarm rang before ha-event.png was taken: it shows the wrong event; run it again")
        clock.wait_for("audible", timeout=WATCHDOG)
        wait_until("Ringing on in Home Assistant", lambda: ha.state(ids["binary_sensor.ringing"]) == "on")
        _, entities = ha.device_entities()
        show("ringing", entities)
        browser.open(page, "ha-device-entities-card")
        browser.fit_page(args.width, 900)
        browser.settle()
        shots.append(browser.shot(out / "ha-ringing.png"))

        # Home Assistant's controls: Snooze; Stop (refused while the alarm is snoozed, as the CLI's `stop` without an
        # alarm is: then `aubade stop 1` ends the snooze); the station FIP and a 30-minute sleep timer.
        def press(service, entity, **data):
            ha.request(f"/api/services/{service}", {"entity_id": ids[entity], **data})

        def reached(state, why):
            wait_until(f"State {state} after {why}", lambda: ha.state(ids["sensor.state"]) == state)
            _, now = ha.device_entities()
            show(state, [e for e in now if e[0].split(".")[0] in ("sensor", "binary_sensor", "select", "number")])

        press("button/press", "button.snooze")
        reached("snoozed", "Snooze")
        press("button/press", "button.stop")
        answer = wait_until("the clock's answer to Stop", lambda: [
            line for line in (clock.dir / "daemon.err").read_text().splitlines() if "cmd 'stop'" in line])
        print(f"  Stop while snoozed: {answer[-1].split('] ', 1)[-1]}", flush=True)
        if "refused" in answer[-1]:
            clock.cli("stop", "1")
        reached("idle", "Stop")
        press("select/select_option", "select.station", option="FIP")
        reached("playing", "the station FIP")
        press("number/set_value", "number.sleep_timer", value=30)
        reached("sleep", "a sleep timer")
        wait_until("the station's title in Home Assistant", lambda: "—" in ha.state(ids["sensor.now_playing"]))
        print(f"  now playing: {ha.state(ids['sensor.now_playing'])}", flush=True)
        browser.open(page, "ha-device-entities-card")
        browser.fit_page(args.width, 900)
        browser.settle()
        shots.append(browser.shot(out / "ha-radio.png"))

        shrink(args.ha_venv, shots)
        for path in shots:
            print(f"{path} {path.stat().st_size // 1024} KB")
        print("Home Assistant's warnings and errors about MQTT or the clock:")
        for line in ha.log_lines():
            print("  " + line)
    finally:
        if browser:
            browser.quit()
        if clock:
            clock.stop()
        run.stop_all()
        for folder in (work, clock and clock.dir):
            if folder and not args.keep:
                shutil.rmtree(folder, ignore_errors=True)
            elif folder:
                print(f"kept {folder}")


if __name__ == "__main__":
    main()
