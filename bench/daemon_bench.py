#!/usr/bin/env python3
"""Aubade's daemon benchmark (not a test): how `aubade run` keeps its promise, in figures.

  onset error      alarm second -> the first audible sample *heard* at the sound card, for the tone and a
                   pre-rolled station, over BENCH_ONSET_RUNS (10) alarms each: median, p95 and the earliest
                   (the daemon's wall clock is started with --fake-time 17 s before the alarm, so the pre-roll
                   primes the device 15 s ahead as on a nightstand; the card is alsa-lib's `file` plugin writing
                   into a FIFO that a reader here plays out as a card would: from its first byte, at 176,400 B/s,
                   pausing only when nothing has arrived — a sample is heard when the card reaches it, not when
                   it arrives). Beside it, the daemon's own measure of the same rings (its `onset` lines).
  fallback         for a refused, an HTML and a stalled station: (a) `aubade ring` (no pre-check): ringing ->
                   fallback event; (b) the daemon, where the pre-check 5 min ahead already failed: alarm
                   second -> fallback, and -> first audible byte of the tone
  READY            spawn -> the `ready` line (and the daemon's own ready_ms)
  stop             `aubade stop` while a tone alarm rings -> the last audible sample written to the card
  resume           after `kill -9` while ringing, restarted within the alarm's duration: spawn -> the resumed
                   `ringing` line, and -> the first audible sample at the card (R9)
  idle             CPU seconds and wake-ups (context switches of all threads) over BENCH_IDLE_SECONDS (60)
                   with two alarms set, none due — with the HTTP server off and on (issue 12), and with the
                   MQTT face connected to an idle local Mosquitto (issue 23), and the daemon's resident
                   memory (VmRSS) in each
  HTTP             the latency of `POST /api/v1/alarms` (each one a committed, fsync'd alarm), p50 and p99 over
                   BENCH_HTTP_REQUESTS (1000) requests on one keep-alive connection to 127.0.0.1

Targets (issue 6): onset <= 100 ms; fallback <= 10 s after the failure is knowable and 0 s late when the
pre-check failed; READY <= 1 s; idle CPU ~ 0 with no periodic wake-ups faster than once a second. Stop and
resume have no target in issue 6; theirs here are derived — a stop within one 23-ms audio chunk plus the
device's 200 ms, a resumed alarm audible within the READY and onset targets. These are the wall-clock
figures `swift test` only prints (FIGURE lines): on a busy CI machine wall-clock time says nothing about the
code, so the tests assert order and card frames instead, and the figures are judged here, on a quiet one.

Usage: bench/daemon_bench.py --aubade PATH   (env: BENCH_IDLE_SECONDS, BENCH_RUNS)
"""
import argparse, datetime, http.client, json, os, select, shutil, signal, socket, statistics, subprocess, sys, tempfile, threading, time

from table import print_table, terminate

HERE = os.path.dirname(os.path.abspath(__file__))
FAULT_SERVER = os.path.join(HERE, "..", "Tests", "Fixtures", "fault_server.py")
AUDIBLE = 1000  # |sample| above this (-30 dBFS) counts as sound arriving


def log(msg):
    print(msg, file=sys.stderr, flush=True)


RATE = 176_400  # bytes per second of 44.1 kHz S16 stereo


