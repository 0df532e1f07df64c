#!/usr/bin/env python3
"""Aubade's footprint benchmark (not a test): what each process holds in memory, how many shared libraries it
maps, how fast a CLI command answers and how big the binary is — beside mpg123 playing the same stream.

Per process, from /proc/PID/smaps_rollup and /proc/PID/smaps:

  VmRSS / PSS / anon   resident memory, its proportional share (a page shared by n processes counts 1/n) and
                       the anonymous part (heap, stacks, private copies; what no other process can share)
  top mappings         the files (or [anon], [heap], [stack]) holding the most PSS, their RSS and PSS
  libraries            the shared objects (*.so*) mapped, the dynamic loader and vdso left out

The processes:
  aubade --help        the argument parser's answer, read when the process is stopped at its exit (ptrace
                       PTRACE_O_TRACEEXIT: its memory is still mapped there), peak = VmHWM
  aubade version       likewise (every C library's version: libcurl, mpg123, ALSA, libgpiod, libical)
  aubade play          BENCH_FOOTPRINT_SECONDS (default 15) of a local Icecast stream into alsa-lib's `file`
                       plugin drained at real time (bench/radio_bench.py's station and sink), sampled every
                       250 ms; peak RSS = ru_maxrss (the process started from a small sh, as radio_bench does)
  mpg123               the same stream, the same sink, the same time
  the idle daemon      `aubade run` with the HTTP server on 127.0.0.1 and the MQTT face connected to a local
                       Mosquitto, two alarms set, read after BENCH_FOOTPRINT_IDLE (default 10) s idle

CLI time, exec -> answer: the median of BENCH_CLI_RUNS (default 20) runs of `aubade version` and of
`aubade status --json` against the running daemon (spawn -> first byte on stdout, and -> exit).

Binary: the size as built, and as installed (a copy stripped as deploy/make-deb.sh and deploy/install.sh do).

Targets (issue 25): `aubade play` peak RSS <= 25 MB; the daemon with web and MQTT idle <= 35 MB RSS and
<= 20 MB PSS; a CLI command exec -> answer <= 20 ms; the installed binary <= 30 MB.

Usage: bench/footprint_bench.py [--aubade PATH]
       (env: BENCH_FOOTPRINT_SECONDS, BENCH_FOOTPRINT_IDLE, BENCH_CLI_RUNS, BENCH_TOP_MAPPINGS)
"""
import argparse, ctypes, datetime, os, shutil, signal, statistics, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table import print_table  # noqa: E402
import daemon_bench  # noqa: E402
import radio_bench  # noqa: E402

MB = 1024 * 1024


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- reading /proc

def rollup(pid):
    """KiB figures of /proc/PID/smaps_rollup: Rss, Pss, Anonymous, …"""
    out = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[2] == "kB":
                out[parts[0].rstrip(":")] = int(parts[1])
    return out


def status_kib(pid, name):
    return daemon_bench.status_field(pid, name)


def mappings(pid):
    """Per mapped file (or [anon], [heap], [stack], …): KiB of Rss, Pss, Anonymous, summed over its segments."""
    per = {}
    current = None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if "-" in parts[0] and len(parts) >= 5 and not parts[0].endswith(":"):
                name = parts[5] if len(parts) >= 6 else "[anon]"
                current = per.setdefault(name, {"Rss": 0, "Pss": 0, "Anonymous": 0})
            elif current is not None and parts[0] in ("Rss:", "Pss:", "Anonymous:"):
                current[parts[0][:-1]] += int(parts[1])
    return per


def libraries(per):
    """The shared objects mapped (the loader and the vdso left out)."""
    return sorted(n for n in per if ".so" in os.path.basename(n) and "/ld-linux" not in n and not n.startswith("["))


def snapshot(pid):
    r = rollup(pid)
    per = mappings(pid)
    return {"rss": r.get("Rss", 0), "pss": r.get("Pss", 0), "anon": r.get("Anonymous", 0),
            "hwm": status_kib(pid, "VmHWM"), "per": per, "libs": libraries(per)}


