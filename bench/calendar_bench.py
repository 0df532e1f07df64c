#!/usr/bin/env python3
"""Aubade's calendar benchmark (not a test): how fast a station's schedule imports.

  import 5,000     `aubade program import big.ics` on a fresh database: 5,000 VEVENTs (a tenth of them weekly
                   with an RRULE, an EXDATE and folded, escaped text) read by libical, expanded, resolved
                   through ZoneCalendar and committed in one transaction; spawn -> exit
  re-import        the same file again: every programme found by its UID and kept (ids, reservations), none
                   added — the whole replace path
  unchanged        a third time: the bytes are those imported, so nothing is written
  now              `aubade program now` over the 5,000 programmes
  version          `aubade version`: the process's own start-up and exit, for scale

Target (issue 13): the 5,000-event import "in well under a second" — here under 0.5 s. The test suite only
checks that such a file imports completely (AubadeCalendarTests.fiveThousandEventsImportCompletely): wall-clock
time on a busy CI machine says nothing about the code, so the figure is judged here, on a quiet one. Each
measure is the median of BENCH_RUNS (5) runs, each on a fresh temporary database.

Usage: bench/calendar_bench.py --aubade PATH   (env: BENCH_RUNS)
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

EVENTS = 5000
TARGET_SECONDS = 0.5


def calendar_text():
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Aubade bench//Big station//EN"]
    for i in range(EVENTS):
        day = 1 + (i // 24) % 28
        month = 3 + (i // (24 * 28)) % 9
        hour = i % 24
        stamp = f"2027{month:02d}{day:02d}T{hour:02d}0000"
        lines += ["BEGIN:VEVENT", f"UID:slot-{i}@bench.aubade", f"DTSTART;TZID=Europe/Berlin:{stamp}", "DURATION:PT50M",
                  f"SUMMARY:Programme {i}\\, part of a long day", "DESCRIPTION:A description long enough to be folded over "
                  "two content lines\\; with escaped text\\nand a second", " line of its own."]
        if i % 10 == 0:
            lines += ["RRULE:FREQ=WEEKLY;COUNT=20", f"EXDATE;TZID=Europe/Berlin:2027{month:02d}{day:02d}T{hour:02d}0000"]
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "\r\n".join(lines) + "\r\n"


def timed(args, env):
    """Wall seconds (spawn -> exit), CPU seconds (user + sys of the child, from wait4) and stdout."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(args, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.monotonic() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if child.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({child.returncode}): {stderr.strip()}")
    return (elapsed, usage.ru_utime + usage.ru_stime), stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--aubade", required=True)
    opts = ap.parse_args()
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    env = dict(os.environ, AUBADE_CONFIG="")
    figures = {"import 5,000": [], "re-import": [], "unchanged": [], "now": [], "version (start-up)": []}
    with tempfile.TemporaryDirectory(prefix="aubade-calendar-bench-") as tmp:
        path = os.path.join(tmp, "big.ics")
        with open(path, "w") as f:
            f.write(calendar_text())
        for run in range(runs):
            db = os.path.join(tmp, f"run{run}.sqlite")
            base = [opts.aubade]
            common = ["--db", db]
            timed(base + ["station", "add", "--name", "FIP", "--url", "http://radio.example/fip"] + common, env)
            imp = base + ["program", "import", path, "--station", "FIP", "--now", "2027-03-01T00:00:00Z"] + common
            seconds, out = timed(imp, env)
            if f"Imported {EVENTS} programmes" not in out:
                sys.exit(f"the import did not take every event: {out.strip()}")
            figures["import 5,000"].append(seconds)
            # The same bytes but expanded from another day: every row is found again and rewritten.
            seconds, out = timed(imp[:-2 - 2] + ["--now", "2027-03-02T00:00:00Z"] + common, env)
            figures["re-import"].append(seconds)
            seconds, out = timed(imp[:-2 - 2] + ["--now", "2027-03-02T00:00:00Z"] + common, env)
            if "has not changed" not in out:
                sys.exit(f"the third import wrote something: {out.strip()}")
            figures["unchanged"].append(seconds)
            seconds, _ = timed(base + ["program", "now", "--now", "2027-04-01T12:30:00Z"] + common, env)
            figures["now"].append(seconds)
            seconds, _ = timed(base + ["version"], env)
            figures["version (start-up)"].append(seconds)
            print(f"run {run + 1}/{runs}: " + ", ".join(f"{k} {v[-1][0]:.3f} s" for k, v in figures.items()), file=sys.stderr)

    size = len(calendar_text().encode()) / 1024
    load = os.getloadavg()[0]
    print(f"\nCalendar import, {EVENTS} VEVENTs ({size:.0f} KiB; {EVENTS // 10} weekly with COUNT=20 and an EXDATE), "
          f"the command spawn to exit (wall) and its CPU (user + sys), median of {runs} (range); load average {load:.1f}:")
    print("\n| measure | wall s | CPU s | target (wall) | met |")
    print("|---|---|---|---|---|")
    for name, values in figures.items():
        wall = [v[0] for v in values]
        cpu = [v[1] for v in values]
        median = statistics.median(wall)
        target = f"< {TARGET_SECONDS}" if name == "import 5,000" else "-"
        met = ("PASS" if median < TARGET_SECONDS else "MISS") if name == "import 5,000" else "-"
        print(f"| {name} | {median:.3f} ({min(wall):.3f}–{max(wall):.3f}) | {statistics.median(cpu):.3f} "
              f"({min(cpu):.3f}–{max(cpu):.3f}) | {target} | {met} |")


if __name__ == "__main__":
    main()