class Card:
    """A FIFO the file plugin writes into; a thread reads it and notes when the first and the last audible
    sample arrived — and when the first audible sample was *heard*: the card plays what arrives from its first
    byte on, in real time, and waits (an underrun) only when nothing has arrived."""

    def __init__(self, path):
        self.path = path
        os.mkfifo(path)
        self.fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)  # O_RDWR: writers never block on open, no EOF
        self.first_audible = None
        self.first_heard = None
        self.last_audible = None
        self.bytes = 0
        self.playing_until = 0.0  # when the card will have played everything that arrived
        self.stop = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        carry = b""
        while not self.stop:
            r, _, _ = select.select([self.fd], [], [], 0.05)
            if not r:
                continue
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                continue
            now = time.monotonic()
            self.bytes += len(data)
            # The card starts on this chunk when it has played what came before (or now, if it ran dry).
            starts = max(now, self.playing_until)
            self.playing_until = starts + len(data) / RATE
            offset = len(carry)
            data = carry + data
            n = len(data) // 2 * 2
            carry = data[n:]
            samples = memoryview(data[:n]).cast("h")
            if len(samples) and (max(samples) > AUDIBLE or min(samples) < -AUDIBLE):
                if self.first_audible is None:
                    self.first_audible = now
                    first = next(i for i, v in enumerate(samples) if v > AUDIBLE or v < -AUDIBLE)
                    self.first_heard = starts + (2 * first - offset) / RATE
                self.last_audible = now

    def reset(self):
        self.first_audible = None
        self.first_heard = None
        self.last_audible = None

    def wait_audible(self, timeout=15):
        deadline = time.monotonic() + timeout
        while self.first_audible is None and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.first_audible

    def wait_quiet(self, quiet=1.0, timeout=15):
        """Waits until no audible sample arrived for `quiet` seconds; the last audible arrival."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            last = self.last_audible
            if last is not None and time.monotonic() - last >= quiet:
                return last
            time.sleep(0.01)
        return None

    def close(self):
        self.stop = True
        self.thread.join()
        os.close(self.fd)


class Daemon:
    """`aubade run --json` with its wall clock started at `start` (a datetime in UTC)."""

    def __init__(self, aubade, db, config, start, http="off", extra=()):
        self.spawned = time.monotonic()
        self.proc = subprocess.Popen([aubade, "run", "--json", "--db", db, "--config", config,
                                      "--fake-time", start.strftime("%Y-%m-%dT%H:%M:%SZ"), "--http", http, *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.events = []  # (mono received, event dict)
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            with self.lock:
                self.events.append((time.monotonic(), event))

    def wait(self, name, timeout=30, match=lambda e: True):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for mono, e in self.events:
                    if e.get("event") == name and match(e):
                        return mono, e
            time.sleep(0.01)
        return None, None

    def fake_wall(self, mono):
        """The daemon's wall clock at a monotonic instant of ours, from its `ready` line."""
        ready_mono, ready = self.wait("ready", timeout=10)
        return ready["t"] + (mono - ready_mono)

    def stop(self):
        terminate(self.proc)


def cli(aubade, db, config, *args):
    return subprocess.run([aubade, *args, "--db", db, "--config", config], check=True,
                          capture_output=True, text=True).stdout


def clock_dir(root, name, card_path):
    d = os.path.join(root, name)
    os.makedirs(d)
    db, config = os.path.join(d, "aubade.sqlite"), os.path.join(d, "aubade.toml")
    with open(config, "w") as f:
        f.write(f"""[audio]\ndevice = "file:'{card_path}',raw"\nallow_local_streams = true\n"""
                """[clock]\ntime_zone = "UTC"\n[buttons]\nsnooze = ""\nstop = ""\nplay_pause = ""\nsleep = ""\n""")
    return db, config


def alarm_instant():
    tomorrow = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
    return tomorrow.replace(hour=8, minute=0, second=0, microsecond=0)


