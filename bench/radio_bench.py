#!/usr/bin/env python3
"""Aubade's radio benchmark (not a test): `aubade play` beside mpg123 (and mpv when installed) on one live stream.

mpv is measured only where it is installed (it was not on the machine this was written on, so its command
line here has not been run); mpd, which needs a daemon, a config and mpc, is not measured.

A real Icecast2 server fed by ezstream on 127.0.0.1 (a random port; run as nobody when we are root, as
Icecast refuses root) serves 128 kbps CBR MP3 made here with sox + lame, with ICY titles. Each player plays
BENCH_SECONDS (default 60) of it, 3 runs each, alternately, into an ALSA sink paced at real time: alsa-lib's
`file` plugin writes raw PCM into a FIFO that a reader here drains at 176,400 B/s (44.1 kHz, S16, stereo) as a
sound card would, starting at the first byte. Two ALSA chains into that FIFO, both in every run:

  file         `file:'FIFO',raw` — the file plugin straight (aubade paces it to the wall clock itself)
  plug         `plug:"file:'FIFO',raw"` — plug in front, as a card's usual `plughw`/`default` chain: the sink
               no longer paces, the FIFO's back-pressure does (as a card's does)

Per run:

  CPU s        user + sys of the player process (wait4 rusage), and per minute of audio delivered
  peak RSS     ru_maxrss of the player process
  TTFA         spawn -> first PCM byte read from the FIFO
  audio s      PCM bytes delivered / 176,400; underruns = times the reader found the FIFO empty when due

The daemon's radio: `aubade run` with the same stream as a saved station and the same chain as its card, and
`aubade sleep 30m --source "Bench FM"`; its CPU (utime + stime of the whole process, /proc/PID/stat) from the
sleep command to BENCH_SECONDS of audio at the FIFO, per minute of audio, once per chain and run.

The CPU ratio to mpg123 is per chain: aubade's median CPU per minute of audio over mpg123's on the same chain.

Time to first audio also gets BENCH_TTFA_RUNS (default 20) short runs per player: Icecast's own delay before
a new listener's first byte varies by hundreds of ms, and 3 samples cannot resolve tens.

Stop: BENCH_STOP_RUNS (default 5) runs of `aubade play` are stopped with SIGINT (Ctrl-C) 3 s into the audio,
when its network buffer holds seconds of audio: SIGINT -> the process has exited (it stops the playback and
drops what the device holds). This is the figure the stream player's stop test prints but no longer
asserts on a busy CI machine.

--variant LABEL=PATH measures another aubade build in the same runs (e.g. one linked with
--static-swift-stdlib); the targets are judged for --aubade only.

Usage: bench/radio_bench.py [--aubade PATH] [--variant LABEL=PATH ...]
       (env: BENCH_SECONDS, BENCH_RUNS, BENCH_TTFA_RUNS, BENCH_STOP_RUNS, BENCH_CHAINS=file,plug,
        BENCH_DAEMON=1, AUBADE_BIN)
"""
import argparse, os, random, select, shutil, signal, statistics, subprocess, sys, tempfile, threading, time
import urllib.request

from table import terminate

RATE = 176_400            # bytes per second of 44.1 kHz S16 stereo
TICK = 0.010              # the reader's "period": it consumes what is due every 10 ms
UNDERRUN_SLACK = 0.050    # due but missing for more than this much audio = an underrun


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run_quiet(args, **kw):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)


# ---------------------------------------------------------------- media and station

