#!/usr/bin/env python3
"""Aubade's formats benchmark (not a test): `aubade play` and the daemon beside ffmpeg (and mpv when installed)
on a local AAC Icecast stream, a local live HLS station and, for comparison, the MP3 mount of the same Icecast.

mpv is measured only where it is installed (it was not on the machine this was written on, so its command line
here has not been run). The method is bench/radio_bench.py's, whose helpers this imports (the paced sink, the
Icecast station, the player runs, the daemon's sleep timer).

Streams, all on 127.0.0.1, made at bench time:

  aac   Icecast2 mount /radio.aac: 60 s of AAC-LC ADTS, 128 kbit/s 44.1 kHz stereo, encoded by ffmpeg's `aac`
        from the three 20-s sox tracks radio_bench makes (two sines, pink noise, a sweep with brown noise), fed
        in a loop by ffmpeg as a source client (`-re -stream_loop -1 -c copy -content_type audio/aac -f adts`);
  hls   a live HLS station, Tests/Support/hls_live.py (mode ts: MPEG-TS segments of 2 s with ADTS AAC inside,
        a sine tone): aubade and the daemon get the master playlist and pick its 96 kbit/s 44.1 kHz stereo
        variant under their 128 kbit/s cap; ffmpeg and mpv get that variant's media playlist, /v1.m3u8, so
        all decode the same stream (ffmpeg given the master would fetch every variant);
  mp3   the same Icecast's /radio.mp3: the same three tracks as 128 kbps CBR MP3 (lame), fed by ezstream.

Each player plays BENCH_SECONDS (default 60) of each stream, BENCH_FORMATS_RUNS (else BENCH_RUNS, default 1) runs
each, alternately, into
an ALSA sink paced at real time: alsa-lib's `file` plugin writes raw PCM into a FIFO that a reader here drains
at 176,400 B/s (44.1 kHz, S16, stereo) as a sound card would, starting at the first byte. Two ALSA chains into
that FIFO (BENCH_CHAINS=file,plug), both in every run:

  file         `file:'FIFO',raw` — the file plugin straight (aubade paces it to the wall clock itself; ffmpeg
               is paced by the FIFO's back-pressure)
  plug         `plug:"file:'FIFO',raw"` — plug in front, as a card's usual `plughw`/`default` chain

Players (the ALSA device string is the chain's, given to each as is):

  aubade       `aubade play URL --allow-local --for Ns` with a config whose [audio] device is the chain
  ffmpeg       `ffmpeg -nostdin -loglevel error -i URL -t N -ac 2 -ar 44100 -f alsa DEVICE` (ffmpeg's own
               ALSA output device: the stream is 44.1 kHz stereo already, -ac/-ar only make sure of it)
  mpv          `mpv --no-video --ao=alsa --audio-device=alsa/DEVICE --length=N URL` (s16, 44.1 kHz, stereo)

Per run:

  CPU s        user + sys of the player process (wait4 rusage), and per minute of audio delivered
  peak RSS     ru_maxrss of the player process
  TTFA         spawn -> first PCM byte read from the FIFO
  audio s      PCM bytes delivered / 176,400; underruns = times the reader found the FIFO empty when due

The daemon: `aubade run` with the stream saved as a station and the chain as its card, then
`aubade sleep 30m --source "Bench FM"`; a fresh daemon per stream, chain and run. Its CPU (utime + stime of the
whole process, /proc/PID/stat) from the sleep command to BENCH_SECONDS of audio at the FIFO, per minute of audio;
its peak RSS is VmHWM (/proc/PID/status) read just before it is stopped, i.e. the high-water mark of a daemon
that started, went idle and then played that stream; its time to first audio runs from the sleep command.

The CPU ratio is to ffmpeg's median CPU per minute of audio on the same stream and chain. Time to first audio
also gets BENCH_TTFA_RUNS (default 10) short runs (4 s) per player on the AAC and HLS streams, on the first chain:
Icecast's own delay before a new listener's first byte varies by hundreds of ms. ffmpeg's time to first audio on
the MP3 mount (not judged) is ~4.3 s here once the station has run a while: joining mid-stream, its format
probe (no -f) keeps reading until it is sure, at the stream's rate after Icecast's 64 KB burst; with `-f mp3` it
is ~0.3 s. Its command is left as a listener would type it.

Targets (issue: "CPU per minute of audio ≤ 1.1× the reference for the daemon; first audio no later than the
reference's; peak RSS of the daemon while playing AAC within 10 MB of playing MP3"), the reference being ffmpeg:
the daemon's median CPU per minute of audio ≤ 1.1 × ffmpeg's, on AAC and on HLS, per chain; the median time to
first audio of `aubade play` ≤ ffmpeg's, on AAC and on HLS (and the daemon's from `aubade sleep`, likewise);
the daemon's median VmHWM playing AAC minus playing MP3 ≤ 10 MB, per chain.

With the defaults this takes about 25 minutes (3 streams × 2 chains × 3 players of 60 s, plus the short runs;
BENCH_FORMATS_RUNS=3 triples it); BENCH_SECONDS=15 for a quick look (short runs overstate aubade's CPU: its process start
is not spread over a minute). BENCH_STREAMS=aac,hls,mp3 picks streams (the targets need theirs).

Everything started here dies with this script: the servers (icecast2, ezstream, ffmpeg the source client,
hls_live.py and its ffmpeg) and the daemon under PR_SET_PDEATHSIG (setpriv --pdeathsig), the players, bounded
by their own duration, are killed on SIGTERM/SIGINT/SIGHUP and die of a broken pipe when the sink goes.

Usage: bench/formats_bench.py [--aubade PATH]
       (env: BENCH_SECONDS, BENCH_RUNS, BENCH_CHAINS=file,plug, BENCH_STREAMS=aac,hls,mp3, BENCH_TTFA_RUNS,
        AUBADE_BIN)
"""
import argparse, math, os, select, shutil, signal, statistics, subprocess, sys, tempfile, threading, time
import urllib.request