def onset(aubade, root, card, source, station_url=None, lead=17):
    """Alarm second -> first audible sample heard at the card, in ms; the ringing and fallback lines; and the
    daemon's own measure (its `onset` line's late_ms), or None."""
    db, config = clock_dir(root, f"onset-{time.monotonic_ns()}", card.path)
    if station_url:
        cli(aubade, db, config, "station", "add", "--name", "Bench FM", "--url", station_url)
        source = "Bench FM"
    cli(aubade, db, config, "alarm", "add", "--name", "Bench", "--time", "08:00", "--days", "daily",
        "--source", source, "--fade-in", "0s", "--volume", "100")
    t = alarm_instant()
    card.reset()
    d = Daemon(aubade, db, config, t - datetime.timedelta(seconds=lead))
    try:
        _, ringing = d.wait("ringing", timeout=lead + 15)
        _, fallback = d.wait("fallback", timeout=0.5 if ringing else 0)
        deadline = time.monotonic() + 15
        while card.first_heard is None and time.monotonic() < deadline:
            time.sleep(0.01)
        _, own = d.wait("onset", timeout=2)
        own = None if own is None else own.get("late_ms")
        if fallback is not None:
            fallback = dict(fallback, late_s=fallback["t"] - t.timestamp())
        if card.first_heard is None or ringing is None:
            return None, ringing, fallback, own
        return (d.fake_wall(card.first_heard) - t.timestamp()) * 1000, ringing, fallback, own
    finally:
        d.stop()


def ring_fallback(aubade, root, card, url):
    """`aubade ring` without a pre-check: ringing -> fallback event, in s."""
    db, config = clock_dir(root, f"ring-{time.monotonic_ns()}", card.path)
    out = subprocess.run([aubade, "ring", "--source", url, "--for", "14s", "--allow-local", "--json",
                          "--db", db, "--config", config], capture_output=True, text=True, timeout=60).stdout
    events = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    ringing = next((e for e in events if e["event"] == "ringing"), None)
    fallback = next((e for e in events if e["event"] == "fallback"), None)
    if not ringing or not fallback:
        return None, None
    return fallback["t"] - ringing["t"], fallback.get("reason", "")


def ready_time(aubade, root, card):
    db, config = clock_dir(root, f"ready-{time.monotonic_ns()}", card.path)
    cli(aubade, db, config, "alarm", "add", "--name", "A", "--time", "07:00", "--days", "daily", "--source", "tone")
    d = Daemon(aubade, db, config, alarm_instant() - datetime.timedelta(hours=3))
    try:
        mono, ready = d.wait("ready", timeout=10)
        return (mono - d.spawned) * 1000, ready["ready_ms"]
    finally:
        d.stop()


def stop_latency(aubade, root, card):
    """A tone alarm rings for 2 s, then `aubade stop`: ms from the command's start to the last audible sample
    written to the card (the card drains its FIFO at once, so this is when the daemon stopped writing)."""
    db, config = clock_dir(root, f"stop-{time.monotonic_ns()}", card.path)
    cli(aubade, db, config, "alarm", "add", "--name", "Bench", "--time", "08:00", "--days", "daily",
        "--source", "tone", "--fade-in", "0s")
    card.reset()
    d = Daemon(aubade, db, config, alarm_instant() - datetime.timedelta(seconds=3))
    try:
        if d.wait("ringing", timeout=20)[1] is None or card.wait_audible() is None:
            return None
        time.sleep(2)
        asked = time.monotonic()
        cli(aubade, db, config, "stop")
        last = card.wait_quiet()
        return None if last is None else (last - asked) * 1000
    finally:
        d.stop()


def resume_after_kill(aubade, root, card):
    """kill -9 while a 10-min tone alarm rings; restarted 30 s later on its clock. Returns ms from the
    restart's spawn to the resumed `ringing` line and to the first audible sample at the card."""
    db, config = clock_dir(root, f"resume-{time.monotonic_ns()}", card.path)
    cli(aubade, db, config, "alarm", "add", "--name", "Bench", "--time", "08:00", "--days", "daily",
        "--source", "tone", "--fade-in", "0s", "--duration", "10m")
    t = alarm_instant()
    d = Daemon(aubade, db, config, t - datetime.timedelta(seconds=2))
    if d.wait("ringing", timeout=20)[1] is None:
        d.stop()
        return None, None
    d.proc.kill()
    d.proc.wait()
    card.reset()
    d = Daemon(aubade, db, config, t + datetime.timedelta(seconds=30))
    try:
        mono, ringing = d.wait("ringing", timeout=20, match=lambda e: e.get("cause") == "resumed")
        if ringing is None:
            return None, None
        audible = card.wait_audible()
        return (mono - d.spawned) * 1000, None if audible is None else (audible - d.spawned) * 1000
    finally:
        d.stop()