def make_media(d):
    """Three 20-s tracks with different content (so the decoder does real work) and ID3 titles."""
    tracks = [
        ("Bench Artist", "Two Sines", ["synth", "20", "sine", "440", "sine", "660", "vol", "0.5"]),
        ("Bench Artist", "Pink Noise", ["synth", "20", "pinknoise", "vol", "0.3"]),
        ("Bench Artist", "Sweep and Noise", ["synth", "20", "sine", "200-2000", "brownnoise", "vol", "0.4"]),
    ]
    paths = []
    for i, (artist, title, synth) in enumerate(tracks):
        wav, mp3 = os.path.join(d, f"t{i}.wav"), os.path.join(d, f"t{i}.mp3")
        run_quiet(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", wav] + synth)
        run_quiet(["lame", "--quiet", "--cbr", "-b", "128", "--ta", artist, "--tt", title, wav, mp3])
        os.chmod(mp3, 0o644)
        paths.append(mp3)
    return paths


class Station:
    """Icecast2 + ezstream on 127.0.0.1, configured like Sources/AubadeTesting/IcecastServer.swift."""
    mount = "/radio.mp3"

    def __init__(self, d, mp3s):
        self.dir = d
        self.port = 20_000 + int.from_bytes(os.urandom(2), "little") % 20_000
        self.url = f"http://127.0.0.1:{self.port}{self.mount}"
        os.chmod(d, 0o777)
        self.write("icecast.xml", f"""<icecast><limits><clients>20</clients><sources>4</sources>
<burst-size>65536</burst-size></limits>
<authentication><source-password>src</source-password><admin-user>admin</admin-user>
<admin-password>adm</admin-password></authentication><hostname>127.0.0.1</hostname>
<listen-socket><port>{self.port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
<paths><basedir>{d}</basedir><logdir>{d}</logdir>
<webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
<logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
</icecast>""", 0o644)
        self.write("list.m3u", "".join(p + "\n" for p in mp3s), 0o644)
        self.write("ezstream.xml", f"""<ezstream><servers><server><hostname>127.0.0.1</hostname>
<port>{self.port}</port><password>src</password></server></servers>
<streams><stream><mountpoint>{self.mount}</mountpoint><format>MP3</format></stream></streams>
<intakes><intake><filename>{d}/list.m3u</filename></intake></intakes>
<metadata><format_str>@a@ - @t@</format_str></metadata></ezstream>""", 0o600)  # ezstream refuses a readable config
        if os.getuid() == 0:
            os.chown(os.path.join(d, "ezstream.xml"), 65534, 65534)
        self.procs = [self.launch("/usr/bin/icecast2", "-c", f"{d}/icecast.xml")]
        time.sleep(0.5)
        self.procs.append(self.launch("/usr/bin/ezstream", "-c", f"{d}/ezstream.xml"))
        self.wait_until_live()

    def write(self, name, text, mode):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)

    @staticmethod
    def launch(tool, *args):
        cmd = [tool, *args]
        if os.getuid() == 0:  # never as root: Icecast refuses it, and a benchmark has no business being root
            cmd = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def wait_until_live(self):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url, timeout=1) as r:
                    if r.status == 200 and len(r.read(1000)) == 1000:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise SystemExit(f"Icecast did not serve {self.url} within 10 s; see {self.dir}/error.log")

    def stop(self):
        for p in reversed(self.procs):
            p.kill()
            p.wait()


# ---------------------------------------------------------------- the paced sink

class PacedReader(threading.Thread):
    """Drains a FIFO at RATE bytes/s from its first byte on, like a DAC; records what arrived and when."""

    def __init__(self, fifo, rate=RATE):
        super().__init__(daemon=True)
        self.fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # returns at once; the writer comes later
        self.rate = rate            # bytes per second drained: RATE, or a multiple of it (a sped-up listen)
        self.first = None
        self.bytes = 0
        self.underruns = 0
        self.underrun_notes = []
        self.done = threading.Event()
        self.stop_requested = False

    def run(self):
        buf = bytearray(65536)
        view = memoryview(buf)
        t0, base = None, 0          # the "DAC" clock: due(t) = (t - t0) * RATE, re-based after an underrun
        try:
            while not self.stop_requested:
                if t0 is None:
                    r, _, _ = select.select([self.fd], [], [], 0.05)
                    if not r:
                        continue
                    n = self.read(view[:4096])
                    if n is None:
                        continue
                    if n == 0:
                        if self.first is not None:
                            return                      # EOF: the writer closed
                        time.sleep(0.005)               # no writer yet
                        continue
                    self.first = time.monotonic()
                    t0, base = self.first, n
                    self.bytes += n
                    continue
                slept = time.monotonic()
                time.sleep(TICK)
                now = time.monotonic()
                due = int((now - t0) * self.rate) + 4096 - base
                got = 0
                while got < due:
                    n = self.read(view[:min(len(buf), due - got)])
                    if n is None:
                        break
                    if n == 0:
                        return
                    got += n
                self.bytes += got
                base += got
                if due - got > UNDERRUN_SLACK * self.rate:  # the player fell behind the clock: the card would click
                    self.underruns += 1
                    self.underrun_notes.append(f"at {now - self.first:.1f} s: {(due - got) / self.rate * 1000:.0f} ms "
                                               f"missing, reader woke {(now - slept - TICK) * 1000:.0f} ms late")
                    t0, base = time.monotonic(), 0
        finally:
            os.close(self.fd)
            self.done.set()

    def read(self, view):
        try:
            return os.readv(self.fd, [view])
        except BlockingIOError:
            return None


