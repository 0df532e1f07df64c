"""The native face (`aubade-face`) against the real daemon: it draws the clock's live state, and a touch on it
reaches the clock as the kiosk page's does. The face runs on SDL's offscreen driver (no display here) and writes each
frame it presents as a BMP file; touches come through its `--input` seam, which feeds them to the same handling as a
finger on the screen."""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "Support"))
from daemon_rig import DIE_WITH_US, WATCHDOG, DaemonClock  # noqa: E402

AUBADE = os.environ.get("AUBADE_BIN", "")
FACE = os.environ.get("AUBADE_FACE_BIN", "")
ARTEFACTS = Path(os.environ.get("AUBADE_ARTEFACTS", tempfile.gettempdir())) / "face"


def tomorrow_at(hour, minute, seconds_before=0):
    """Tomorrow at hour:minute UTC (always after an alarm saved now), less `seconds_before`, as ISO 8601."""
    day = datetime.now(timezone.utc).date() + timedelta(days=1)
    at = datetime(day.year, day.month, day.day, hour, minute, tzinfo=timezone.utc) - timedelta(seconds=seconds_before)
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


def bmp_pixels(path):
    """(width, height, rows of (r, g, b)) of an uncompressed 24- or 32-bit BMP, top row first (SDL_SaveBMP's)."""
    data = Path(path).read_bytes()
    if data[:2] != b"BM":
        raise AssertionError(f"{path} is not a BMP file")
    offset = int.from_bytes(data[10:14], "little")
    width = int.from_bytes(data[18:22], "little", signed=True)
    height = int.from_bytes(data[22:26], "little", signed=True)
    bits = int.from_bytes(data[28:30], "little")
    if bits not in (24, 32):
        raise AssertionError(f"{path}: {bits}-bit BMP")
    step = bits // 8
    stride = (width * step + 3) & ~3
    rows = []
    for y in range(abs(height)):
        start = offset + y * stride
        rows.append([(data[start + x * step + 2], data[start + x * step + 1], data[start + x * step])
                     for x in range(width)])
    if height > 0:  # bottom-up
        rows.reverse()
    return width, abs(height), rows


def rgb(text):
    """"#rrggbb" as (r, g, b)."""
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


