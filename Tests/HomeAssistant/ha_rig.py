"""The real parts the Home Assistant tests drive: Debian's mosquitto on a free port of 127.0.0.1, Home Assistant core
(the `homeassistant` package from PyPI, run as `hass` from this virtualenv) with its MQTT integration pointed at that
broker, and the built `aubade` clock (Tests/Support/daemon_rig.py) with its MQTT face on the same broker.

Home Assistant runs in a fresh config folder written before its first start: onboarding marked done, the MQTT
integration's config entry in `.storage/core.config_entries` (as its config flow would have stored it), the recorder
on SQLite committing every second, and no `default_config` (so nothing is loaded that would reach the network or
need more packages than requirements.txt holds). Its frontend integration is always loaded; its
`development_repo` option points at an empty folder, so the 90 MB frontend package is not needed.

What Home Assistant made of the clock is read where it keeps it: entities (by `unique_id`) from its entity
registry (`.storage/core.entity_registry`), states from its recorder's database, and what it did to the clock from
the broker. Automations the tests need are written to `automations.yaml` once the entity ids are known and loaded
with `automation.reload`, which an automation of the harness calls when told to over MQTT.

Every program started here dies with the test (setpriv's parent-death signal, as in daemon_rig). Nothing waits a
fixed time: every wait is for a message, a state row or a file under a generous watchdog.
"""

import json
import os
import pwd
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Support"))
from daemon_rig import DIE_WITH_US, WATCHDOG, DaemonClock, free_port, wait_until  # noqa: E402, F401 - wait_until for the tests too

import paho.mqtt.client as paho  # noqa: E402 - Home Assistant's own MQTT client library, in its virtualenv

# Home Assistant's start on a loaded two-core machine (its first run also compiles what it imports).
START_WATCHDOG = 300.0
# Topics of the harness itself, never the clock's.
RELOAD_TOPIC = "aubade-ha-test/reload"
RELOADED_TOPIC = "aubade-ha-test/reloaded"
MQTT_ENTRY_ID = "01JAUBADETESTMQTT000000000"
# Where mosquitto publishes its log lines about subscriptions ("<time>: <client> <qos> <topic>").
SUBSCRIBE_LOG = "$SYS/broker/log/M/subscribe"