# ---------------------------------------------------------------- players

CHAINS = {
    "file": lambda fifo: f"file:'{fifo}',raw",
    "plug": lambda fifo: f"plug:\"file:'{fifo}',raw\"",
}


def toml_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def players(aubade, variants, work, fifo, seconds, chain="file"):
    device = CHAINS[chain](fifo)
    cfg = os.path.join(work, f"aubade-{chain}.toml")
    with open(cfg, "w") as f:
        f.write(f'[audio]\ndevice = {toml_string(device)}\nallow_local_streams = true\n')
    frames = -(-seconds * 44_100 // 1152)  # mpg123 -n counts MPEG frames of 1152 samples

    def play(binary):
        return lambda url: [binary, "play", url, "--allow-local", "--for", f"{seconds}s", "--json",
                            "--config", cfg, "--db", os.path.join(work, "aubade.sqlite")]
    found = {"aubade": play(aubade)}
    for label, path in variants:
        found[f"aubade-{label}"] = play(path)
    found["mpg123"] = lambda url: ["mpg123", "-q", "-o", "alsa", "-a", device, "-n", str(frames), url]
    if shutil.which("mpv"):
        found["mpv"] = lambda url: ["mpv", "--no-config", "--no-video", "--really-quiet", "--ao=alsa",
                                    f"--audio-device=alsa/{device}", "--audio-format=s16",
                                    "--audio-samplerate=44100", "--audio-channels=stereo",
                                    f"--length={seconds}", url]
    return found


def become_subreaper():
    """Orphaned descendants are re-parented to us, so a player started through /bin/sh can be reaped here."""
    import ctypes
    PR_SET_CHILD_SUBREAPER = 36
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise SystemExit("prctl(PR_SET_CHILD_SUBREAPER) failed")


def spawn(argv, out_path):
    """Starts `argv` as a child of a small /bin/sh that exits at once, and returns its pid.

    Why not Popen: a process's ru_maxrss includes the memory image it was forked from, so every child of
    this Python process would report Python's ~23 MB as its peak RSS. Forked from sh, the floor is ~1 MB.
    We are a child subreaper, so the player becomes our child when sh exits, and wait4 gives its rusage."""
    sh = subprocess.Popen(["/bin/sh", "-c", '"$@" >"$BENCH_OUT" 2>&1 </dev/null & echo $!', "sh", *argv],
                          stdout=subprocess.PIPE, env={**os.environ, "BENCH_OUT": out_path})
    pid = int(sh.stdout.readline())
    sh.wait()
    return pid


def run_once(name, argv, fifo, seconds, work, chain="file"):
    reader = PacedReader(fifo)
    reader.start()
    out_path = os.path.join(work, f"{name}.out")
    spawned = time.monotonic()
    pid = spawn(argv, out_path)
    killer = threading.Timer(seconds + 30, lambda: os.kill(pid, signal.SIGKILL))
    killer.start()
    _, status, ru = os.wait4(pid, 0)
    killer.cancel()
    reader.done.wait(timeout=2)
    reader.stop_requested = True
    reader.join()
    audio = reader.bytes / RATE
    cpu = ru.ru_utime + ru.ru_stime
    r = {
        "player": name, "chain": chain, "status": os.waitstatus_to_exitcode(status), "cpu": cpu,
        "cpu_per_min": cpu / audio * 60 if audio else float("nan"), "rss_mb": ru.ru_maxrss / 1024,
        "ttfa_ms": (reader.first - spawned) * 1000 if reader.first else float("nan"),
        "audio_s": audio, "underruns": reader.underruns,
    }
    if name.startswith("aubade"):
        r["reported_ms"] = reported_first_audio(out_path)
    for note in reader.underrun_notes:
        log(f"    underrun {note}")
    log("  {player:7} {chain:4} exit {status}  cpu {cpu:.3f} s  ({cpu_per_min:.3f} s/min)  rss {rss_mb:.1f} MB  "
        "ttfa {ttfa_ms:.0f} ms  audio {audio_s:.2f} s  underruns {underruns}".format(**r))
    return r


def stop_once(argv, fifo, work):
    """Plays until 3 s of audio have reached the FIFO, sends SIGINT, returns ms until the process exited."""
    reader = PacedReader(fifo)
    reader.start()
    pid = spawn(argv, os.path.join(work, "stop.out"))
    killer = threading.Timer(60, lambda: os.kill(pid, signal.SIGKILL))
    killer.start()
    deadline = time.monotonic() + 30
    while (reader.first is None or time.monotonic() - reader.first < 3) and time.monotonic() < deadline:
        time.sleep(0.01)
    asked = time.monotonic()
    os.kill(pid, signal.SIGINT)
    _, status, _ = os.wait4(pid, 0)
    exited = time.monotonic()
    killer.cancel()
    reader.stop_requested = True
    reader.join()
    ms = (exited - asked) * 1000
    log(f"  stop: exit {os.waitstatus_to_exitcode(status)} {ms:.0f} ms after SIGINT")
    return ms if reader.first is not None else None


def proc_cpu(pid):
    """utime + stime of all the process's threads, in s (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_status(pid, key):
    """A /proc/PID/status field in kB (VmHWM, RssAnon…), or None."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return None


def daemon_config(work, name, device):
    """A clock directory for `aubade run`: its database and a config whose card is `device`."""
    d = os.path.join(work, name)
    os.makedirs(d)
    db, config = os.path.join(d, "aubade.sqlite"), os.path.join(d, "aubade.toml")
    with open(config, "w") as f:
        f.write(f"[audio]\ndevice = {toml_string(device)}\nallow_local_streams = true\n"
                "[clock]\ntime_zone = \"UTC\"\n[buttons]\nsnooze = \"\"\nstop = \"\"\nplay_pause = \"\"\nsleep = \"\"\n")
    return db, config


class SleepingDaemon:
    """`aubade run` (HTTP off) with the station saved as "Bench FM" and `chain` into `fifo` as its card.

    The daemon opens its card at start (the `plug` chain proves it with 10 ms of silence, which the file plugin
    passes on): a holder keeps the FIFO open for writing and reading until the daemon is up and idle, what it
    wrote then is discarded, and only then does the paced reader start, so the reader's clock starts with the
    sleep timer's first byte."""

    def __init__(self, aubade, work, fifo, chain, station_url, name, extra=()):
        self.aubade = aubade
        self.fifo = fifo
        self.db, self.config = daemon_config(work, name, CHAINS[chain](fifo))
        self.cli("station", "add", "--name", "Bench FM", "--url", station_url)
        self.holder = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        self.log = open(os.path.join(work, f"{name}.out"), "w")
        self.proc = subprocess.Popen([aubade, "run", "--json", "--db", self.db, "--config", self.config,
                                      "--http", "off", *extra], stdout=self.log, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and '"ready"' not in open(self.log.name).read():
            time.sleep(0.05)
        time.sleep(1.0)  # the engine opens the card at start; let it
        try:
            while os.read(self.holder, 65536):
                pass
        except BlockingIOError:
            pass

    def cli(self, *args, check=True):
        return subprocess.run([self.aubade, *args, "--db", self.db, "--config", self.config], check=check,
                              capture_output=True, text=True, timeout=60)

    def stop(self):
        self.cli("sleep", "cancel", check=False)
        terminate(self.proc)
        self.log.close()
        os.close(self.holder)


def daemon_sleep_once(aubade, work, fifo, chain, station_url, seconds, index):
    """The daemon's sleep timer on `chain`: CPU of the daemon from `aubade sleep` to `seconds` of audio at the
    card, per minute of audio; underruns; its VmHWM."""
    d = SleepingDaemon(aubade, work, fifo, chain, station_url, f"daemon-{chain}-{index}")
    reader = PacedReader(fifo)
    reader.start()
    try:
        cpu0 = proc_cpu(d.pid)
        asked = time.monotonic()
        threading.Thread(target=d.cli, args=("sleep", "30m", "--source", "Bench FM"), kwargs={"check": False},
                         daemon=True).start()
        deadline = time.monotonic() + 30
        while reader.first is None and time.monotonic() < deadline:
            time.sleep(0.01)
        if reader.first is None:
            log(f"  daemon  {chain:4} no audio reached the card; see {d.log.name}")
            return None
        while time.monotonic() - reader.first < seconds:
            time.sleep(0.05)
        cpu = proc_cpu(d.pid) - cpu0
        audio = reader.bytes / RATE
        r = {"player": "daemon sleep", "chain": chain, "cpu": cpu, "audio_s": audio,
             "cpu_per_min": cpu / audio * 60 if audio else float("nan"), "underruns": reader.underruns,
             "rss_mb": (proc_status(d.pid, "VmHWM") or 0) / 1024, "ttfa_ms": (reader.first - asked) * 1000,
             # Of the resident memory, the private part (RssAnon) and the libraries' shared, clean pages (RssFile).
             "anon_mb": (proc_status(d.pid, "RssAnon") or 0) / 1024, "file_mb": (proc_status(d.pid, "RssFile") or 0) / 1024}
    finally:
        reader.stop_requested = True
        d.stop()
        reader.join()
    for note in reader.underrun_notes:
        log(f"    underrun {note}")
    log("  daemon  {chain:4} cpu {cpu:.3f} s  ({cpu_per_min:.3f} s/min)  VmHWM {rss_mb:.1f} MB  "
        "sleep -> first audio {ttfa_ms:.0f} ms  audio {audio_s:.2f} s  underruns {underruns}".format(**r))
    return r


def reported_first_audio(path):
    import json
    with open(path, "rb") as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if e.get("event") == "playing":
                return e.get("firstAudioMs")
    return None


# ---------------------------------------------------------------- report

def med_range(xs, fmt):
    return f"{fmt.format(statistics.median(xs))} ({fmt.format(min(xs))}–{fmt.format(max(xs))})"


def report(results, names, chains, seconds, runs, daemon):
    ttfa = {n: [r["ttfa_ms"] for r in results if r["player"] == n and (r.get("ttfa_only") or r["chain"] == chains[0])]
            for n in names}
    rows = {(n, c): [r for r in results if r["player"] == n and r.get("chain") == c and not r.get("ttfa_only")]
            for n in names for c in chains}
    for c in chains:
        rows[("daemon sleep", c)] = [r for r in daemon if r["chain"] == c]

    def med(n, c, k):
        return statistics.median(r[k] for r in rows[(n, c)]) if rows[(n, c)] else float("nan")

    print(f"\nLive Icecast stream (127.0.0.1, 128 kbps CBR MP3, ICY titles), {seconds} s per run, {runs} runs each "
          f"alternately, paced FIFO sink (176,400 B/s) behind each ALSA chain. Medians (range). Time to first audio "
          f"over {len(ttfa[names[0]])} runs each (the long runs and short extra ones, file chain); for the daemon, "
          f"from `aubade sleep` to the first byte at the card. The daemon's CPU is its whole process's from the sleep "
          f"command on; its RSS column is VmHWM.\n")
    print("| player | chain | n | CPU s / run | CPU s per min of audio | peak RSS MB | time to first audio ms (n) | "
          "audio s delivered | underruns | CPU ratio to mpg123 (same chain) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for c in chains:
        for n in names + ["daemon sleep"]:
            rs = rows[(n, c)]
            if not rs:
                continue
            ratio = med(n, c, "cpu_per_min") / med("mpg123", c, "cpu_per_min")
            t = [r["ttfa_ms"] for r in rs] if n == "daemon sleep" or c != chains[0] else ttfa[n]
            print(f"| {n} | {c} | {len(rs)} | {med_range([r['cpu'] for r in rs], '{:.3f}')} | "
                  f"{med_range([r['cpu_per_min'] for r in rs], '{:.3f}')} | {med_range([r['rss_mb'] for r in rs], '{:.1f}')} | "
                  f"{med_range(t, '{:.0f}')} ({len(t)}) | {med_range([r['audio_s'] for r in rs], '{:.2f}')} | "
                  f"{sum(r['underruns'] for r in rs)} | {ratio:.2f}× |")
    reported = [r["reported_ms"] for r in results if r["player"] == "aubade" and r.get("reported_ms") is not None]
    if reported:
        print(f"\naubade's own `playing` event (firstAudioMs: from the player's start inside the process to the "
              f"first write to ALSA): median {statistics.median(reported):.0f} ms ({min(reported)}–{max(reported)}).")
    targets = []
    for c in chains:
        for n, what in (("aubade", "`aubade play`"), ("daemon sleep", "the daemon's sleep timer")):
            if not rows[(n, c)] or not rows[("mpg123", c)]:
                continue
            a, m = med(n, c, "cpu_per_min"), med("mpg123", c, "cpu_per_min")
            targets.append((f"{what}, {c} chain: CPU per minute of audio ≤ 1.25 × mpg123",
                            f"{a:.3f} vs {1.25 * m:.3f} s ({a / m:.2f}×)", a <= 1.25 * m))
            u = sum(r["underruns"] for r in rows[(n, c)])
            targets.append((f"{what}, {c} chain: no underrun", f"{u} in {len(rows[(n, c)])} runs", u == 0))
    a_ttfa, m_ttfa = statistics.median(ttfa["aubade"]), statistics.median(ttfa["mpg123"])
    targets.append(("time to first audio ≤ mpg123's (medians, file chain)", f"{a_ttfa:.0f} vs {m_ttfa:.0f} ms",
                    a_ttfa <= m_ttfa))
    worst_rss = max(r["rss_mb"] for c in chains for r in rows[("aubade", c)])
    targets.append(("`aubade play` peak RSS ≤ 30 MB (worst run)", f"{worst_rss:.1f} MB", worst_rss <= 30))
    print("\n| target | measured | result |\n|---|---|---|")
    for what, got, ok in targets:
        print(f"| {what} | {got} | {'PASS' if ok else 'MISS'} |")
    failed = [r for r in results if r["player"] == "aubade" and r.get("status", 0) != 0]
    if failed:
        print(f"\n{len(failed)} aubade run(s) exited non-zero: see the log above.")


def pause():
    """A random pause between runs. Icecast hands data to its listeners in ticks (~260 ms here, as ezstream
    feeds it) and a new listener's first bytes wait for the next tick; with fixed pauses each player would start
    at the same phase of that cadence every time, and its time to first audio would be set by the previous
    run's length rather than by the player."""
    time.sleep(0.5 + random.random())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--aubade", default=os.environ.get("AUBADE_BIN", ".build/release/aubade"))
    ap.add_argument("--variant", action="append", default=[], metavar="LABEL=PATH",
                    help="another aubade build to measure in the same runs, e.g. static=.build-static/release/aubade")
    args = ap.parse_args()
    variants = [(v.split("=", 1)[0], os.path.abspath(v.split("=", 1)[1])) for v in args.variant]
    seconds = int(os.environ.get("BENCH_SECONDS", "60"))
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    aubade = os.path.abspath(args.aubade)
    if not os.access(aubade, os.X_OK):
        raise SystemExit(f"{aubade} is not built; run `make bench` (it builds the release binary first).")
    for tool in ("icecast2", "ezstream", "sox", "lame", "mpg123"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing; `make bench` installs it (deploy/install-deps.sh test).")
    become_subreaper()
    with tempfile.TemporaryDirectory(prefix="aubade-bench-") as work:
        media = os.path.join(work, "media")
        os.mkdir(media)
        os.chmod(media, 0o755)
        log("making test media (sox + lame)…")
        mp3s = make_media(media)
        station_dir = os.path.join(work, "icecast")
        os.mkdir(station_dir)
        os.chmod(work, 0o755)
        station = Station(station_dir, mp3s)
        try:
            fifo = os.path.join(work, "sink.fifo")
            os.mkfifo(fifo, 0o600)
            chains = [c for c in os.environ.get("BENCH_CHAINS", "file,plug").split(",") if c]
            for c in chains:
                if c not in CHAINS:
                    raise SystemExit(f"BENCH_CHAINS: unknown chain {c}; known: {', '.join(CHAINS)}")
            found = {c: players(aubade, variants, work, fifo, seconds, c) for c in chains}
            # The database exists on a clock: create it now, so no run pays for the first migration.
            run_quiet([aubade, "settings", "get", "--db", os.path.join(work, "aubade.sqlite")])
            names = list(found[chains[0]])
            with_daemon = os.environ.get("BENCH_DAEMON", "1") != "0"
            log(f"station {station.url}; players: {', '.join(names)}{' and the daemon' if with_daemon else ''}; "
                f"chains: {', '.join(chains)}; {runs} × {seconds} s each, alternately")
            results, daemon = [], []
            for i in range(runs):
                for c in chains:
                    order = names if i % 2 == 0 else names[::-1]
                    for n in order:
                        results.append(run_once(n, found[c][n](station.url), fifo, seconds, work, c))
                        pause()
                    if with_daemon:
                        r = daemon_sleep_once(aubade, work, fifo, c, station.url, seconds, i)
                        if r is not None:
                            daemon.append(r)
                        pause()
            ttfa_runs = int(os.environ.get("BENCH_TTFA_RUNS", "20"))
            if ttfa_runs:
                # Icecast hands a new listener its first bytes after 0-450 ms of its own; a median of 3 cannot
                # see a difference of tens of ms through that, so time to first audio gets more (short) runs.
                log(f"time to first audio: {ttfa_runs} more runs of 2 s each, alternately")
                short = players(aubade, variants, work, fifo, 2)
                for i in range(ttfa_runs):
                    for n in (names if i % 2 == 0 else names[::-1]):
                        r = run_once(n, short[n](station.url), fifo, 2, work)
                        results.append({"player": n, "ttfa_only": True, "ttfa_ms": r["ttfa_ms"],
                                        "reported_ms": r.get("reported_ms")})
                        pause()
            stop_runs = int(os.environ.get("BENCH_STOP_RUNS", "5"))
            stops = []
            if stop_runs:
                log(f"stop: {stop_runs} runs of aubade play stopped with SIGINT 3 s into the audio")
                long_play = players(aubade, [], work, fifo, 600)["aubade"]
                for _ in range(stop_runs):
                    ms = stop_once(long_play(station.url), fifo, work)
                    if ms is not None:
                        stops.append(ms)
                    pause()
            report(results, names, chains, seconds, runs, daemon)
            if stops:
                print(f"\n`aubade play` stop (SIGINT -> exited, 3 s into the audio): median {statistics.median(stops):.0f} ms "
                      f"({min(stops):.0f}–{max(stops):.0f}, {len(stops)} runs); target ≤ 600 ms (one 93-ms decoded piece, "
                      f"the device's 200 ms and the exit): {'PASS' if statistics.median(stops) <= 600 else 'MISS'}")
        finally:
            station.stop()


if __name__ == "__main__":
    main()
