#!/usr/bin/python3
"""Measures a captured 16-bit WAV (first channel) and prints one JSON object:

  onset_s / end_s   first / last sample louder than -40 dBFS, in seconds from the start of the file
  active_s          total time of 10 ms windows louder than -45 dBFS
  bursts            runs of such windows separated by at least 50 ms of quiet (the classic tone's beeps)
  longest_gap_ms    the longest quiet stretch between onset and end (a dropout in a stream)
  level_db          RMS level in dBFS of the windows within 6 dB of the loudest one (the sound's plateau,
                    so gaps and fades do not lower it)
  peak_db           the largest sample in dBFS
  freq_hz           the fundamental from rising zero crossings (with 1 % hysteresis) inside active runs: exact
                    for a sine, and for the classic tone, whose octave does not add crossings
Python's standard library only: the guest uses the host's /usr/bin/python3.
"""
import array
import json
import math
import sys
import wave

WINDOW_S = 0.01
ACTIVE_DB = -45.0
ONSET_LEVEL = 10 ** (-40 / 20) * 32768


def db(x):
    return 20 * math.log10(x) if x > 0 else -120.0


def measure(path, from_s=0.0):
    with wave.open(path, "rb") as w:
        rate, channels, width = w.getframerate(), w.getnchannels(), w.getsampwidth()
        if width != 2:
            raise SystemExit(f"{path}: {8 * width}-bit samples; wavstat reads 16-bit only")
        samples = array.array("h", w.readframes(w.getnframes()))
    skip = int(from_s * rate)
    if sys.byteorder != "little":
        samples.byteswap()
    x = samples[0::channels]
    out = {"seconds": round(len(x) / rate, 3), "rate": rate}
    first = next((i for i, v in enumerate(x) if i >= skip and abs(v) > ONSET_LEVEL), None)
    if first is None:
        out.update(onset_s=None, end_s=None, active_s=0, bursts=0, longest_gap_ms=0, level_db=-120.0,
                   peak_db=db(max((abs(v) for v in x), default=0) / 32768), freq_hz=0)
        return out
    last = next(i for i in range(len(x) - 1, first - 1, -1) if abs(x[i]) > ONSET_LEVEL)

    n = max(1, int(rate * WINDOW_S))
    windows = []  # (start index, rms)
    for start in range(skip - skip % n, len(x) - n + 1, n):
        seg = x[start:start + n]
        windows.append((start, math.sqrt(sum(v * v for v in seg) / n) / 32768))
    active = [db(r) > ACTIVE_DB for _, r in windows]

    runs, run_start = [], None
    for k, a in enumerate(active + [False]):
        if a and run_start is None:
            run_start = k
        elif not a and run_start is not None:
            runs.append([run_start, k])
            run_start = None
    merged = []  # bursts: runs joined across quiet gaps shorter than 50 ms
    for r in runs:
        if merged and (r[0] - merged[-1][1]) * WINDOW_S < 0.05:
            merged[-1][1] = r[1]
        else:
            merged.append(list(r))
    gaps = [(b[0] - a[1]) * WINDOW_S for a, b in zip(runs, runs[1:])]

    loudest = max(r for _, r in windows)
    plateau = [r for _, r in windows if db(r) >= db(loudest) - 6]
    level = math.sqrt(sum(r * r for r in plateau) / len(plateau))

    # Rising zero crossings with hysteresis: one counts only after the signal has been below -1 % of full
    # scale, so low-level noise around a dropout does not add crossings.
    hyst = 0.01 * 32768
    crossings, span = 0, 0.0
    for a, b in runs:
        lo, hi = windows[a][0], windows[b - 1][0] + n
        times, armed = [], False
        for i in range(lo + 1, hi):
            v = x[i]
            if v < -hyst:
                armed = True
            elif armed and x[i - 1] < 0 <= v:
                times.append(i - 1 + (-x[i - 1]) / (v - x[i - 1]))
                armed = False
        if len(times) >= 3:
            crossings += len(times) - 1
            span += times[-1] - times[0]
    out.update(onset_s=round(first / rate, 4), end_s=round(last / rate, 4),
               active_s=round(sum(active) * WINDOW_S, 3), bursts=len(merged),
               longest_gap_ms=round(max(gaps, default=0) * 1000), level_db=round(db(level), 2),
               peak_db=round(db(max(abs(v) for v in x) / 32768), 2),
               freq_hz=round(crossings / span * rate, 1) if span > 0 else 0)
    return out


if __name__ == "__main__":
    # wavstat.py WAV                    prints the JSON
    # wavstat.py WAV OUT.json [FROM_S]  writes the JSON there and prints shell assignments W_<name>=<value>;
    #                                   FROM_S: measure from that second on (times still from the file's start)
    result = measure(sys.argv[1], float(sys.argv[3]) if len(sys.argv) > 3 else 0.0)
    if len(sys.argv) > 2:
        import shlex
        with open(sys.argv[2], "w") as f:
            f.write(json.dumps(result) + "\n")
        for k, v in result.items():
            print(f"W_{k}={shlex.quote(str(v))}")
    else:
        print(json.dumps(result))