class Broker:
    """mosquitto on a free port of 127.0.0.1, anonymous, keeping nothing on disk. It also publishes its log on
    `$SYS/broker/log/...`, with a line for each subscription ("<client> <qos> <topic>"): so a test can tell when a
    client has subscribed to a topic (Watcher.wait_subscribed)."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.log = self.folder / "mosquitto.log"  # its standard output and error
        self.process = None
        for _ in range(5):
            self.port = free_port()
            conf = self.folder / "mosquitto.conf"
            # As the user running the tests: started as root it would otherwise switch to the user `mosquitto`,
            # and a change of user clears the parent-death signal (it would outlive a killed test).
            conf.write_text(f"user {pwd.getpwuid(os.geteuid()).pw_name}\n"
                            f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                            "log_dest topic\nlog_dest stdout\n"
                            "log_type error\nlog_type warning\nlog_type notice\nlog_type subscribe\n")
            with open(self.log, "a") as out:
                self.process = subprocess.Popen([*DIE_WITH_US, "mosquitto", "-c", str(conf)], stdout=out, stderr=out)
            if self._listening():
                return
            self.process.kill()
            self.process.wait()
        raise AssertionError(f"mosquitto did not start: {self.log.read_text()[-2000:]}")

    def _listening(self):
        deadline = time.monotonic() + WATCHDOG
        while self.process.poll() is None and time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return True
            except OSError:
                time.sleep(0.05)
        return False

    @property
    def url(self):
        return f"mqtt://127.0.0.1:{self.port}"

    def close(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=WATCHDOG)


class Watcher:
    """An MQTT client of the tests' own on the broker: every message on every topic, in order, and publishing."""

    def __init__(self, broker):
        self.messages = []
        self.changed = threading.Condition()
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=f"aubade-ha-test-{os.getpid()}")
        subscribed = threading.Event()
        self.client.on_connect = lambda c, u, flags, reason, props: c.subscribe([("#", 1), (SUBSCRIBE_LOG, 1)])
        self.client.on_subscribe = lambda c, u, mid, reasons, props: subscribed.set()
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        if not subscribed.wait(WATCHDOG):
            raise AssertionError("the tests' MQTT client could not subscribe")

    def _message(self, client, userdata, message):
        with self.changed:
            self.messages.append((message.topic, message.payload.decode(errors="replace"), bool(message.retain)))
            self.changed.notify_all()

    def mark(self):
        with self.changed:
            return len(self.messages)

    def wait(self, topic, where=lambda payload: True, after=0, timeout=WATCHDOG):
        """The payload of the first message on `topic` (matching `where`) at or after position `after`."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for t, payload, _ in self.messages[after:]:
                    if t == topic and where(payload):
                        return payload
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [m for m in self.messages[after:] if m[0] == topic][-5:]
                    raise AssertionError(f"no message on {topic} as expected within {timeout:.0f} s; last: {seen}")
                self.changed.wait(left)

    def wait_subscribed(self, topic, after=0):
        """Until the broker has logged a client subscribing to exactly `topic` (at or after position `after`)."""
        return self.wait(SUBSCRIBE_LOG, lambda line: line.split(" ", 3)[3:] == [topic], after=after)

    def publish(self, topic, payload, retain=False):
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(WATCHDOG)

    def close(self):
        self.client.loop_stop()
        self.client.disconnect()


class HomeAssistant:
    """Home Assistant core (`hass` beside this Python) in a fresh config folder, its MQTT integration set up on
    `broker`, started by start() and stopped by stop()."""

    def __init__(self, broker, watcher, folder):
        self.broker = broker
        self.watcher = watcher
        self.folder = Path(folder)
        self.config = self.folder / "config"
        self.storage = self.config / ".storage"
        self.storage.mkdir(parents=True)
        self.frontend = self.folder / "frontend"
        (self.frontend / "hass_frontend").mkdir(parents=True)
        self.db = self.config / "home-assistant_v2.db"
        self.out = self.folder / "hass.out"
        self.process = None
        self.generation = 0
        self.http_port = free_port()
        self._write_config()

    def _write_config(self):
        (self.config / "configuration.yaml").write_text(f"""\
homeassistant:
  name: Aubade test home
  latitude: 48.85
  longitude: 2.35
  elevation: 35
  unit_system: metric
  currency: EUR
  country: FR
  time_zone: UTC
http:
  server_host: 127.0.0.1
  server_port: {self.http_port}
frontend:
  development_repo: {self.frontend}
recorder:
  db_url: sqlite:///{self.db}
  commit_interval: 1
logger:
  default: warning
automation harness:
  - id: aubade_harness_reload
    alias: Harness reloads the automations
    mode: queued
    triggers:
      - trigger: mqtt
        topic: {RELOAD_TOPIC}
    actions:
      - action: automation.reload
      - action: mqtt.publish
        data:
          topic: {RELOADED_TOPIC}
          payload: "{{{{ trigger.payload }}}}"
