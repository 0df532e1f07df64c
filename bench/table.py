"""The table every benchmark ends with: one row per measure — its name, the figure, the target, and whether the
target was met (PASS) or not (MISS; a benchmark reports, it does not fail) — and the one way the benchmarks stop
a process they started."""
import signal
import subprocess


def terminate(proc, timeout=10):
    """SIGTERM, then SIGKILL after `timeout` seconds; returns once `proc` has exited."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def print_table(rows, title=None):
    """`rows`: (measure, result, target, met) tuples; `title`, if given, is printed above the table."""
    width = max(len(r[0]) for r in rows)
    if title:
        print(f"\n{title}")
    print(f"\n{'measure'.ljust(width)} | result | target | met")
    print(f"{'-' * width}-|--------|--------|----")
    for name, value, target, ok in rows:
        print(f"{name.ljust(width)} | {value} | {target} | {'PASS' if ok else 'MISS'}")
