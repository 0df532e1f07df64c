"""What every Python test of the running daemon shares (the browser tests, the API fuzzer): a clock in a fresh
folder, its CLI, and its daemon with the JSON event lines it prints. Standard library only, so that any of the
test virtualenvs can import it.

The clock's folder holds its database, a config whose sound card is alsa-lib's `file` plugin, and its own runtime
folder (AUBADE_RUNTIME_DIR, for its daemon and its CLI: no other clock on this machine is found, and the user's
never sees this one). Every program started here dies with the test, even one killed with SIGKILL: util-linux's
setpriv arms the parent-death signal just before the program runs (they are started from the main thread, which
lives as long as the test does — the signal follows the thread that started the child). Nothing here sleeps for a
fixed time to let something happen: every wait is for an event under a generous watchdog.
"""

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

WATCHDOG = 60.0
DIE_WITH_US = ["setpriv", "--pdeathsig", "KILL", "--"]


def free_port():
    """A TCP port of 127.0.0.1 free now (for a server a test starts: a broker, Home Assistant)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(what, probe, timeout=WATCHDOG, interval=0.2):
    """Polls `probe()` until it returns something truthy (returned); fails naming `what` after `timeout`, the probe
    asked once more after the deadline passed. For what has no event to wait for: a file something rewrites, a row
    committed every second, a line's level."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:.0f} s")
        time.sleep(interval)


def session_pids(sid):
    """The pids of every process in session `sid` (a launcher started with start_new_session: cage, a browser and
    its helpers, a face)."""
    pids = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                text = Path(f"/proc/{name}/stat").read_text()
                if int(text[text.rindex(")") + 2:].split()[3]) == sid:
                    pids.append(int(name))
            except (OSError, ValueError, IndexError):
                pass
    return pids