# ---------------------------------------------------------------- a short command, read at its exit

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
libc.ptrace.restype = ctypes.c_long
PTRACE_TRACEME, PTRACE_CONT, PTRACE_SETOPTIONS, PTRACE_DETACH = 0, 7, 0x4200, 17
PTRACE_O_TRACEEXIT, PTRACE_EVENT_EXIT = 0x40, 6


def at_exit(argv):
    """Runs `argv` under ptrace and reads its memory when it is about to exit (PTRACE_EVENT_EXIT of the main
    thread: exit_group has begun, nothing is unmapped yet). Returns the snapshot and its stdout."""
    out = tempfile.TemporaryFile()
    proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                            preexec_fn=lambda: libc.ptrace(PTRACE_TRACEME, 0, None, None))
    pid = proc.pid
    _, status = os.waitpid(pid, 0)  # stopped by SIGTRAP at exec
    if not os.WIFSTOPPED(status):
        raise SystemExit(f"footprint_bench: {argv} did not stop at exec")
    libc.ptrace(PTRACE_SETOPTIONS, pid, None, ctypes.c_void_p(PTRACE_O_TRACEEXIT))
    libc.ptrace(PTRACE_CONT, pid, None, None)
    snap = None
    while True:
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status) or os.WIFSIGNALED(status):
            break
        sig = os.WSTOPSIG(status)
        if sig == signal.SIGTRAP and (status >> 16) == PTRACE_EVENT_EXIT:
            snap = snapshot(pid)
            libc.ptrace(PTRACE_DETACH, pid, None, None)
            continue
        # Any other stop is a signal for the process: hand it on.
        libc.ptrace(PTRACE_CONT, pid, None, ctypes.c_void_p(0 if sig == signal.SIGTRAP else sig))
    proc.returncode = 0
    out.seek(0)
    return snap, out.read()


# ---------------------------------------------------------------- a play, sampled while it runs

def sampled(argv, work, seconds, fifo):
    """Starts `argv` (from a small sh, as radio_bench does, so ru_maxrss is the player's own) with the paced
    FIFO sink draining; samples its memory every 250 ms; returns (the sample of the largest Rss, ru_maxrss KiB,
    seconds of audio delivered)."""
    reader = radio_bench.PacedReader(fifo)
    reader.start()
    pid = radio_bench.spawn(argv, os.path.join(work, f"{os.path.basename(argv[0])}.out"))
    killer = threading.Timer(seconds + 30, lambda: os.kill(pid, signal.SIGKILL))
    killer.start()
    best = None
    while True:
        done, status, ru = os.wait4(pid, os.WNOHANG)
        if done:
            break
        try:
            s = snapshot(pid)
            if best is None or s["rss"] >= best["rss"]:
                best = s
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            pass
        time.sleep(0.25)
    killer.cancel()
    reader.done.wait(timeout=2)
    reader.stop_requested = True
    reader.join()
    return best, ru.ru_maxrss, reader.bytes / radio_bench.RATE


# ---------------------------------------------------------------- CLI time

def answer_ms(argv):
    """spawn -> first byte on stdout, and -> exit, in ms (posix_spawn: Popen's fork of this Python costs ms)."""
    r, w = os.pipe()
    null = os.open(os.devnull, os.O_RDWR)
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[
        (os.POSIX_SPAWN_DUP2, w, 1), (os.POSIX_SPAWN_DUP2, null, 2), (os.POSIX_SPAWN_DUP2, null, 0),
        (os.POSIX_SPAWN_CLOSE, r)])
    os.close(w)
    os.read(r, 1)
    first = time.perf_counter()
    while os.read(r, 65536):
        pass
    os.waitpid(pid, 0)
    end = time.perf_counter()
    os.close(r)
    os.close(null)
    return (first - start) * 1000, (end - start) * 1000


def cli_times(argv, runs):
    answer_ms(argv)  # once to warm the page cache
    samples = [answer_ms(argv) for _ in range(runs)]
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


# ---------------------------------------------------------------- report

def mib(kib):
    return f"{kib / 1024:.1f}"