class Face:
    """`aubade-face` on the offscreen driver against `clock`: its JSON lines, its frames, touches through a FIFO."""

    def __init__(self, clock, size="800x480"):
        self.clock = clock
        self.dir = Path(tempfile.mkdtemp(prefix="aubade-face-test-"))
        self.frames = self.dir / "frames"
        self.frames.mkdir()
        self.input = self.dir / "touches"
        os.mkfifo(self.input)
        self.lines = []
        self.changed = threading.Condition()
        self.reading = True
        env = dict(os.environ, SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy")
        args = [*DIE_WITH_US, FACE, "--port", str(clock.port), "--size", size, "--json",
                "--token-file", str(self.dir / "token"), "--input", str(self.input), "--frames", str(self.frames)]
        with open(self.dir / "face.err", "a") as errors:
            self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=errors, text=True, cwd=self.dir)
        threading.Thread(target=self._read, daemon=True).start()
        # The FIFO's writer: opened once the face has opened it for reading (open blocks until then).
        self.touches = None

    def _read(self):
        for line in self.process.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            with self.changed:
                self.lines.append(event)
                self.changed.notify_all()
        self.process.stdout.close()
        with self.changed:
            self.reading = False
            self.changed.notify_all()

    def mark(self):
        with self.changed:
            return len(self.lines)

    def wait_for(self, name, where=lambda e: True, after=0, timeout=WATCHDOG):
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for index, event in enumerate(self.lines[after:], start=after):
                    if event.get("event") == name and where(event):
                        return index, event
                if not self.reading:
                    raise AssertionError(f"the face exited ({self.process.wait(timeout=10)}) before '{name}': "
                                         f"{self.errors()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no '{name}' from the face within {timeout:.0f} s; its last lines: "
                                         f"{self.lines[-8:]}")
                self.changed.wait(left)

    def button(self, name, after=0):
        """The rect of button `name` in the first scene (after `after`) that has it."""
        _, event = self.wait_for("buttons", lambda e: any(b["id"] == name for b in e["buttons"]), after=after)
        return next(b for b in event["buttons"] if b["id"] == name)

    def tap(self, x, y):
        if self.touches is None:
            self.touches = open(self.input, "w")
        self.touches.write(f"tap {int(x)} {int(y)}\n")
        self.touches.flush()

    def tap_button(self, name, after=0):
        b = self.button(name, after)
        self.tap(b["x"] + b["w"] / 2, b["y"] + b["h"] / 2)
        return b

    def latest_frame(self):
        frames = sorted(self.frames.glob("*.bmp"), key=lambda p: p.stat().st_mtime_ns)
        if not frames:
            raise AssertionError("the face wrote no frame")
        return frames[-1]

    def keep(self, name):
        """Copies the latest frame into the artefacts, for a look by a person."""
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(self.latest_frame(), ARTEFACTS / f"{name}.bmp")

    def errors(self):
        path = self.dir / "face.err"
        return path.read_text()[-2000:] if path.exists() else ""

    def stop(self):
        """SIGTERM, as systemd stops it: it must end with status 0."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            return self.process.wait(timeout=WATCHDOG)
        return self.process.returncode

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self.touches:
            try:
                self.touches.close()
            except OSError:
                pass
        shutil.rmtree(self.dir, ignore_errors=True)


class FaceTests(unittest.TestCase):
    def setUp(self):
        if not AUBADE or not FACE:
            self.fail("AUBADE_BIN and AUBADE_FACE_BIN must name the built binaries (Tests/Face/run.sh sets them)")

    def clock(self):
        clock = DaemonClock(AUBADE, prefix="aubade-face-clock-")
        self.addCleanup(clock.close)
        return clock

    def face(self, clock, **kwargs):
        face = Face(clock, **kwargs)
        self.addCleanup(face.close)
        return face

    def test_a_touch_on_stop_stops_the_real_alarm(self):
        clock = self.clock()
        alarm = clock.cli_json("alarm", "add", "--name", "Work", "--time", "07:00", "--days", "daily",
                               "--source", "tone", "--fade-in", "0s")["id"]
        clock.start(fake_time=tomorrow_at(7, 0, seconds_before=20))
        face = self.face(clock)
        face.wait_for("frame", lambda e: e.get("live"))
        ringing = clock.wait_for("ringing")
        self.assertEqual(ringing["alarm"], alarm)
        mark = len(clock.events)
        # The ringing face: Stop and Snooze, large; a touch at Stop's middle goes to the clock as the kiosk's does.
        snooze = face.button("snooze")
        stop = face.tap_button("stop")
        self.assertGreaterEqual(stop["w"] * stop["h"], 100 * 60, stop)
        self.assertGreaterEqual(snooze["w"] * snooze["h"], 100 * 60, snooze)
        _, answer = face.wait_for("command", lambda e: e.get("path") == "/alarm/stop")
        self.assertEqual(answer.get("status"), 200, answer)
        stopped = clock.wait_for("stopped", after=mark)
        self.assertEqual(stopped.get("by"), "api", stopped)
        # And the face leaves the ringing face: a scene without Stop follows.
        face.wait_for("buttons", lambda e: not any(b["id"] == "stop" for b in e["buttons"]))
        face.keep("face-after-stop")
        self.assertEqual(face.stop(), 0, face.errors())

    def test_the_face_paints_the_clocks_sunrise_and_survives_the_clock_going_away(self):
        clock = self.clock()
        clock.cli("alarm", "add", "--name", "Work", "--time", "08:00", "--days", "daily", "--source", "tone",
                  "--sunrise", "2h")
        # An hour into a two-hour sunrise: the sky changes slowly, a step at a time.
        clock.start(fake_time=tomorrow_at(8, 0, seconds_before=3600))
        clock.wait_for("sunrise", lambda e: e.get("state") == "began")
        face = self.face(clock)
        face.wait_for("frame", lambda e: e.get("live"))

        # The sky the clock computed (its live state, as the face receives it) is the face's background: the frame's
        # corners, away from any text, carry it exactly (a step may land between the read and the frame: retry).
        deadline = time.monotonic() + WATCHDOG
        while True:
            expected = rgb(self.live_sky(clock))
            width, height, rows = bmp_pixels(face.latest_frame())
            corners = [rows[2][2], rows[2][width - 3], rows[height - 3][2], rows[height - 3][width - 3]]
            if all(c == expected for c in corners):
                break
            if time.monotonic() > deadline:
                self.fail(f"the face's corners {corners} never carried the clock's sky {expected}")
            time.sleep(0.5)
        face.keep("face-sunrise")

        # The clock goes away: the face stays up and says it reconnects; the clock comes back: it follows again.
        mark = face.mark()
        clock.stop()
        face.wait_for("link", lambda e: e.get("up") is False, after=mark)
        self.assertIsNone(face.process.poll(), "the face ended when the clock did")
        clock.start(port=clock.port, fake_time=tomorrow_at(8, 0, seconds_before=1800))
        face.wait_for("link", lambda e: e.get("up") is True, after=mark, timeout=WATCHDOG)
        self.assertEqual(face.stop(), 0, face.errors())

    def test_the_picker_pages_and_a_station_on_page_two_plays(self):
        clock = self.clock()
        for n in range(12):
            clock.cli("station", "add", "--name", f"Station {n:02}", "--url", f"http://127.0.0.1:9/s{n}")
        ids = {s["name"]: s["id"] for s in clock.cli_json("station", "list")["stations"]}
        clock.start()
        face = self.face(clock)
        face.wait_for("frame", lambda e: e.get("live"))
        face.tap_button("stations")
        # 800×480: eight tiles a page; "›" to the second, which holds the last four.
        mark = face.mark()
        face.tap_button("picker-next", after=mark)
        _, page = face.wait_for("buttons", lambda e: any(b["id"] == "picker-previous" for b in e["buttons"]),
                                after=mark)
        tiles = [b["id"] for b in page["buttons"] if b["id"].startswith("station-")]
        self.assertEqual(tiles, [f"station-{ids[f'Station {n:02}']}" for n in range(8, 12)])
        face.keep("face-picker-page-2")
        mark = face.mark()
        face.tap_button(f"station-{ids['Station 10']}", after=mark - 1)
        _, answer = face.wait_for("command", lambda e: e.get("path") == "/player/play", after=mark)
        self.assertNotEqual(answer.get("status"), 0, answer)
        face.wait_for("buttons", lambda e: any(b["id"] == "play" for b in e["buttons"]), after=mark)
        self.assertEqual(face.stop(), 0, face.errors())

    def test_on_air_now_and_next_the_reservation_toggles_and_the_face_moves_on(self):
        clock = self.clock()
        clock.cli("station", "add", "--name", "FIP", "--url", "http://127.0.0.1:9/fip")
        clock.cli("program", "add", "--name", "Early", "--begin", "06:00", "--end", "07:00", "--station", "FIP")
        clock.cli("program", "add", "--name", "Breakfast", "--begin", "07:00", "--end", "09:00", "--station", "FIP")
        programmes = {p["name"]: p for p in clock.cli_json("program", "list")["programmes"]}
        clock.start(fake_time="2031-03-04T06:59:00Z")  # a minute before Early ends
        face = self.face(clock)
        face.wait_for("frame", lambda e: e.get("live"))
        # Breakfast is next: Reserve reserves it, then (the face read again) cancels it.
        reserve = face.button("reserve")
        self.assertEqual(reserve["label"], "Reserve")
        mark = face.mark()
        face.tap(reserve["x"] + reserve["w"] / 2, reserve["y"] + reserve["h"] / 2)
        path = f"/programmes/{programmes['Breakfast']['id']}/reserve"
        _, answer = face.wait_for("command", lambda e: e.get("path") == path, after=mark)
        self.assertEqual((answer.get("method"), answer.get("status") // 100), ("POST", 2), answer)
        self.assertTrue(self.programme(clock, "Breakfast")["reserved"])
        face.wait_for("buttons", lambda e: any(b["label"] == "Reserved ✓" for b in e["buttons"]), after=mark)
        face.keep("face-on-air-reserved")
        mark = face.mark()
        face.tap_button("reserve")
        _, answer = face.wait_for("command", lambda e: e.get("path", "").endswith("/reserve"), after=mark)
        self.assertEqual((answer.get("method"), answer.get("status") // 100), ("DELETE", 2), answer)
        face.wait_for("buttons", lambda e: any(b["label"] == "Reserve" for b in e["buttons"]), after=mark)
        self.assertFalse(self.programme(clock, "Breakfast")["reserved"])
        # Reserved again, then Early ends: nothing but that tells the face to read again; Early (tomorrow) is next,
        # not reserved.
        mark = face.mark()
        face.tap_button("reserve")
        face.wait_for("buttons", lambda e: any(b["label"] == "Reserved ✓" for b in e["buttons"]), after=mark)
        mark = face.mark()
        face.wait_for("buttons", lambda e: any(b["label"] == "Reserve" for b in e["buttons"]), after=mark, timeout=90)
        self.assertEqual(face.stop(), 0, face.errors())

    @staticmethod
    def programme(clock, name):
        return next(p for p in clock.cli_json("program", "list")["programmes"] if p["name"] == name)

    @staticmethod
    def live_sky(clock):
        """The sunrise sky in the clock's live state now: the first `state` event of its event stream."""
        import http.client
        connection = http.client.HTTPConnection("127.0.0.1", clock.port, timeout=WATCHDOG)
        connection.request("GET", "/api/v1/events", headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        data = []
        while True:
            line = response.fp.readline().decode()
            if line.startswith("data:"):
                data.append(line[5:].strip())
            elif line.strip() == "" and data:
                break
        connection.close()
        state = json.loads("\n".join(data))
        if not state.get("sunrise"):
            raise AssertionError(f"no sunrise in the clock's live state: {state}")
        return state["sunrise"]["sky"]


if __name__ == "__main__":
    unittest.main()