import radio_bench
from radio_bench import (CHAINS, Station, become_subreaper, daemon_sleep_once, log, make_media,
                         med_range, pause, run_once, run_quiet)
from table import terminate

HERE = os.path.dirname(os.path.abspath(__file__))
HLS_LIVE = os.path.join(HERE, "..", "Tests", "Support", "hls_live.py")
STREAMS = ("aac", "hls", "mp3")
STREAM_NOTES = {"aac": "Icecast AAC-LC ADTS 128 kbit/s", "hls": "live HLS, 96 kbit/s AAC-LC variant",
                "mp3": "Icecast MP3 128 kbps CBR"}
CPU_FACTOR, RSS_MARGIN_MB = 1.1, 10
SHORT_SECONDS = 4
DAEMON = "daemon sleep"


# ---------------------------------------------------------------- servers that die with us

class Mounts(Station):
    """radio_bench's Icecast2 + ezstream (/radio.mp3), each under PR_SET_PDEATHSIG, plus an AAC mount fed by
    ffmpeg as a source client (`feed_aac`)."""

    @staticmethod
    def launch(tool, *args):
        cmd = ["/usr/bin/setpriv", "--pdeathsig", "KILL"]
        if os.getuid() == 0:  # never as root: Icecast refuses it
            cmd += ["--reuid=65534", "--regid=65534", "--clear-groups"]
        return subprocess.Popen(cmd + ["--", tool, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def feed_aac(self, path, mount="/radio.aac"):
        self.procs.append(self.launch("/usr/bin/ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-re",
                                      "-stream_loop", "-1", "-i", path, "-c", "copy", "-content_type", "audio/aac",
                                      "-f", "adts", f"icecast://source:src@127.0.0.1:{self.port}{mount}"))
        url = f"http://127.0.0.1:{self.port}{mount}"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url, timeout=1) as r:
                    if r.status == 200 and len(r.read(1000)) == 1000:
                        return url
            except OSError:
                pass
            time.sleep(0.2)
        raise SystemExit(f"Icecast did not serve {url} within 10 s; see {self.dir}/error.log")


class HLSStation:
    """Tests/Support/hls_live.py in DIR (it arms PR_SET_PDEATHSIG itself, and ffmpeg's); its port is the first
    line of its stdout."""

    def __init__(self, d):
        self.log = open(os.path.join(d, "hls_live.log"), "w")
        self.proc = subprocess.Popen([sys.executable, HLS_LIVE, "--dir", os.path.join(d, "hls")],
                                     stdout=subprocess.PIPE, stderr=self.log)
        ready, _, _ = select.select([self.proc.stdout], [], [], 30)
        line = self.proc.stdout.readline().strip() if ready else b""
        if not line.isdigit():
            self.stop()
            raise SystemExit(f"hls_live.py did not announce its port within 30 s; see {self.log.name}")
        base = f"http://127.0.0.1:{int(line)}"
        self.master, self.variant = f"{base}/master.m3u8", f"{base}/v1.m3u8"

    def stop(self):
        if self.proc.poll() is None:
            terminate(self.proc)
        self.proc.stdout.close()
        self.log.close()


def make_aac(media, wavs_from):
    """The three tracks radio_bench made (their .wav beside the .mp3), one after the other, as AAC-LC ADTS."""
    wavs = [p[:-4] + ".wav" for p in wavs_from]
    joined, aac = os.path.join(media, "all.wav"), os.path.join(media, "radio.aac")
    run_quiet(["sox", *wavs, joined])
    run_quiet(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-i", joined, "-c:a", "aac", "-b:a", "128k",
               "-f", "adts", aac])
    os.chmod(aac, 0o644)
    return aac