automation tests: !include automations.yaml
""")
        (self.config / "automations.yaml").write_text("[]\n")
        self._store("onboarding", 4, 1, {"done": ["user", "core_config", "analytics", "integration"]})
        now = datetime.now(timezone.utc).isoformat()
        self._store("core.config_entries", 1, 5, {"entries": [{
            "created_at": now, "modified_at": now, "entry_id": MQTT_ENTRY_ID, "domain": "mqtt", "title": "MQTT",
            "data": {"broker": "127.0.0.1", "port": self.broker.port}, "options": {}, "source": "user",
            "version": 1, "minor_version": 2, "unique_id": None, "disabled_by": None, "discovery_keys": {},
            "pref_disable_new_entities": False, "pref_disable_polling": False, "subentries": []}]})

    def _store(self, key, version, minor, data):
        (self.storage / key).write_text(json.dumps(
            {"version": version, "minor_version": minor, "key": key, "data": data}, indent=1))

    def start(self):
        """Starts `hass` and returns once its MQTT integration has said it is online (its birth message)."""
        mark = self.watcher.mark()
        hass = Path(sys.executable).parent / "hass"
        # Its modules are compiled into its virtualenv (the tests' own sources are kept free of bytecode).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        with open(self.out, "a") as out:
            self.process = subprocess.Popen([*DIE_WITH_US, str(hass), "-c", str(self.config), "--skip-pip"],
                                            stdout=out, stderr=subprocess.STDOUT, cwd=self.folder, env=env)
        deadline = time.monotonic() + START_WATCHDOG
        while True:
            try:
                self.watcher.wait("homeassistant/status", lambda p: p == "online", after=mark, timeout=1)
                return self
            except AssertionError:
                if self.process.poll() is not None:
                    raise AssertionError(f"Home Assistant exited {self.process.returncode}: {self.tail()}") from None
                if time.monotonic() > deadline:
                    raise AssertionError(f"Home Assistant was not online within {START_WATCHDOG:.0f} s: "
                                         f"{self.tail()}") from None

    def stop(self):
        """Stops Home Assistant as its service manager does (SIGTERM); it must end, with status 0."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                code = self.process.wait(timeout=START_WATCHDOG)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise AssertionError("Home Assistant did not stop on SIGTERM") from None
            if code != 0:
                raise AssertionError(f"Home Assistant exited {code} on SIGTERM: {self.tail()}")

    def tail(self):
        return self.out.read_text()[-3000:] if self.out.exists() else ""

    # What Home Assistant logged

    def _records(self):
        """Each log (its stdout, its home-assistant.log) as records: a line with a timestamp and the lines that
        follow it up to the next such line (a traceback)."""
        logs = {}
        for path in (self.out, self.config / "home-assistant.log"):
            records = logs.setdefault(path.name, [])
            for line in path.read_text(errors="replace").splitlines() if path.exists() else []:
                if re.match(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", line) or not records:
                    records.append(line)
                else:
                    records[-1] += "\n" + line
        return logs

    def log_mark(self):
        """Where each log stands now (log_problems(after=) looks only at what follows)."""
        return {name: len(records) for name, records in self._records().items()}

    def log_problems(self, words, after=None):
        """The WARNING, ERROR and CRITICAL records that mention any of `words` (case folded), and every record
        saying a module is missing (requirements.txt left out something Home Assistant needs)."""
        problems = []
        for name, records in self._records().items():
            for text in records[(after or {}).get(name, 0):]:
                level = re.match(r"^\S+ \S+ ([A-Z]+) ", text)
                serious = level is not None and level.group(1) in ("WARNING", "ERROR", "CRITICAL")
                missing = "No module named" in text or "ModuleNotFoundError" in text
                if missing or (serious and any(w.lower() in text.lower() for w in words)):
                    problems.append(f"{name}: {text[:1500]}")
        return problems

    # What Home Assistant made of the clock

    def registry(self):
        """The MQTT entities of the entity registry by unique_id (as last saved: Home Assistant saves it 10 s
        after a change)."""
        try:
            data = json.loads((self.storage / "core.entity_registry").read_text())
        except (FileNotFoundError, ValueError):
            return {}
        return {e["unique_id"]: e for e in data["data"]["entities"] if e["platform"] == "mqtt"}

    def wait_for_entities(self, unique_ids, timeout=WATCHDOG):
        """The registry entries of every one of `unique_ids`, once all are there."""
        wanted = set(unique_ids)

        def found():
            entries = self.registry()
            return {u: entries[u] for u in wanted} if wanted <= entries.keys() else None
        try:
            return wait_until("entities in Home Assistant's registry", found, timeout=timeout)
        except AssertionError:
            missing = sorted(wanted - self.registry().keys())
            raise AssertionError(f"Home Assistant never registered {missing}; its log: "
                                 f"{self.log_problems(['mqtt'])[-5:]}") from None

    def devices(self):
        try:
            return json.loads((self.storage / "core.device_registry").read_text())["data"]["devices"]
        except (FileNotFoundError, ValueError):
            return []

    def _query(self, sql, args=()):
        if not self.db.exists():
            return []
        try:
            with closing(sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=WATCHDOG)) as db:
                return db.execute(sql, args).fetchall()
        except sqlite3.OperationalError as error:  # before the recorder made its tables
            if "no such table" in str(error):
                return []
            raise

    def mark(self):
        """The newest state row the recorder has committed (rows after it are newer)."""
        rows = self._query("SELECT MAX(state_id) FROM states")
        return (rows[0][0] or 0) if rows else 0

    def states(self, entity_id, after=0):
        """(row, state, attributes) of `entity_id` recorded after row `after`, oldest first."""
        rows = self._query(
            "SELECT s.state_id, s.state, a.shared_attrs FROM states s JOIN states_meta m ON s.metadata_id = m.metadata_id"
            " LEFT JOIN state_attributes a ON s.attributes_id = a.attributes_id"
            " WHERE m.entity_id = ? AND s.state_id > ? ORDER BY s.state_id", (entity_id, after))
        return [(row, state, json.loads(attrs) if attrs else {}) for row, state, attrs in rows]

    def state(self, entity_id):
        found = self.states(entity_id)
        return found[-1][1] if found else None

    def wait_state(self, entity_id, expected, after=0, timeout=WATCHDOG):
        """The row at which `entity_id` took state `expected` (a string, or a test of (state, attributes)) after
        row `after`."""
        test = expected if callable(expected) else (lambda state, attributes: state == expected)

        def found():
            return next((row for row, state, attrs in self.states(entity_id, after) if test(state, attrs)), None)
        try:
            return wait_until(f"{entity_id} becoming {expected!r}", found, timeout=timeout)
        except AssertionError:
            seen = [s for _, s, _ in self.states(entity_id)][-6:]
            raise AssertionError(f"{entity_id} never became {expected!r} after row {after} within {timeout:.0f} s; "
                                 f"its states: {seen}") from None

    # Automations

    def set_automations(self, automations, mqtt_topics=()):
        """Writes `automations` (a list of automation configs) to automations.yaml and has Home Assistant load them;
        returns once they are loaded and Home Assistant has subscribed to `mqtt_topics` (their MQTT triggers' topics,
        new ones: it subscribes a moment after an automation is set up)."""
        self.generation += 1
        # JSON is YAML: no YAML writer is needed.
        (self.config / "automations.yaml").write_text(json.dumps(automations, indent=1) + "\n")
        mark = self.watcher.mark()
        self.watcher.publish(RELOAD_TOPIC, str(self.generation))
        self.watcher.wait(RELOADED_TOPIC, lambda p: p == str(self.generation), after=mark)
        for topic in mqtt_topics:
            self.watcher.wait_subscribed(topic, after=mark)


