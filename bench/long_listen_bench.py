#!/usr/bin/env python3
"""Aubade's long listen (not a test; `make bench BENCH_LONG=1`): the daemon's radio for hours, in figures.

`aubade run` (HTTP off) plays its sleep timer (`aubade sleep 8h --source "Bench FM"`) until
BENCH_LONG_HOURS (default 8) hours of audio have reached its card, and this prints its anonymous memory
(RssAnon, /proc/PID/status, sampled every BENCH_LONG_SAMPLE_S seconds: first, last, max, and the slope of a
least-squares line over the run and over its second half, per hour of audio), its underruns, the network
faults it reported, and its CPU (utime + stime of the whole process) per minute of audio.

Sped up where the honest speed-up exists — which one, is printed with the figures:

  source       BENCH_LONG_SOURCE=fast (default): a local HTTP server here that serves an endless ICY stream
               (icy-metaint 16000, a StreamTitle per loop) of a 60-s 128 kbps MP3 made with sox + lame (tagless,
               so that its loops join frame to frame), looped, as fast as the daemon reads it — the speed-up.
               Icecast fed by ezstream serves at real time whoever listens, so the local Icecast stream cannot be
               sped up; BENCH_LONG_SOURCE=icecast plays it (the radio bench's station) and the run then takes the
               hours of wall time it plays.
  card         `plug:"file:'FIFO',raw"`, and the daemon run with `--unpaced` (hidden: aubade's sink otherwise paces
               the file plugin, bare or behind plug, to the wall clock as a card would), so the daemon writes as fast
               as the FIFO is drained: here at BENCH_LONG_SPEED (default 20 with the fast source, 1 with Icecast)
               times 176,400 B/s, the FIFO's pipe enlarged to 1 MiB so that a reader running 20 times a card's
               speed has a card's slack. An underrun is the daemon falling more than 50 ms (wall) of audio behind
               that sped-up clock: at 20× it says the daemon could not keep up at 20 times real time, a stricter
               test than a card's.

What speed cannot change: the sleep timer's own length and fade are wall time, so a sped-up run ends (the timer
cancelled) when the hours of audio are in, not when the timer would; at real time the 8-h timer outlasts the
run too, unless BENCH_LONG_HOURS is more than 8. The CPU per minute of audio at 20× has fewer sleeps and wake-ups
per minute than at real time, so it is a lower bound; the radio bench measures the real-time figure.

Usage: bench/long_listen_bench.py --aubade PATH
       (env: BENCH_LONG_HOURS=8, BENCH_LONG_SOURCE=fast|icecast, BENCH_LONG_SPEED, BENCH_LONG_SAMPLE_S=2)
"""
import argparse, fcntl, http.server, os, shutil, socketserver, statistics, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from radio_bench import (RATE, PacedReader, SleepingDaemon, Station, log, make_media, proc_cpu, proc_status,
                         run_quiet)

F_SETPIPE_SZ = 1031
METAINT = 16000


def tagless_loop(d, mp3s):
    """One tagless 128 kbps CBR MP3 of the three tracks (no ID3, no Xing/LAME frame: its loops join frame to
    frame, so the decoder sees one unbroken stream)."""
    wav, mp3 = os.path.join(d, "loop.wav"), os.path.join(d, "loop.mp3")
    run_quiet(["sox", *[m.replace(".mp3", ".wav") for m in mp3s], wav])
    run_quiet(["lame", "--quiet", "--cbr", "-b", "128", "-t", "--noreplaygain", wav, mp3])
    with open(mp3, "rb") as f:
        return f.read()