def daemon_binary(aubade, work):
    """`aubade` under PR_SET_PDEATHSIG: a script that execs it through setpriv, so the daemon radio_bench's
    SleepingDaemon starts (and its CLI calls) die with the thread that started them."""
    path = os.path.join(work, "aubade-dies-with-us")
    with open(path, "w") as f:
        f.write(f'#!/bin/sh\nexec /usr/bin/setpriv --pdeathsig KILL -- {sh_quote(aubade)} "$@"\n')
    os.chmod(path, 0o755)
    return path


def sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


# ---------------------------------------------------------------- players

def players(aubade, work, fifo, seconds, chain):
    """aubade (and mpv when installed) as radio_bench runs them, and ffmpeg's ALSA output device."""
    device = CHAINS[chain](fifo)
    found = radio_bench.players(aubade, [], work, fifo, seconds, chain)
    found.pop("mpg123")
    found["ffmpeg"] = lambda url: ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-i", url,
                                   "-t", str(seconds), "-ac", "2", "-ar", "44100", "-f", "alsa", device]
    order = ["aubade", "ffmpeg", "mpv"]
    return {n: found[n] for n in order if n in found}


# The player running now, so that a signal can end it (run_once waits for it with wait4, which a signal's
# SystemExit interrupts): radio_bench's spawn, recording the pid.
_current = {"pid": None}
_spawn = radio_bench.spawn


def _recording_spawn(argv, out_path):
    _current["pid"] = _spawn(argv, out_path)
    return _current["pid"]


radio_bench.spawn = _recording_spawn


def play_once(name, stream, argv, fifo, seconds, work, chain):
    r = run_once(f"{name}-{stream}", argv, fifo, seconds, work, chain)
    _current["pid"] = None
    r["player"], r["stream"] = name, stream
    return r


def kill_leftovers():
    """The player a signal interrupted, and run_once's kill timers (they would keep Python alive)."""
    pid = _current["pid"]
    if pid is not None:
        try:
            os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)  # still ours (not reaped)?
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ChildProcessError, ProcessLookupError):
            pass
    for t in threading.enumerate():
        if isinstance(t, threading.Timer):
            t.cancel()


# ---------------------------------------------------------------- report

def finite(xs):
    return [x for x in xs if x is not None and not math.isnan(x)]


