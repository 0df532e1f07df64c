#!/usr/bin/env python3
"""The second waker's cost (R35): a benchmark, not a test. `make bench` runs it after the daemon's.

  idle      resident memory (VmRSS) and wake-ups (context switches) of `aubade-waker` armed for an alarm hours
            ahead, beside an idle daemon, over BENCH_IDLE_SECONDS (60); its CPU seconds
  ringing   its resident memory while it rings the tone into alsa-lib's `file` plugin (paced like a card), and
            its peak (VmHWM), with the daemon gone (the alarm's handoff files left behind)
  binary    size, and whether the Swift runtime is linked in statically (no libswift*.so in `ldd`)

Targets: idle wake-ups only at the alarm (none in a minute with no systemd watchdog; with one, one per half
WatchdogSec), idle RSS <= 8 MiB (most of it code pages: the static Swift runtime's and libc's, libstdc++'s and
alsa-lib's, which are shared with other processes; its own anonymous memory is about half a MiB), no shared
Swift runtime.

Usage: waker_bench.py --aubade .build/release/aubade --waker .build/release/aubade-waker
"""
import argparse
import datetime
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

from daemon_bench import proc_cpu_and_switches, status_field  # the same /proc readers as the daemon's bench

from table import print_table, terminate


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Events:
    """A process printing one JSON object per line; `wait` for one by name."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.events = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            try:
                e = json.loads(line)
            except ValueError:
                continue
            with self.lock:
                self.events.append(e)

    def wait(self, name, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for e in self.events:
                    if e.get("event") == name:
                        return e
            time.sleep(0.05)
        raise SystemExit(f"waker_bench: no '{name}' event within {timeout} s from {self.proc.args[0]}")

    def stop(self):
        terminate(self.proc)


def rollup(pid):
    """Private (this process only), shared and anonymous memory in KiB, from /proc/<pid>/smaps_rollup."""
    out = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[0].endswith(":") and parts[1].isdigit():
                out[parts[0][:-1]] = int(parts[1])
    return (out.get("Private_Clean", 0) + out.get("Private_Dirty", 0),
            out.get("Shared_Clean", 0) + out.get("Shared_Dirty", 0), out.get("Anonymous", 0))


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--aubade", required=True)
    ap.add_argument("--waker", required=True)
    args = ap.parse_args()
    seconds = float(os.environ.get("BENCH_IDLE_SECONDS", "60"))
    env = dict(os.environ, AUBADE_CONFIG="")
    env.pop("NOTIFY_SOCKET", None)
    env.pop("WATCHDOG_USEC", None)
    rows = []
    with tempfile.TemporaryDirectory(prefix="waker-bench-") as root:
        db, config, card = (os.path.join(root, n) for n in ("aubade.sqlite", "aubade.toml", "card.raw"))
        with open(config, "w") as f:
            f.write(f"""[audio]\ndevice = "file:'{card}',raw"\n[clock]\ntime_zone = "UTC"\n"""
                    """[buttons]\nsnooze = ""\nstop = ""\nplay_pause = ""\nsleep = ""\n""")
        subprocess.run([args.aubade, "alarm", "add", "--name", "Bench", "--time", "08:00", "--days", "daily",
                        "--source", "tone", "--duration", "5m", "--db", db, "--config", config],
                       check=True, capture_output=True, env=env)
        alarm = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)).replace(
            hour=8, minute=0, second=0, microsecond=0)

        # Idle: armed three hours ahead, beside the idle daemon.
        start = iso(alarm - datetime.timedelta(hours=3))
        daemon = Events([args.aubade, "run", "--json", "--db", db, "--config", config, "--fake-time", start, "--http", "off"])
        daemon.wait("ready")
        spawned = time.monotonic()
        waker = Events([args.waker, "--json", "--db", db, "--fake-time", start])
        waker.wait("armed")
        armed_ms = (time.monotonic() - spawned) * 1000
        time.sleep(2)
        pid = waker.proc.pid
        cpu0, sw0 = proc_cpu_and_switches(pid)
        threads = len(os.listdir(f"/proc/{pid}/task"))
        log(f"waker idle for {seconds:.0f} s ...")
        time.sleep(seconds)
        cpu1, sw1 = proc_cpu_and_switches(pid)
        idle_rss = status_field(pid, "VmRSS")
        private, shared, anonymous = rollup(pid)
        waker.stop()
        daemon.stop()
        rate = (sw1 - sw0) / seconds
        rows.append(("start -> armed (spawn to its `armed` event)", f"{armed_ms:.0f} ms", "reported", True))
        rows.append((f"idle resident memory (VmRSS), {threads} thread(s)", f"{idle_rss / 1024:.2f} MiB", "<= 8 MiB",
                     idle_rss <= 8 * 1024))
        rows.append(("  of which its own (private) / shared with other processes / anonymous",
                     f"{private / 1024:.2f} / {shared / 1024:.2f} / {anonymous / 1024:.2f} MiB", "reported", True))
        rows.append((f"idle wake-ups over {seconds:.0f} s (context switches)", f"{sw1 - sw0} ({rate:.3f} per s)",
                     "0 (no watchdog)", sw1 - sw0 == 0))
        rows.append((f"idle CPU over {seconds:.0f} s", f"{cpu1 - cpu0:.3f} s", "~ 0", cpu1 - cpu0 < 0.01))

        # Ringing: the daemon gone, the waker started just before the alarm with a 1 s grace.
        waker = Events([args.waker, "--json", "--db", db, "--grace", "1s",
                        "--fake-time", iso(alarm - datetime.timedelta(seconds=2))])
        waker.wait("device", timeout=30)
        time.sleep(5)
        pid = waker.proc.pid
        ring_rss, ring_hwm = status_field(pid, "VmRSS"), status_field(pid, "VmHWM")
        cpu0, _ = proc_cpu_and_switches(pid)
        time.sleep(5)
        cpu1, _ = proc_cpu_and_switches(pid)
        waker.stop()
        rows.append(("ringing resident memory (VmRSS) / peak (VmHWM)", f"{ring_rss / 1024:.2f} / {ring_hwm / 1024:.2f} MiB",
                     "reported", True))
        rows.append(("ringing CPU (tone synthesis + file plugin)", f"{(cpu1 - cpu0) / 5 * 100:.1f} % of a core", "reported", True))

    size = os.path.getsize(args.waker)
    libs = subprocess.run(["ldd", args.waker], capture_output=True, text=True).stdout
    swift = [line.split()[0] for line in libs.splitlines() if "libswift" in line or "Foundation" in line]
    rows.append(("binary size", f"{size / 1e6:.1f} MB", "reported", True))
    rows.append(("Swift runtime linked statically (no libswift*.so, no Foundation)", "yes" if not swift else ", ".join(swift),
                 "yes", not swift))
    rows.append(("shared libraries", ", ".join(sorted(line.split()[0] for line in libs.splitlines() if "=>" in line)),
                 "reported", True))

    print_table(rows, "The second waker (bench/waker_bench.py)")


if __name__ == "__main__":
    main()