class FastStation:
    """An endless ICY stream of `audio` looped, served on 127.0.0.1 as fast as the listener reads."""

    def __init__(self, audio):
        body = audio

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args):
                pass

            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "audio/mpeg")
                icy = self.headers.get("Icy-MetaData") == "1"
                if icy:
                    self.send_header("icy-metaint", str(METAINT))
                self.end_headers()
                pos, loop, until_meta = 0, 0, METAINT
                try:
                    while True:
                        n = min(len(body) - pos, until_meta if icy else 65536, 65536)
                        self.wfile.write(body[pos:pos + n])
                        pos += n
                        if pos == len(body):
                            pos, loop = 0, loop + 1
                        if icy:
                            until_meta -= n
                            if until_meta == 0:
                                text = f"StreamTitle='Long Listen - loop {loop}';".encode()
                                blocks = -(-len(text) // 16)
                                self.wfile.write(bytes([blocks]) + text.ljust(blocks * 16, b"\0"))
                                until_meta = METAINT
                except (BrokenPipeError, ConnectionResetError):
                    pass

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/long.mp3"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


def slope_per_hour(samples):
    """Least-squares slope of (audio hours, kB) samples, in kB per hour of audio."""
    if len(samples) < 3:
        return float("nan")
    xs, ys = [s[0] for s in samples], [s[1] for s in samples]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--aubade", default=os.environ.get("AUBADE_BIN", ".build/release/aubade"))
    args = ap.parse_args()
    aubade = os.path.abspath(args.aubade)
    hours = float(os.environ.get("BENCH_LONG_HOURS", "8"))
    source = os.environ.get("BENCH_LONG_SOURCE", "fast")
    if source not in ("fast", "icecast"):
        raise SystemExit("BENCH_LONG_SOURCE is fast or icecast")
    speed = float(os.environ.get("BENCH_LONG_SPEED", "20" if source == "fast" else "1"))
    sample_every = float(os.environ.get("BENCH_LONG_SAMPLE_S", "2"))
    if not os.access(aubade, os.X_OK):
        raise SystemExit(f"{aubade} is not built; run `make bench` (it builds the release binary first).")
    for tool in ("icecast2", "ezstream", "sox", "lame"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing; `make bench` installs it (deploy/install-deps.sh test).")
    with tempfile.TemporaryDirectory(prefix="aubade-long-") as work:
        os.chmod(work, 0o755)
        media = os.path.join(work, "media")
        os.mkdir(media)
        os.chmod(media, 0o755)
        log("making test media (sox + lame)…")
        mp3s = make_media(media)
        if source == "fast":
            station = FastStation(tagless_loop(media, mp3s))
            what = (f"a local HTTP server serving a looped 60-s 128 kbps MP3 with ICY titles as fast as it is read; "
                    f"card drained at {speed:g}× real time")
        else:
            station_dir = os.path.join(work, "icecast")
            os.mkdir(station_dir)
            station = Station(station_dir, mp3s)
            what = f"local Icecast + ezstream at real time (128 kbps MP3, ICY titles); card drained at {speed:g}×"
        fifo = os.path.join(work, "card.fifo")
        os.mkfifo(fifo, 0o600)
        d = None
        try:
            d = SleepingDaemon(aubade, work, fifo, "plug", station.url, "long", extra=("--unpaced",) if speed != 1 else ())
            fcntl.fcntl(d.holder, F_SETPIPE_SZ, 1 << 20)
            reader = PacedReader(fifo, rate=RATE * speed)
            reader.start()
            cpu0 = proc_cpu(d.pid)
            started = time.monotonic()
            timer = f"{max(8, int(hours + 0.999))}h"
            r = d.cli("sleep", timer, "--source", "Bench FM", check=False)
            log(f"aubade sleep {timer}: {r.stdout.strip() or r.stderr.strip()}")
            target = hours * 3600 * RATE
            samples = []  # (audio hours, RssAnon kB, wall s)
            next_sample = time.monotonic()
            last_log = 0
            while reader.bytes < target and d.proc.poll() is None:
                if time.monotonic() >= next_sample:
                    samples.append((reader.bytes / RATE / 3600, proc_status(d.pid, "RssAnon"),
                                    time.monotonic() - started))
                    next_sample += sample_every
                    if time.monotonic() - last_log >= 60:
                        last_log = time.monotonic()
                        log(f"  {reader.bytes / RATE / 3600:.2f} h of audio, RssAnon {samples[-1][1]} kB, "
                            f"underruns {reader.underruns}")
                if reader.first is None and time.monotonic() - started > 30:
                    raise SystemExit(f"no audio reached the card in 30 s; see {d.log.name}")
                time.sleep(0.2)
            cpu = proc_cpu(d.pid) - cpu0
            samples.append((reader.bytes / RATE / 3600, proc_status(d.pid, "RssAnon"), time.monotonic() - started))
            hwm = proc_status(d.pid, "VmHWM")
            wall = time.monotonic() - started
            alive = d.proc.poll() is None
        finally:
            if d is not None:
                reader.stop_requested = True
                d.stop()
            station.stop()
        with open(d.log.name) as f:
            out = f.read()
        faults = {k: out.count(f'"event":"{k}"') + out.count(f'"event": "{k}"') for k in ("stalled", "reconnecting", "error")}
        audio_h = reader.bytes / RATE / 3600
        rss = [s[1] for s in samples]
        half = [s for s in samples if s[0] >= audio_h / 2]
        print(f"\nLong listen: the daemon's sleep timer on {what}; {audio_h:.2f} h of audio in {wall / 60:.1f} min "
              f"({audio_h * 3600 / wall:.1f}× real time); RssAnon sampled every {sample_every:g} s ({len(samples)} samples).\n")
        print("| measure | figure |\n|---|---|")
        print(f"| audio delivered | {audio_h:.2f} h |")
        print(f"| RssAnon first / last / max | {rss[0] / 1024:.1f} / {rss[-1] / 1024:.1f} / {max(rss) / 1024:.1f} MB |")
        print(f"| RssAnon slope, whole run | {slope_per_hour(samples):+.1f} kB per hour of audio |")
        print(f"| RssAnon slope, second half | {slope_per_hour(half):+.1f} kB per hour of audio |")
        print(f"| VmHWM | {hwm / 1024:.1f} MB |")
        print(f"| underruns (at {speed:g}× a card's rate) | {reader.underruns} |")
        print(f"| network faults reported (stalled / reconnecting / error events) | "
              f"{faults['stalled']} / {faults['reconnecting']} / {faults['error']} |")
        print(f"| CPU | {cpu:.1f} s, {cpu / (audio_h * 60):.3f} s per minute of audio |")
        print(f"| daemon alive at the end | {'yes' if alive else 'NO'} |")
        for note in reader.underrun_notes[:20]:
            log(f"    underrun {note}")
        flat = abs(slope_per_hour(half)) <= 64 if len(half) >= 3 else None
        print(f"\n| target | measured | result |\n|---|---|---|")
        print(f"| anonymous memory flat (second half's slope within ±64 kB per hour of audio) | "
              f"{slope_per_hour(half):+.1f} kB/h | {'PASS' if flat else 'MISS'} |")
        print(f"| no underrun | {reader.underruns} | {'PASS' if reader.underruns == 0 else 'MISS'} |")


if __name__ == "__main__":
    main()