def end_session(process):
    """`process` (a session's leader) and everything in its session, gone: SIGTERM to its group, SIGKILL if it
    lingers, then SIGKILL to any straggler that left the group but not the session."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            continue
    process.wait()
    for pid in session_pids(process.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class DaemonClock:
    """A clock in a fresh folder under `prefix`; `zone` its time zone; `local_streams` whether it may stream from
    this machine (the tests' own servers); `directory` the station directory's servers (a list of base addresses,
    e.g. a local mirror's), or None for the directory turned off — a test clock never asks the public one."""

    def __init__(self, aubade, prefix="aubade-test-", zone="UTC", local_streams=False, directory=None):
        self.aubade = aubade
        self.dir = Path(tempfile.mkdtemp(prefix=prefix))
        self.db = self.dir / "aubade.sqlite"
        self.config = self.dir / "aubade.toml"
        self.card = self.dir / "card.raw"
        self.runtime = self.dir / "run"
        self.runtime.mkdir(mode=0o700)
        self.config.write_text(
            "[audio]\n"
            f"device = \"file:'{self.card}',raw\"\n"
            + ("allow_local_streams = true\n" if local_streams else "")
            + "[clock]\n"
            f'time_zone = "{zone}"\n'
            "[buttons]\n"
            'snooze = ""\nstop = ""\nplay_pause = ""\nsleep = ""\n'
            "[directory]\n"
            + (f"servers = {json.dumps(directory)}\n" if directory else "enabled = false\n"))
        self.env = dict(os.environ, AUBADE_CONFIG="", AUBADE_RUNTIME_DIR=str(self.runtime))
        self.process = None
        self.reading = False
        self.events = []
        self.port = None
        self.changed = threading.Condition()
        self.outputs_trace = None

    # The CLI

    def cli(self, *args, check=True):
        """Runs `aubade <args> --db … --config …`; returns the finished process (stdout as text)."""
        done = subprocess.run([*DIE_WITH_US, self.aubade, *args, "--db", str(self.db), "--config", str(self.config)],
                              env=self.env, capture_output=True, text=True, timeout=WATCHDOG, cwd=self.dir)
        if check and done.returncode != 0:
            raise AssertionError(f"aubade {' '.join(args)} exited {done.returncode}: {done.stderr}")
        return done

    def cli_json(self, *args):
        return json.loads(self.cli(*args, "--json").stdout)

    # The API, as another program on the clock's own machine uses it

    def api(self, method, path, body=None, token=None):
        """(status, parsed JSON) of one request to the running daemon's /api/v1`path`."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WATCHDOG)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        connection.request(method, "/api/v1" + path, body=data, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        connection.close()
        return response.status, (json.loads(text) if text else None)

    # The daemon

    def start(self, address="127.0.0.1", port=0, fake_time=None, extra=(), wrap=lambda args: args):
        """Starts `aubade run --json` serving on `address`:`port` (0: a free one, read from its `http` event), with
        its wall clock starting at `fake_time` (ISO 8601) if given, its command line passed through `wrap` (to run
        it in a network namespace); returns once it is READY and listens."""
        args = [*DIE_WITH_US, self.aubade, "run", "--json", "--db", str(self.db), "--config", str(self.config),
                "--http", f"{address}:{port}", *extra]
        if fake_time:
            args += ["--fake-time", fake_time]
        if self.outputs_trace:
            args += ["--simulate-outputs", str(self.outputs_trace)]
        with self.changed:
            self.events = []
            self.reading = True
        with open(self.dir / "daemon.err", "a") as errors:
            self.process = subprocess.Popen(wrap(args), env=self.env, stdout=subprocess.PIPE, stderr=errors,
                                            text=True, cwd=self.dir)
        threading.Thread(target=self._read, args=(self.process,), daemon=True).start()
        http = self.wait_for("http")
        self.wait_for("ready")
        self.port = http["port"]
        return self

    # Outputs on simulated lines (this machine has no GPIO)

    def with_outputs(self, outputs):
        """Gives the clock `[outputs]` ({name: (line, pattern)}) on simulated lines (`aubade run --simulate-outputs`):
        the driver's thread, its patterns and everything above them are the clock's own; each level the lines take is
        a record of `output_trace`. Before `start`."""
        with open(self.config, "a") as config:
            for name, (line, pattern) in outputs.items():
                config.write(f'[outputs.{name}]\nline = "{line}"\npattern = "{pattern}"\n')
        self.outputs_trace = self.dir / "outputs.jsonl"

    def output_trace(self):
        """The simulated lines' records so far, oldest first: {event, output, line, active, t}."""
        if not self.outputs_trace or not self.outputs_trace.exists():
            return []
        text = self.outputs_trace.read_text()
        # Each record is one write ending in a newline: a last line without one is still being written.
        lines = text.split("\n")[:-1]
        return [json.loads(line) for line in lines if line.strip()]

    def wait_output(self, name, active, after=0, timeout=WATCHDOG):
        """Waits until a record past the first `after` sets `name`'s line `active`; returns the number of records up
        to and including the first such record, a mark for the next wait (a file's growth has no event to wait for).
        The mark is the hit's, not the trace's length when it was seen: a record that came after the hit by then is
        still there for the next wait."""
        def found():
            records = self.output_trace()
            return next((i + 1 for i in range(after, len(records))
                         if records[i]["output"] == name and records[i]["event"] == "set"
                         and records[i]["active"] == active), None)
        try:
            return wait_until(f"the simulated {name} line set {'active' if active else 'inactive'}", found,
                              timeout=timeout, interval=0.1)
        except AssertionError as failure:
            raise AssertionError(f"{failure}; the last records past the mark: {self.output_trace()[after:][-6:]}") from None

    def _read(self, process):
        for line in process.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            with self.changed:
                self.events.append(event)
                self.changed.notify_all()
        process.stdout.close()
        with self.changed:
            self.reading = False
            self.changed.notify_all()

    def wait_for(self, name, where=lambda e: True, after=0, timeout=WATCHDOG):
        """The first event `name` (matching `where`) at or after position `after` of the daemon's output."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for event in self.events[after:]:
                    if event.get("event") == name and where(event):
                        return event
                if not self.reading:
                    status = self.process.wait(timeout=10) if self.process else None
                    how = f"killed by signal {-status}" if status is not None and status < 0 else f"status {status}"
                    last = [e.get("event") for e in self.events[-5:]]
                    raise AssertionError(f"the daemon exited ({how}; its last events {last}) before '{name}': {self.errors()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no '{name}' event within {timeout:.0f} s; events: {self.events[-12:]}")
                self.changed.wait(left)

    def position(self, name, where=lambda e: True):
        """Where the first event `name` stands in the daemon's output (None: not there)."""
        with self.changed:
            for index, event in enumerate(self.events):
                if event.get("event") == name and where(event):
                    return index
        return None

    def errors(self):
        """The end of what the daemon wrote to its standard error."""
        path = self.dir / "daemon.err"
        return path.read_text()[-2000:] if path.exists() else ""

    def breaches(self):
        """Where the daemon's answers departed from its API document, as it logged them (ContractGuard)."""
        path = self.dir / "daemon.err"
        if not path.exists():
            return []
        return [line.strip() for line in path.read_text().splitlines() if "against the API document" in line]

    def kill(self, sig=signal.SIGKILL):
        """Ends the daemon with `sig` and waits for it."""
        self.process.send_signal(sig)
        return self.process.wait(timeout=WATCHDOG)

    def stop(self):
        """Stops the daemon with SIGTERM, as systemd does; it must end, and with status 0."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=WATCHDOG)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise AssertionError("the daemon did not stop on SIGTERM")
            if self.process.returncode != 0:
                raise AssertionError(f"the daemon exited {self.process.returncode} on SIGTERM (its folder: {self.dir})")

    def close(self):
        """Ends the daemon however it is, and removes the folder."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=WATCHDOG)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)