def print_process(name, s, top):
    if s is None:
        print(f"\n{name}: no sample")
        return
    print(f"\n{name}: VmRSS {mib(s['rss'])} MiB, PSS {mib(s['pss'])} MiB, anonymous {mib(s['anon'])} MiB, "
          f"peak (VmHWM) {mib(s['hwm'])} MiB; {len(s['libs'])} shared libraries")
    print("| mapping | RSS MiB | PSS MiB | anon MiB |\n|---|---|---|---|")
    for path, m in sorted(s["per"].items(), key=lambda kv: -kv[1]["Pss"])[:top]:
        print(f"| {path} | {mib(m['Rss'])} | {mib(m['Pss'])} | {mib(m['Anonymous'])} |")


def installed_size(binary, work):
    copy = os.path.join(work, "aubade.installed")
    shutil.copy(binary, copy)
    subprocess.run(["strip", "--strip-unneeded", "--remove-section=.comment", "--remove-section=.note", copy], check=True)
    return os.path.getsize(copy)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--aubade", default=os.environ.get("AUBADE_BIN", ".build/release/aubade"))
    args = ap.parse_args()
    aubade = os.path.abspath(args.aubade)
    if not os.access(aubade, os.X_OK):
        raise SystemExit(f"{aubade} is not built; run `make bench` (it builds the release binary first).")
    for tool in ("icecast2", "ezstream", "sox", "lame", "mpg123", "strip"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing; `make bench` installs it (deploy/install-deps.sh test).")
    seconds = int(os.environ.get("BENCH_FOOTPRINT_SECONDS", "15"))
    idle_s = float(os.environ.get("BENCH_FOOTPRINT_IDLE", "10"))
    cli_runs = int(os.environ.get("BENCH_CLI_RUNS", "20"))
    top = int(os.environ.get("BENCH_TOP_MAPPINGS", "8"))
    radio_bench.become_subreaper()
    snaps, rows = {}, []
    with tempfile.TemporaryDirectory(prefix="aubade-footprint-") as work:
        os.chmod(work, 0o755)
        built = os.path.getsize(aubade)
        installed = installed_size(aubade, work)

        log("aubade --help, aubade version (read at their exit) …")
        snaps["aubade --help"], _ = at_exit([aubade, "--help"])
        db, cfg = os.path.join(work, "cli.sqlite"), os.path.join(work, "cli.toml")
        with open(cfg, "w") as f:
            f.write('[clock]\ntime_zone = "UTC"\n')
        snaps["aubade version"], _ = at_exit([aubade, "version", "--db", db, "--config", cfg])
        version_ms = cli_times([aubade, "version", "--db", db, "--config", cfg], cli_runs)
        help_ms = cli_times([aubade, "--help"], cli_runs)

        media = os.path.join(work, "media")
        os.mkdir(media)
        os.chmod(media, 0o755)
        log("making test media (sox + lame) and the local station …")
        mp3s = radio_bench.make_media(media)
        station_dir = os.path.join(work, "icecast")
        os.mkdir(station_dir)
        station = radio_bench.Station(station_dir, mp3s)
        broker = None
        try:
            fifo = os.path.join(work, "sink.fifo")
            os.mkfifo(fifo, 0o600)
            found = radio_bench.players(aubade, [], work, fifo, seconds)
            radio_bench.run_quiet([aubade, "settings", "get", "--db", os.path.join(work, "aubade.sqlite")])
            plays = {}
            for name in ("aubade", "mpg123"):
                log(f"{name} plays {seconds} s of {station.url} …")
                plays[name] = sampled(found[name](station.url), work, seconds, fifo)
                radio_bench.pause()
            snaps["aubade play"] = plays["aubade"][0]
            snaps["mpg123 (same play)"] = plays["mpg123"][0]

            log(f"the idle daemon, HTTP and MQTT on, {idle_s:.0f} s …")
            card = daemon_bench.Card(os.path.join(work, "card.fifo"))
            broker = daemon_bench.start_broker(work)
            ddb, dcfg = daemon_bench.clock_dir(work, "idle", card.path)
            daemon_bench.cli(aubade, ddb, dcfg, "alarm", "add", "--name", "A", "--time", "07:00", "--days", "daily",
                             "--source", "tone")
            daemon_bench.cli(aubade, ddb, dcfg, "station", "add", "--name", "Bench FM", "--url", station.url)
            daemon_bench.cli(aubade, ddb, dcfg, "alarm", "add", "--name", "B", "--time", "07:30", "--days", "mon-fri",
                             "--source", "Bench FM")
            extra = ["--mqtt", broker[1]] if broker else []
            d = daemon_bench.Daemon(aubade, ddb, dcfg, daemon_bench.alarm_instant() - datetime.timedelta(hours=3),
                                    http="127.0.0.1:0", extra=extra)
            try:
                d.wait("ready", timeout=20)
                d.wait("http", timeout=10)
                if broker:
                    port = broker[1].rsplit(":", 1)[1]
                    deadline = time.monotonic() + 30
                    while time.monotonic() < deadline and subprocess.run(
                            ["mosquitto_sub", "-h", "127.0.0.1", "-p", port, "-t", "aubade/+/availability", "-C", "1",
                             "-W", "2"], capture_output=True, text=True).stdout.strip() != "online":
                        pass
                time.sleep(idle_s)
                snaps["idle daemon (HTTP + MQTT)"] = snapshot(d.proc.pid)
                status_ms = cli_times([aubade, "status", "--json", "--db", ddb, "--config", dcfg], cli_runs)
            finally:
                d.stop()
                card.close()
        finally:
            station.stop()
            if broker:
                broker[0].kill()
                broker[0].wait()

    for name, s in snaps.items():
        print_process(name, s, top)

    a_play, a_max, a_audio = plays["aubade"]
    m_play, m_max, m_audio = plays["mpg123"]
    daemon = snaps["idle daemon (HTTP + MQTT)"]
    print("\n| process | VmRSS MiB | PSS MiB | anon MiB | peak RSS MiB | shared libraries |\n|---|---|---|---|---|---|")
    for name, s in snaps.items():
        peak = {"aubade play": a_max, "mpg123 (same play)": m_max}.get(name, s["hwm"])
        print(f"| {name} | {mib(s['rss'])} | {mib(s['pss'])} | {mib(s['anon'])} | {mib(peak)} | {len(s['libs'])} |")
    print(f"\naudio delivered: aubade {a_audio:.1f} s, mpg123 {m_audio:.1f} s (of {seconds} s)")
    print(f"binary: {built / MB:.1f} MiB as built ({aubade}), {installed / MB:.1f} MiB installed (stripped)")
    print(f"CLI exec -> answer (first byte / exit), median of {cli_runs}: `aubade version` {version_ms[0]:.1f} / "
          f"{version_ms[1]:.1f} ms; `aubade --help` {help_ms[0]:.1f} / {help_ms[1]:.1f} ms; `aubade status --json` "
          f"(daemon running) {status_ms[0]:.1f} / {status_ms[1]:.1f} ms")
    print("libraries of the idle daemon: " + ", ".join(os.path.basename(p) for p in daemon["libs"]))

    cli_best = min(version_ms[1], status_ms[1])
    rows += [
        ("`aubade play` peak RSS (ru_maxrss)", f"{a_max / 1024:.1f} MiB (mpg123 {m_max / 1024:.1f})", "<= 25 MB",
         a_max / 1024 <= 25),
        ("idle daemon, HTTP + MQTT: VmRSS", f"{mib(daemon['rss'])} MiB", "<= 35 MB", daemon["rss"] / 1024 <= 35),
        ("idle daemon, HTTP + MQTT: PSS", f"{mib(daemon['pss'])} MiB", "<= 20 MB", daemon["pss"] / 1024 <= 20),
        ("idle daemon, HTTP + MQTT: anonymous", f"{mib(daemon['anon'])} MiB", "reported", True),
        ("CLI exec -> answer (`version` / `status --json`, to exit)", f"{version_ms[1]:.1f} / {status_ms[1]:.1f} ms",
         "<= 20 ms", cli_best <= 20),
        ("shared libraries mapped (`--help` / daemon)",
         f"{len(snaps['aubade --help']['libs'])} / {len(daemon['libs'])}", "reported", True),
        ("binary as built", f"{built / MB:.1f} MiB", "reported", True),
        ("binary installed (stripped)", f"{installed / MB:.1f} MiB", "<= 30 MB", installed / MB <= 30),
    ]
    print_table(rows, "Footprint (issue 25)")


if __name__ == "__main__":
    main()
