#!/usr/bin/env python3
"""Aubade's face benchmark (not a test, issue 38): what the clock face costs beside the clock, per face, against
one release clock (`aubade run` on a fake wall clock, its web on 127.0.0.1) with the second waker beside it.

The faces, each in turn, each in a session of its own (as `nobody` when run as root: cage refuses root):
  chromium          the packaged launcher (deploy/kiosk/aubade-kiosk) with no desktop: cage on wlroots' headless
                    backend with the pixman renderer (no GPU here), Chromium on Wayland with the launcher's flags
                    (and, as in Tests/Browser/test_sunrise.py's CageTests, --no-sandbox: no user namespaces here)
  chromium-lowend   the same with flags for a small board: one renderer, the GPU process in the browser's, no
                    zygote, small caches, V8's lite mode, no background services
  cog               WPE WebKit through Debian's cog on the same launcher and cage (`cog -P wl`)
  cog-tuned         the same with the JIT off (JSC_useJIT=0), the page cache, the offline cache, WebGL, media and
                    smooth scrolling off, and cog's --doc-viewer cache model (the smallest WebKit keeps)
  aubade-face       the native face (--face PATH): SDL2 on its offscreen driver, no compositor, drawing with SDL's
                    software renderer as it does everywhere (it asks for no OpenGL: on the offscreen driver OpenGL
                    is Mesa's llvmpipe, which maps libLLVM, ~54 MiB of PSS)

Per face:
  PSS               the sum of Pss (/proc/PID/smaps_rollup) over every process of the face's session, the
                    compositor included (and shown apart), read after BENCH_SETTLE (20) s of the face idle
  appliance         clock + waker + face, read at the same moment
  first frame       spawn -> the first grim shot (polled as fast as grim goes, the shot's end counted) showing
                    the face's live time: the dark daytime face with its large light digits (and, reported, the
                    first shot painted at all: more than a blank window on cage's black, e.g. the page's --:--
                    placeholder); native: spawn -> its first frame line with "live": true on its --json output
                    (and its first frame line)
  CPU               (utime + stime + cutime + cstime) over the session, as % of one core, over BENCH_SECONDS (60)
                    idle (daytime, nothing playing), then over BENCH_SECONDS in a sunrise (an alarm 10 minutes
                    ahead with a 20-minute sunrise is added: the clock begins it half-way, a step every 6 s)

Targets (issue 38): the appliance (clock + waker + face) <= 150 MiB PSS with the face idle; first frame <= 2 s;
the face idle <= 2 % of a core. Every face is measured and gated alike; Chromium and cog stand as the figures to
beat. A face that cannot run here is reported with a "skipped: ..." line.

Usage: bench/face_bench.py --aubade PATH [--waker PATH] [--face PATH]
       (env: BENCH_SECONDS, BENCH_SETTLE, BENCH_LIVE_TIMEOUT (60 s; a face that painted but showed no live time
       by then is measured all the same, its first frame a MISS), BENCH_FACES=chromium,cog,... to run some of them, BENCH_SHOTS=DIR
       to keep each browser's first frame as DIR/<face>-first-frame.png, AUBADE_FACE instead of --face)
"""
import argparse, datetime, json, os, pwd, shutil, struct, subprocess, sys, tempfile, threading, time, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "Tests", "Support"))
from table import print_table  # noqa: E402
from daemon_rig import DIE_WITH_US, DaemonClock, end_session, free_port, session_pids  # noqa: E402

LAUNCHER = os.path.join(ROOT, "deploy", "kiosk", "aubade-kiosk")
MiB = 1024
CLK_TCK = os.sysconf("SC_CLK_TCK")
FACES = ["chromium", "chromium-lowend", "cog", "cog-tuned", "aubade-face"]
# Chromium on a small board: one renderer process, the GPU's work in the browser process, no zygote, small disk
# and media caches, V8 without its optimising tiers' memory (lite mode), nothing running in the background.
CHROMIUM_LOWEND = ("--renderer-process-limit=1 --in-process-gpu --disable-gpu --no-zygote --disk-cache-size=1048576 "
                   "--media-cache-size=1048576 --js-flags=--lite-mode --disable-extensions --disable-sync "
                   "--disable-background-networking --disable-component-update --disable-default-apps "
                   "--disable-breakpad --disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication "
                   "--disable-site-isolation-trials --process-per-site")