class Clock(DaemonClock):
    """A clock in a fresh folder (daemon_rig's) whose config has an `[mqtt]` section: its client id `node` (also
    its node, the root of its unique ids), its topics under `aubade/<node>`, its device named `device_name`."""

    def __init__(self, aubade, node, device_name, zone="UTC"):
        super().__init__(aubade, prefix="aubade-ha-", zone=zone)
        self.node = node
        self.device_name = device_name
        self.prefix = f"aubade/{node}"
        with open(self.config, "a") as config:
            config.write(f'[mqtt]\nclient_id = "{node}"\ntopic_prefix = "{self.prefix}"\n'
                         f'device_name = "{device_name}"\n')

    def start_with(self, broker, fake_time=None):
        return self.start(fake_time=fake_time, extra=["--mqtt", broker.url])

    def topic(self, suffix):
        return f"{self.prefix}/{suffix}"

    @property
    def discovery_topic(self):
        return f"homeassistant/device/{self.node}/config"

    def history(self):
        """The clock's history as (kind, detail), oldest first, from its database."""
        with closing(sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=WATCHDOG)) as db:
            return db.execute("SELECT kind, detail FROM events ORDER BY rowid").fetchall()


def fresh_folder(prefix):
    return Path(tempfile.mkdtemp(prefix=prefix))


def keep_logs(folder, artefacts):
    """Copies Home Assistant's and the broker's logs and Home Assistant's configuration to `artefacts`."""
    artefacts.mkdir(parents=True, exist_ok=True)
    for name in ("hass.out", "mosquitto.log", "config/home-assistant.log", "config/configuration.yaml",
                 "config/automations.yaml"):
        if (folder / name).exists():
            shutil.copyfile(folder / name, artefacts / Path(name).name)


def remove(folder):
    shutil.rmtree(folder, ignore_errors=True)
