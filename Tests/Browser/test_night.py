"""Night dimming on the kiosk, with the daemon driving a fake sysfs backlight (`--backlight-root`): the page
and the backlight go dark in the dimming window, a ringing alarm undims both at once, and a touch on the dark
face wakes it and does nothing else."""

from pathlib import Path

from harness import Browser, BrowserTest, Clock
from test_kiosk import tomorrow_at

MAX = 255


class NightTests(BrowserTest):
    def backlight(self, clock):
        """A fake /sys/class/backlight/panel under the clock's folder, at full brightness; returns its root."""
        root = clock.dir / "sysfs"
        panel = root / "sys" / "class" / "backlight" / "panel"
        panel.mkdir(parents=True)
        (panel / "max_brightness").write_text(f"{MAX}\n")
        (panel / "brightness").write_text(f"{MAX}\n")
        (panel / "type").write_text("raw\n")
        self.brightness_file = panel / "brightness"
        return root

    def brightness(self):
        return int(Path(self.brightness_file).read_text().strip() or 0)

    def dimmed(self, kiosk):
        return kiosk.js("return document.body.classList.contains('dimmed')")

    def test_a_ringing_alarm_undims_the_face_and_the_backlight(self):
        clock = Clock(self)
        for key, value in (("dimUntil", "09:00"), ("dimFrom", "07:00"), ("dimLevel", "10")):
            clock.cli("settings", "set", key, value)
        clock.cli("alarm", "add", "--name", "Work", "--time", "08:00", "--days", "daily", "--source", "tone",
                  "--duration", "5m")
        root = self.backlight(clock)
        # The browser first: its start on a loaded machine must not eat the daemon's 40 s before the alarm.
        kiosk = Browser(self, 800, 480)
        clock.start(fake_time=tomorrow_at(8, 0, seconds_before=40), extra=["--backlight-root", str(root)])
        self.open_kiosk(clock, kiosk)
        kiosk.wait(lambda d: self.dimmed(kiosk), "the night face")
        kiosk.wait(lambda d: 1 <= self.brightness() <= MAX // 10 + 1, "the backlight at 10 %")
        self.assertIsNone(clock.position("ringing"), "the page was dark before the alarm rang")
        self.assertFalse(kiosk.visible("#controls"), "no buttons at night")
        kiosk.screenshot("kiosk-night")

        clock.wait_for("ringing")
        kiosk.wait_visible("#stop", "Stop while the alarm rings")
        self.assertFalse(self.dimmed(kiosk), "a ringing alarm is never dark")
        kiosk.wait(lambda d: self.brightness() == MAX, "the backlight at full brightness")
        lit = clock.wait_for("display", lambda e: e.get("reason") == "ringing")
        self.assertTrue(lit["state"].startswith("bright"), lit)
        dark = clock.position("display", lambda e: e.get("state", "").startswith("dimmed"))
        self.assertIsNotNone(dark, "the daemon dimmed the display first")
        self.assertLess(dark, clock.position("ringing"))
        self.assertLess(dark, clock.position("display", lambda e: e.get("reason") == "ringing"))
        kiosk.click("#stop")
        clock.wait_for("stopped")
        kiosk.wait_hidden("#ring", "the face after Stop")
        self.assert_no_script_errors(kiosk)

    def test_a_touch_wakes_the_dimmed_face_and_does_nothing_else(self):
        clock = Clock(self)
        for key, value in (("dimFrom", "22:00"), ("dimUntil", "07:00"), ("dimLevel", "10")):
            clock.cli("settings", "set", key, value)
        root = self.backlight(clock)
        kiosk = Browser(self, 800, 480)
        clock.start(fake_time=tomorrow_at(3, 0), extra=["--backlight-root", str(root)])
        self.open_kiosk(clock, kiosk)
        kiosk.wait(lambda d: self.dimmed(kiosk), "the night face")
        kiosk.wait(lambda d: self.brightness() <= MAX // 10 + 1, "the backlight at 10 %")

        # Where "Pair a phone" is by day: the touch lands there, on the dark face.
        x, y = 700, 440
        kiosk.tap(x, y)
        kiosk.wait(lambda d: not self.dimmed(kiosk), "the face awake after a touch")
        kiosk.wait(lambda d: self.brightness() > MAX // 10 + 1, "the backlight up after a touch")
        self.assertEqual(kiosk.js("return document.elementFromPoint(arguments[0], arguments[1]).id", x, y), "pair",
                         "the touch was on Pair a phone")
        self.assertFalse(kiosk.visible("#pairing"), "the waking touch did nothing else")
        woke = clock.wait_for("display", lambda e: e.get("reason") == "awake")
        self.assertIsNotNone(woke)
        self.assert_no_script_errors(kiosk)