COG_TUNED = ("--doc-viewer --enable-page-cache=false --enable-offline-web-application-cache=false "
             "--enable-dns-prefetching=false --enable-webgl=false --enable-media=false --enable-mediasource=false "
             "--enable-smooth-scrolling=false --enable-accelerated-2d-canvas=false")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- a session's processes

def stat_fields(pid):
    """/proc/PID/stat after the command's name: [state, ppid, pgrp, session, …]."""
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    return text[text.rindex(")") + 2:].split()


def comm(pid):
    with open(f"/proc/{pid}/comm") as f:
        return f.read().strip()


def pss(pid):
    """KiB of Pss from /proc/PID/smaps_rollup (0 for a process that has gone)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_ticks(pids):
    """utime + stime + cutime + cstime over `pids` (a child that ends moves its time into its parent's c*time)."""
    total = 0
    for pid in pids:
        try:
            f = stat_fields(pid)
            total += sum(int(v) for v in f[11:15])
        except (OSError, ValueError, IndexError):
            pass
    return total


def session_cpu(sid, seconds):
    """% of one core the session used over `seconds`."""
    before = cpu_ticks(session_pids(sid))
    time.sleep(seconds)
    after = cpu_ticks(session_pids(sid))
    return (after - before) / CLK_TCK / seconds * 100


# ---------------------------------------------------------------- screen shots (grim, PPM: no decoding)

def grim_ppm(runtime):
    """(width, height, RGB bytes) of cage's screen, or None."""
    done = subprocess.run(["grim", "-t", "ppm", "-"], env={"PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime,
                                                           "WAYLAND_DISPLAY": "wayland-0"}, capture_output=True)
    data = done.stdout
    if done.returncode != 0 or not data.startswith(b"P6"):
        return None
    fields, pos = [], 2
    while len(fields) < 3:  # width, height, maxval, separated by whitespace
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(int(data[start:pos]))
    return fields[0], fields[1], data[pos + 1:]


def classify(shot):
    """(painted, live) of a shot, sampled every 4th pixel of every 4th row. Painted: at least 200 samples stand
    away (by more than 24 in a channel) from both of the two most common colours — more than a blank window on
    cage's black. Live: the face's time is drawn — the daytime face is dark (its most common colour under 64 in
    every channel) with at least 400 samples of the large light digits (every channel 200 or more); the page's
    placeholder before its first state (--:--) has under half that."""
    width, height, rgb = shot
    counts = {}
    for y in range(0, height, 4):
        row = rgb[y * width * 3:(y + 1) * width * 3]
        for x in range(0, width * 3, 12):
            s = bytes(row[x:x + 3])
            counts[s] = counts.get(s, 0) + 1
    top = sorted(counts, key=counts.get, reverse=True)[:2]
    away = sum(n for s, n in counts.items() if all(max(abs(a - b) for a, b in zip(s, t)) > 24 for t in top))
    light = sum(n for s, n in counts.items() if min(s) >= 200)
    return away >= 200, away >= 200 and max(top[0]) < 64 and light >= 400


def write_png(path, shot):
    """The shot as an 8-bit RGB PNG (for BENCH_SHOTS: what the first frame showed)."""
    width, height, rgb = shot
    raw = b"".join(b"\0" + rgb[y * width * 3:(y + 1) * width * 3] for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# ---------------------------------------------------------------- the faces

class Face:
    """A face in a session of its own; `kind` one of FACES."""

    def __init__(self, kind, url, port, native, folder):
        self.kind, self.folder = kind, folder
        self.runtime = os.path.join(folder, "run")
        home = os.path.join(folder, "home")
        os.makedirs(self.runtime, mode=0o700)
        os.makedirs(home)
        os.chmod(folder, 0o755)
        drop = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("nobody")
            for d in (self.runtime, home):
                os.chown(d, user.pw_uid, user.pw_gid)
            drop = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--"]
        env = {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": self.runtime}
        self.frames = []  # native: (mono, event)
        if kind.startswith("aubade-face"):
            env["SDL_VIDEODRIVER"] = "offscreen"
            argv = [*drop, *DIE_WITH_US, native, "--port", str(port), "--size", "800x480", "--json"]
        else:
            env.update({"WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
                        "AUBADE_KIOSK_BROWSER": self.browser(kind, home)})
            argv = [*drop, *DIE_WITH_US, LAUNCHER, url]
        self.log = open(os.path.join(folder, "face.log"), "w")
        self.spawned = time.monotonic()
        native_face = kind.startswith("aubade-face")
        self.proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE if native_face else self.log,
                                     stderr=self.log, start_new_session=True, text=True)
        if native_face:
            threading.Thread(target=self._read, daemon=True).start()

    def browser(self, kind, home):
        """The command the launcher runs as its browser (AUBADE_KIOSK_BROWSER): Chromium as in CageTests, or cog
        with the page the launcher names in --app=URL."""
        path = os.path.join(self.folder, "browser")
        if kind.startswith("chromium"):
            extra = CHROMIUM_LOWEND if kind == "chromium-lowend" else ""
            script = f'exec chromium --no-sandbox --test-type --ozone-platform=wayland {extra} "$@"\n'
        else:
            tuned = "export JSC_useJIT=0\n" if kind == "cog-tuned" else ""
            flags = COG_TUNED if kind == "cog-tuned" else ""
            script = (f'url=\nfor a in "$@"; do case "$a" in --app=*) url=${{a#--app=}} ;; esac; done\n{tuned}'
                      f'exec cog -P wl {flags} "$url"\n')
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + script)
        os.chmod(path, 0o755)
        return path

    def _read(self):
        for line in self.proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") == "frame":
                self.frames.append((time.monotonic(), event))

    def first_frame(self, timeout=60):
        """Seconds from spawn to (the first frame painted, the first frame with the live time); None for what did
        not come within `timeout`. Native: its first frame line, and its first with "live": true. Browsers: the
        end of the first grim shot that showed it (grim takes about 50 ms a shot here)."""
        deadline = self.spawned + timeout
        painted, shot = None, None
        while time.monotonic() < deadline and self.proc.poll() is None:
            if self.kind.startswith("aubade-face"):
                if self.frames and painted is None:
                    painted = self.frames[0][0] - self.spawned
                live = [mono for mono, e in self.frames if e.get("live")]
                if live:
                    return painted, live[0] - self.spawned
                time.sleep(0.02)
                continue
            if not os.path.exists(os.path.join(self.runtime, "wayland-0")):
                time.sleep(0.02)
                continue
            shot = grim_ppm(self.runtime) or shot
            if not shot:
                continue
            now = time.monotonic() - self.spawned
            paint, live = classify(shot)
            if paint and painted is None:
                painted = now
                self.keep(shot, "first-paint")
            if live:
                self.size = f"{shot[0]}x{shot[1]}"
                self.keep(shot, "first-frame")
                return painted, now
        if shot:
            self.keep(shot, "last-before-giving-up")
        return painted, None

    def keep(self, shot, what):
        if os.environ.get("BENCH_SHOTS"):
            os.makedirs(os.environ["BENCH_SHOTS"], exist_ok=True)
            write_png(os.path.join(os.environ["BENCH_SHOTS"], f"{self.kind}-{what}.png"), shot)

    def memory(self):
        """KiB of PSS: (the whole session, its compositor, the number of processes)."""
        pids = session_pids(self.proc.pid)
        per = {pid: pss(pid) for pid in pids}
        compositor = sum(v for pid, v in per.items() if self._comm(pid) == "cage")
        return sum(per.values()), compositor, len(pids)

    @staticmethod
    def _comm(pid):
        try:
            return comm(pid)
        except OSError:
            return ""

    def stop(self):
        """Everything in the face's session, gone."""
        end_session(self.proc)
        self.log.close()


def missing(kind, native):
    """Why this face cannot run here, or None."""
    tools = {"chromium": ["cage", "grim", "chromium", "setpriv"], "cog": ["cage", "grim", "cog", "setpriv"]}
    if kind.startswith("aubade-face"):
        if not native:
            return "no --face PATH given (the native face, aubade-face)"
        return None if os.access(native, os.X_OK) else f"{native} is not an executable"
    for tool in tools[kind.split("-")[0]]:
        if not shutil.which(tool):
            return f"{tool} is missing (make deps-test installs it)"
    return None


def measure(kind, clock, waker, native, seconds, settle, root):
    folder = tempfile.mkdtemp(prefix=f"{kind}-", dir=root)
    log(f"{kind}: starting …")
    face = Face(kind, f"http://127.0.0.1:{clock.port}/kiosk", clock.port, native, folder)
    try:
        painted, first = face.first_frame(float(os.environ.get("BENCH_LIVE_TIMEOUT", "60")))
        if painted is None:
            with open(os.path.join(folder, "face.log")) as f:
                tail = f.read()
            how = "no frame within the wait" if face.proc.poll() is None else \
                f"it exited ({face.proc.returncode}) before its first frame"
            return {"kind": kind, "skipped": f"{how} (its log ends: {tail.strip()[-300:]!r})"}
        if first is None:
            log(f"{kind}: painted after {painted:.2f} s but no frame with the live time: measured all the same")
        else:
            log(f"{kind}: first frame after {first:.2f} s")
        log(f"{kind}: settling {settle:.0f} s, then {seconds:.0f} s idle …")
        time.sleep(settle)
        total, compositor, count = face.memory()
        clock_pss, waker_pss = pss(clock.process.pid), pss(waker.pid)
        idle = session_cpu(face.proc.pid, seconds)
        # A sunrise: an alarm 10 minutes ahead of the clock's time with a 20-minute sunrise begins half-way.
        now = clock.cli_json("status")
        wall = datetime.datetime.fromtimestamp(clock_time(clock), datetime.timezone.utc)
        at = (wall + datetime.timedelta(minutes=10)).strftime("%H:%M")
        mark = len(clock.events)
        clock.cli("alarm", "add", "--name", "Sunrise", "--time", at, "--days", "daily", "--source", "tone",
                  "--sunrise", "20m")
        began = clock.wait_for("sunrise", lambda e: e.get("state") == "began", after=mark)
        time.sleep(3)
        log(f"{kind}: {seconds:.0f} s in a sunrise ({now['face'].get('state')} -> sunrise) …")
        sunrise = session_cpu(face.proc.pid, seconds)
        sunrise_total, _, _ = face.memory()
        clock.cli("alarm", "rm", str(began["alarm"]))
        clock.wait_for("sunrise", lambda e: e.get("state") != "began", after=mark)
        return {"kind": kind, "first": first, "painted": painted, "pss": total, "compositor": compositor, "count": count,
                "clock": clock_pss, "waker": waker_pss, "idle": idle, "sunrise": sunrise,
                "sunrise_pss": sunrise_total, "size": getattr(face, "size", "800x480 (offscreen)")}
    finally:
        face.stop()


def clock_time(clock):
    """The clock's wall time now, from its `ready` line and our monotonic clock since then."""
    return clock.ready["t"] + (time.monotonic() - clock.ready_mono)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--aubade", required=True)
    ap.add_argument("--waker", help="aubade-waker (default: beside --aubade)")
    ap.add_argument("--face", default=os.environ.get("AUBADE_FACE"), help="the native face, aubade-face")
    args = ap.parse_args()
    waker_bin = args.waker or os.path.join(os.path.dirname(os.path.abspath(args.aubade)), "aubade-waker")
    seconds = float(os.environ.get("BENCH_SECONDS", "60"))
    settle = float(os.environ.get("BENCH_SETTLE", "20"))
    wanted = [k for k in os.environ.get("BENCH_FACES", ",".join(FACES)).split(",") if k]
    root = tempfile.mkdtemp(prefix="face-bench-")
    os.chmod(root, 0o755)
    clock = DaemonClock(os.path.abspath(args.aubade), prefix="face-bench-clock-")
    waker = None
    results = []
    try:
        # Daytime, nothing due for hours: noon tomorrow (UTC).
        start = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)).replace(
            hour=12, minute=0, second=0, microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")
        clock.start(port=free_port(), fake_time=start)
        clock.ready, clock.ready_mono = clock.wait_for("ready"), time.monotonic()
        waker = subprocess.Popen([*DIE_WITH_US, waker_bin, "--json", "--db", str(clock.db), "--fake-time", start],
                                 env=dict(clock.env), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        log(f"clock on 127.0.0.1:{clock.port} (fake time {start}), waker pid {waker.pid}")
        for kind in wanted:
            why = missing(kind, args.face)
            if why:
                print(f"{kind}: skipped: {why}", flush=True)
                results.append({"kind": kind, "skipped": why})
                continue
            result = measure(kind, clock, waker, args.face, seconds, settle, root)
            if "skipped" in result:
                print(f"{kind}: skipped: {result['skipped']}", flush=True)
            results.append(result)
    finally:
        if waker:
            waker.terminate()
            waker.wait()
        clock.close()
        shutil.rmtree(root, ignore_errors=True)

    for r in results:
        if "skipped" in r:
            continue
        appliance = (r["clock"] + r["waker"] + r["pss"]) / MiB
        rows = [
            (f"face PSS, {r['count']} processes, idle", f"{r['pss'] / MiB:.1f} MiB", "reported", True),
            ("  of which the compositor (cage)", f"{r['compositor'] / MiB:.1f} MiB", "reported", True),
            ("  in a sunrise", f"{r['sunrise_pss'] / MiB:.1f} MiB", "reported", True),
            ("clock + waker beside it", f"{r['clock'] / MiB:.1f} + {r['waker'] / MiB:.1f} MiB", "reported", True),
            ("appliance PSS (clock + waker + face), face idle", f"{appliance:.1f} MiB", "<= 150 MiB", appliance <= 150),
            ("first frame painted after start", f"{r['painted']:.2f} s", "reported", True),
            (f"first frame with the live time after start ({r['size']})",
             "none" if r["first"] is None else f"{r['first']:.2f} s", "<= 2 s", r["first"] is not None and r["first"] <= 2),
            (f"face CPU idle over {seconds:.0f} s", f"{r['idle']:.2f} % of a core", "<= 2 %", r["idle"] <= 2),
            (f"face CPU in a sunrise over {seconds:.0f} s", f"{r['sunrise']:.2f} % of a core", "reported", True),
        ]
        print_table(rows, f"The face: {r['kind']} (bench/face_bench.py)")

    print("\nface | PSS MiB (cage) | appliance MiB | first paint / live frame s | idle CPU % | sunrise CPU %")
    print("-----|----------------|---------------|---------------|------------|--------------")
    for r in results:
        if "skipped" in r:
            print(f"{r['kind']} | skipped: {r['skipped'][:100]} | | | |")
            continue
        appliance = (r["clock"] + r["waker"] + r["pss"]) / MiB
        print(f"{r['kind']} | {r['pss'] / MiB:.1f} ({r['compositor'] / MiB:.1f}) | {appliance:.1f} | "
              f"{r['painted']:.2f} / {'none' if r['first'] is None else format(r['first'], '.2f')} | "
              f"{r['idle']:.2f} | {r['sunrise']:.2f}")


if __name__ == "__main__":
    main()