def report(results, daemon, names, streams, chains, seconds, runs):
    rows = {}
    for r in results:
        if not r.get("ttfa_only"):
            rows.setdefault((r["player"], r["stream"], r["chain"]), []).append(r)
    for r in daemon:
        rows.setdefault((DAEMON, r["stream"], r["chain"]), []).append(r)
    # time to first audio of the players: the long runs on the first chain and the short ones
    ttfa = {}
    for r in results:
        if r.get("ttfa_only") or r["chain"] == chains[0]:
            ttfa.setdefault((r["player"], r["stream"]), []).append(r["ttfa_ms"])

    def med(key, k):
        xs = finite(r[k] for r in rows.get(key, []))
        return statistics.median(xs) if xs else float("nan")

    def rng(xs, fmt):
        xs = finite(xs)
        return med_range(xs, fmt) if xs else "–"

    print(f"\nFormats: {', '.join(STREAM_NOTES[s] for s in streams)} (all on 127.0.0.1), {seconds} s per run, "
          f"{runs} runs each alternately, paced FIFO sink (176,400 B/s) behind each ALSA chain. Medians (range). "
          f"Time to first audio: spawn -> first PCM byte, over the runs on the {chains[0]} chain and the short ones "
          f"(n); for the daemon, from `aubade sleep` to the first byte at the card. The daemon's CPU is its whole "
          f"process's from the sleep command on; its RSS column is VmHWM. {ffmpeg_version()}.\n")
    print("| player | stream | chain | n | CPU s per min of audio | peak RSS MB | time to first audio ms (n) | "
          "audio s delivered | underruns | CPU ratio to ffmpeg (same stream, chain) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s in streams:
        for c in chains:
            for n in names + [DAEMON]:
                rs = rows.get((n, s, c))
                if not rs:
                    continue
                ratio = med((n, s, c), "cpu_per_min") / med(("ffmpeg", s, c), "cpu_per_min")
                t = ttfa.get((n, s), []) if n != DAEMON and c == chains[0] else [r["ttfa_ms"] for r in rs]
                print(f"| {n} | {s} | {c} | {len(rs)} | {rng([r['cpu_per_min'] for r in rs], '{:.3f}')} | "
                      f"{rng([r['rss_mb'] for r in rs], '{:.1f}')} | {rng(t, '{:.0f}')} ({len(finite(t))}) | "
                      f"{rng([r['audio_s'] for r in rs], '{:.2f}')} | {sum(r['underruns'] for r in rs)} | "
                      f"{ratio:.2f}× |")

    targets = []
    for s in (x for x in ("aac", "hls") if x in streams):
        for c in chains:
            d, f = med((DAEMON, s, c), "cpu_per_min"), med(("ffmpeg", s, c), "cpu_per_min")
            if rows.get((DAEMON, s, c)) and rows.get(("ffmpeg", s, c)):
                targets.append((f"daemon, {s}, {c} chain: CPU per minute of audio ≤ {CPU_FACTOR} × ffmpeg's",
                                f"{d:.3f} vs {CPU_FACTOR * f:.3f} s ({d / f:.2f}×)", d <= CPU_FACTOR * f))
    for s in (x for x in ("aac", "hls") if x in streams):
        f = finite(ttfa.get(("ffmpeg", s), []))
        for who, xs in (("`aubade play`", ttfa.get(("aubade", s), [])),
                        ("daemon (from `aubade sleep`)", [r["ttfa_ms"] for r in rows.get((DAEMON, s, chains[0]), [])])):
            xs = finite(xs)
            if xs and f:
                a, m = statistics.median(xs), statistics.median(f)
                targets.append((f"{who}, {s}: time to first audio ≤ ffmpeg's (medians, {chains[0]} chain)",
                                f"{a:.0f} vs {m:.0f} ms", a <= m))
    if "aac" in streams and "mp3" in streams:
        for c in chains:
            if rows.get((DAEMON, "aac", c)) and rows.get((DAEMON, "mp3", c)):
                a, m = med((DAEMON, "aac", c), "rss_mb"), med((DAEMON, "mp3", c), "rss_mb")
                aa, ma = med((DAEMON, "aac", c), "anon_mb"), med((DAEMON, "mp3", c), "anon_mb")
                af, mf = med((DAEMON, "aac", c), "file_mb"), med((DAEMON, "mp3", c), "file_mb")
                targets.append((f"daemon, {c} chain: peak RSS playing AAC − playing MP3 ≤ {RSS_MARGIN_MB} MB (medians)",
                                f"{a:.1f} − {m:.1f} = {a - m:+.1f} MB (at the end, private RssAnon {aa - ma:+.1f} MB, "
                                f"the libraries' shared pages RssFile {af - mf:+.1f} MB)", a - m <= RSS_MARGIN_MB))
    if targets:
        print("\n| target | measured | result |\n|---|---|---|")
        for what, got, ok in targets:
            print(f"| {what} | {got} | {'PASS' if ok else 'MISS'} |")
    failed = [r for r in results if r.get("status", 0) != 0]
    for r in failed:
        print(f"\n{r['player']} on {r['stream']} ({r.get('chain', chains[0])} chain) exited {r['status']}: see the log above.")
    missing = {(s, c) for s in streams for c in chains} - {(r["stream"], r["chain"]) for r in daemon}
    if missing:
        print(f"\nThe daemon delivered no audio (or failed) on: {', '.join(f'{s}/{c}' for s, c in sorted(missing))}.")


def ffmpeg_version():
    try:
        out = subprocess.run(["ffmpeg", "-version"], capture_output=True, text=True, timeout=10).stdout
        return out.splitlines()[0].split(" Copyright")[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "ffmpeg version unknown"


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--aubade", default=os.environ.get("AUBADE_BIN", ".build/release/aubade"))
    args = ap.parse_args()
    seconds = int(os.environ.get("BENCH_SECONDS", "60"))
    # One run per player, stream and chain unless asked (BENCH_FORMATS_RUNS, else BENCH_RUNS): 3 × 18 runs of 60 s
    # would take an hour of `make bench`.
    runs = int(os.environ.get("BENCH_FORMATS_RUNS", os.environ.get("BENCH_RUNS", "1")))
    ttfa_runs = int(os.environ.get("BENCH_TTFA_RUNS", "10"))
    chains = [c for c in os.environ.get("BENCH_CHAINS", "file,plug").split(",") if c]
    streams = [s for s in os.environ.get("BENCH_STREAMS", ",".join(STREAMS)).split(",") if s]
    for c in chains:
        if c not in CHAINS:
            raise SystemExit(f"BENCH_CHAINS: unknown chain {c}; known: {', '.join(CHAINS)}")
    for s in streams:
        if s not in STREAMS:
            raise SystemExit(f"BENCH_STREAMS: unknown stream {s}; known: {', '.join(STREAMS)}")
    aubade = os.path.abspath(args.aubade)
    if not os.access(aubade, os.X_OK):
        raise SystemExit(f"{aubade} is not built; run `make bench` (it builds the release binary first).")
    for tool in ("icecast2", "ezstream", "sox", "lame", "ffmpeg", "setpriv"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing; `make bench` installs it (deploy/install-deps.sh test).")
    for sig in (signal.SIGTERM, signal.SIGHUP):  # a SystemExit runs the `finally`s that stop what we started
        signal.signal(sig, lambda n, _: sys.exit(128 + n))
    become_subreaper()
    station = hls = None
    with tempfile.TemporaryDirectory(prefix="aubade-formats-bench-") as work:
        try:
            media = os.path.join(work, "media")
            os.mkdir(media)
            os.chmod(media, 0o755)
            log("making test media (sox + lame + ffmpeg's aac)…")
            mp3s = make_media(media)
            aac = make_aac(media, mp3s)
            station_dir = os.path.join(work, "icecast")
            os.mkdir(station_dir)
            os.chmod(work, 0o755)
            station = Mounts(station_dir, mp3s)
            urls = {"mp3": (station.url, station.url)}  # (aubade's and the daemon's, ffmpeg's and mpv's)
            if "aac" in streams:
                aac_url = station.feed_aac(aac)
                urls["aac"] = (aac_url, aac_url)
            if "hls" in streams:
                log("starting the live HLS station (hls_live.py: 3 segments of 2 s first)…")
                hls = HLSStation(work)
                urls["hls"] = (hls.master, hls.variant)
            fifo = os.path.join(work, "sink.fifo")
            os.mkfifo(fifo, 0o600)
            found = {c: players(aubade, work, fifo, seconds, c) for c in chains}
            names = list(found[chains[0]])
            # The database exists on a clock: create it now, so no run pays for the first migration.
            run_quiet([aubade, "settings", "get", "--db", os.path.join(work, "aubade.sqlite")])
            daemon_aubade = daemon_binary(aubade, work)
            log(f"streams: {', '.join(f'{s} {urls[s][0]}' for s in streams)}; players: {', '.join(names)} and the "
                f"daemon; chains: {', '.join(chains)}; {runs} × {seconds} s each, alternately")
            results, daemon = [], []
            for i in range(runs):
                for c in chains:
                    for s in streams:
                        mine, theirs = urls[s]
                        for n in (names if i % 2 == 0 else names[::-1]):
                            results.append(play_once(n, s, found[c][n](mine if n == "aubade" else theirs), fifo,
                                                     seconds, work, c))
                            pause()
                        log(f"  daemon on {s}:")
                        r = daemon_sleep_once(daemon_aubade, work, fifo, c, mine, seconds, f"{s}-{i}")
                        if r is not None:
                            r["stream"] = s
                            daemon.append(r)
                        pause()
            ttfa_streams = [s for s in ("aac", "hls") if s in streams]
            if ttfa_runs and ttfa_streams:
                log(f"time to first audio: {ttfa_runs} more runs of {SHORT_SECONDS} s each per player on "
                    f"{', '.join(ttfa_streams)}, {chains[0]} chain, alternately")
                short = players(aubade, work, fifo, SHORT_SECONDS, chains[0])
                for i in range(ttfa_runs):
                    for s in ttfa_streams:
                        mine, theirs = urls[s]
                        for n in (names if i % 2 == 0 else names[::-1]):
                            r = play_once(n, s, short[n](mine if n == "aubade" else theirs), fifo, SHORT_SECONDS,
                                          work, chains[0])
                            results.append({"player": n, "stream": s, "chain": chains[0], "ttfa_only": True,
                                            "ttfa_ms": r["ttfa_ms"], "status": r["status"]})
                            pause()
            report(results, daemon, names, streams, chains, seconds, runs)
        finally:
            kill_leftovers()
            if hls is not None:
                hls.stop()
            if station is not None:
                station.stop()


if __name__ == "__main__":
    main()