def proc_cpu_and_switches(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime + stime
    return ticks / os.sysconf("SC_CLK_TCK"), thread_switches(pid)


def thread_switches(pid, name=None):
    """The context switches of the daemon's threads (only those named `name`, when given; 0 when there is none)."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            if name is not None:
                with open(f"/proc/{pid}/task/{tid}/comm") as f:
                    if f.read().strip() != name:
                        continue
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total


def status_field(pid, name):
    """A KiB figure of /proc/<pid>/status: VmRSS, VmHWM…; 0 when the line is missing."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(name + ":"):
                return int(line.split()[1])
    return 0


def idle(aubade, root, card, station_url, seconds, http="off", mqtt=None):
    """CPU seconds, wake-ups per second and resident memory (KiB) of an idle daemon with two alarms set; with
    `mqtt` (a broker's mqtt:// address), its Home Assistant face connected and idle."""
    db, config = clock_dir(root, f"idle-{http.replace(':', '-')}{'-mqtt' if mqtt else ''}", card.path)
    cli(aubade, db, config, "station", "add", "--name", "Bench FM", "--url", station_url)
    cli(aubade, db, config, "alarm", "add", "--name", "A", "--time", "07:00", "--days", "daily", "--source", "tone")
    cli(aubade, db, config, "alarm", "add", "--name", "B", "--time", "07:30", "--days", "mon-fri", "--source", "Bench FM")
    d = Daemon(aubade, db, config, alarm_instant() - datetime.timedelta(hours=3), http=http,
               extra=["--mqtt", mqtt] if mqtt else [])
    try:
        d.wait("ready", timeout=10)
        if mqtt:
            # Connected and published: the retained availability says online.
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and subprocess.run(
                    ["mosquitto_sub", "-h", "127.0.0.1", "-p", mqtt.rsplit(":", 1)[1], "-t", "aubade/+/availability",
                     "-C", "1", "-W", "2"], capture_output=True, text=True).stdout.strip() != "online":
                pass
        if http != "off":
            d.wait("http", timeout=10)
        time.sleep(2)
        cpu0, sw0 = proc_cpu_and_switches(d.proc.pid)
        mq0 = thread_switches(d.proc.pid, "aubade-mqtt")
        time.sleep(seconds)
        cpu1, sw1 = proc_cpu_and_switches(d.proc.pid)
        mq1 = thread_switches(d.proc.pid, "aubade-mqtt")
        return cpu1 - cpu0, (sw1 - sw0) / seconds, status_field(d.proc.pid, "VmRSS"), (mq1 - mq0) / seconds * 60
    finally:
        d.stop()


def start_broker(root):
    """A Mosquitto broker on a free port of 127.0.0.1 (nil when mosquitto is not installed): (process, address)."""
    if not shutil.which("mosquitto"):
        log("mosquitto is not installed: the MQTT figures are left out")
        return None
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    conf = os.path.join(root, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    os.chmod(root, 0o755)
    os.chmod(conf, 0o644)
    proc = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, f"mqtt://127.0.0.1:{port}"
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("daemon_bench: mosquitto did not listen")


def post_latency(aubade, root, card, requests):
    """Milliseconds of each `POST /api/v1/alarms` (a new alarm committed each time) on one keep-alive connection."""
    db, config = clock_dir(root, "http-latency", card.path)
    d = Daemon(aubade, db, config, alarm_instant() - datetime.timedelta(hours=3), http="127.0.0.1:0")
    try:
        d.wait("ready", timeout=10)
        _, served = d.wait("http", timeout=10)
        token = json.loads(cli(aubade, db, config, "token", "new", "--name", "bench", "--json"))["token"]
        conn = http.client.HTTPConnection("127.0.0.1", served["port"], timeout=30)
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        times = []
        for i in range(requests):
            body = json.dumps({"name": f"Bench {i}", "time": f"{5 + i % 4:02d}:{i % 60:02d}", "days": "daily"})
            t0 = time.perf_counter()
            conn.request("POST", "/api/v1/alarms", body=body, headers=headers)
            reply = conn.getresponse()
            reply.read()
            times.append((time.perf_counter() - t0) * 1000)
            if reply.status != 201:
                raise RuntimeError(f"POST /api/v1/alarms answered {reply.status}")
        conn.close()
        return times
    finally:
        d.stop()


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--aubade", required=True)
    args = ap.parse_args()
    aubade = os.path.abspath(args.aubade)
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    idle_seconds = float(os.environ.get("BENCH_IDLE_SECONDS", "60"))
    for tool in ("sox", "lame", "python3"):
        if not shutil.which(tool):
            sys.exit(f"daemon_bench: {tool} is missing; run 'deploy/install-deps.sh test'.")
    root = tempfile.mkdtemp(prefix="aubade-daemon-bench-")
    card = Card(os.path.join(root, "card.fifo"))
    wav, mp3 = os.path.join(root, "s.wav"), os.path.join(root, "s.mp3")
    subprocess.run(["sox", "-D", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "2", "sine", "440", "vol", "0.5"], check=True)
    subprocess.run(["lame", "--quiet", "--cbr", "-b", "128", wav, mp3], check=True)
    server = subprocess.Popen([sys.executable, FAULT_SERVER, mp3], stdout=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{server.stdout.readline().strip()}"
    rows = []
    broker = None
    try:
        log("READY ...")
        readies = [ready_time(aubade, root, card) for _ in range(5)]
        spawn = statistics.median(r[0] for r in readies)
        own = statistics.median(r[1] for r in readies)
        rows.append(("cold start to READY (spawn -> ready line)", f"{spawn:.0f} ms (daemon's own {own:.0f} ms)", "<= 1000 ms", spawn <= 1000))

        log("stop ...")
        stops = [v for v in (stop_latency(aubade, root, card) for _ in range(runs)) if v is not None]
        rows.append(("stop: `aubade stop` -> last audible sample at the card",
                     f"{statistics.median(stops):.0f} ms (runs {', '.join(f'{v:.0f}' for v in stops)})" if stops else "none",
                     "<= 300 ms (a 23-ms chunk + the 200-ms device buffer)", bool(stops) and statistics.median(stops) <= 300))

        log("resume after kill -9 ...")
        resumes = [r for r in (resume_after_kill(aubade, root, card) for _ in range(runs)) if r[0] is not None]
        if resumes:
            ring = statistics.median(r[0] for r in resumes)
            heard = [r[1] for r in resumes if r[1] is not None]
            rows.append(("resume after kill -9: restart -> resumed ringing line",
                         f"{ring:.0f} ms; first audible sample at {statistics.median(heard):.0f} ms" if heard else f"{ring:.0f} ms; never audible",
                         "<= 1100 ms (READY + onset targets)", bool(heard) and statistics.median(heard) <= 1100))
        else:
            rows.append(("resume after kill -9: restart -> resumed ringing line", "not resumed", "<= 1100 ms (READY + onset targets)", False))

        onset_runs = int(os.environ.get("BENCH_ONSET_RUNS", "10"))
        for label, source, url in (("tone", "tone", None), ("station (pre-rolled)", None, base + "/fast")):
            log(f"onset {label} ...")
            values, owns = [], []
            for _ in range(onset_runs):
                ms, _, fb, own = onset(aubade, root, card, source or "tone", url)
                if ms is not None and fb is None:
                    values.append(ms)
                if own is not None:
                    owns.append(own)
            if values:
                med, p95, earliest = statistics.median(values), percentile([abs(v) for v in values], 95), min(values)
                rows.append((f"onset error at the card, {label} ({len(values)} alarms)",
                             f"median {med:+.1f} ms, p95 |{p95:.1f}| ms, earliest {earliest:+.1f} ms",
                             "|median| <= 20 ms, p95 <= 50 ms, never > 20 ms early",
                             abs(med) <= 20 and p95 <= 50 and earliest >= -20))
            else:
                rows.append((f"onset error at the card, {label}", "no audible onset measured", "<= 20 ms", False))
            rows.append((f"  the daemon's own onset lines, {label}",
                         f"median {statistics.median(owns):+.1f} ms, range {min(owns):+.1f} .. {max(owns):+.1f} ms" if owns else "none",
                         "reported for every ring", len(owns) == onset_runs))

        for label, path in (("refused", None), ("HTML", "/html"), ("stalled after 1 s", "/stall?after=16000")):
            url = "http://127.0.0.1:9/radio" if path is None else base + path
            log(f"fallback {label} ...")
            latency, reason = ring_fallback(aubade, root, card, url)
            # Knowable at once for a refused connection or a web page; for the stall, only after the 10-s
            # silence limit itself (no verified audio ever arrived), so the latency is the limit.
            knowable = 0.0
            rows.append((f"fallback, {label}, no pre-check (aubade ring)",
                         "none" if latency is None else f"{latency:.2f} s ({reason[:60]})",
                         "<= 10 s after knowable", latency is not None and latency - knowable <= 10.5))
            if path == "/stall?after=16000":
                continue  # it passes a pre-check by design (1 s decodes), so (b) does not apply
            ms, ringing, fb, _ = onset(aubade, root, card, None, url, lead=10)
            late = None if fb is None else fb["late_s"]
            rows.append((f"fallback, {label}, pre-check failed (daemon)",
                         "none" if late is None else f"{late * 1000:.0f} ms late; tone audible at {ms:.0f} ms" if ms is not None else f"{late * 1000:.0f} ms late",
                         "0 s late", late is not None and late < 0.1))

        broker = start_broker(root)
        modes = [("off", None, "HTTP off"), ("127.0.0.1:0", None, "HTTP on")]
        if broker:
            modes.append(("off", broker[1], "HTTP off, MQTT on (an idle broker)"))
        for http_mode, mqtt, label in modes:
            log(f"idle {idle_seconds:.0f} s, {label} ...")
            cpu, rate, rss, mqtt_rate = idle(aubade, root, card, base + "/fast", idle_seconds, http=http_mode, mqtt=mqtt)
            if mqtt:
                rows.append((f"idle wake-ups of the MQTT connection's thread, {label}", f"{mqtt_rate:.1f} per min",
                             "keep-alive only (<= 1 per min)", mqtt_rate <= 1.0))
            rows.append((f"idle CPU over {idle_seconds:.0f} s, two alarms set, {label}", f"{cpu:.3f} s ({cpu / idle_seconds * 100:.3f} % of a core)", "~ 0", cpu / idle_seconds < 0.001))
            rows.append((f"idle wake-ups (context switches, all threads), {label}", f"{rate:.2f} per s", "<= 1 per s", rate <= 1.0))
            rows.append((f"idle resident memory (VmRSS), {label}", f"{rss / 1024:.1f} MiB", "reported", True))

        requests = int(os.environ.get("BENCH_HTTP_REQUESTS", "1000"))
        log(f"POST /api/v1/alarms x {requests} ...")
        times = post_latency(aubade, root, card, requests)
        rows.append((f"POST /api/v1/alarms latency over {requests} (each committed)",
                     f"p50 {percentile(times, 50):.1f} ms, p99 {percentile(times, 99):.1f} ms, max {max(times):.1f} ms",
                     "reported (an fsync'd commit each)", True))
    finally:
        if broker:
            broker[0].kill()
        server.kill()
        card.close()
        shutil.rmtree(root, ignore_errors=True)

    print_table(rows)


if __name__ == "__main__":
    main()
