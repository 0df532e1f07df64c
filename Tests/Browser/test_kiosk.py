"""The kiosk clock face in a real Chromium at 800×480 (and 720×1280 portrait), against a real `aubade run`
whose sound card is alsa-lib's file plugin."""

import signal
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from harness import FRAMES_AFTER_A_STOP, RATE, Browser, BrowserTest, Clock


def tomorrow_at(hour, minute, seconds_before=0):
    """Tomorrow at hour:minute UTC (always after an alarm saved now), less `seconds_before`, as ISO 8601."""
    day = datetime.now(timezone.utc).date() + timedelta(days=1)
    at = datetime(day.year, day.month, day.day, hour, minute, tzinfo=timezone.utc) - timedelta(seconds=seconds_before)
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


FACE_PARTS = ["#clock", "#date", "#next", "#controls", "#warnings"]


class KioskTests(BrowserTest):
    def test_a_phone_pairs_with_the_code_the_kiosk_shows(self):
        clock = Clock(self, zone="Europe/Paris")
        clock.cli("station", "add", "--name", "FIP", "--url", "http://127.0.0.1:9/fip")
        clock.cli("alarm", "add", "--name", "Work", "--time", "06:45", "--days", "mon-fri")
        start = tomorrow_at(14, 5)
        clock.start(fake_time=start)
        kiosk = Browser(self, 800, 480)
        self.open_kiosk(clock, kiosk)
        paris = datetime.fromisoformat(start.replace("Z", "+00:00")).astimezone(ZoneInfo("Europe/Paris"))
        self.assertIn(kiosk.text("#clock"), [f"{t:%H:%M}" for t in (paris, paris + timedelta(minutes=1))],
                      "the time in the clock's zone, not the browser's (UTC)")
        kiosk.wait(lambda d: kiosk.text("#next").startswith("Next alarm: Work, "), "the next alarm")
        kiosk.wait(lambda d: kiosk.text("#play") == "Play FIP", "the station to play")
        self.assertEqual(kiosk.layout_problems(min_target=48), [])
        self.assertFalse(kiosk.js("return document.scrollingElement.scrollHeight > innerHeight"), "the face fits")
        kiosk.screenshot("kiosk-day")

        kiosk.click("#pair")
        kiosk.wait(lambda d: len(kiosk.text("#pair-code").replace(" ", "")) == 6, "the pairing code")
        code = kiosk.text("#pair-code").replace(" ", "")
        self.assertTrue(kiosk.text("#pair-expiry").startswith("Valid for "))

        phone = Browser(self, 360, 780, mobile=True)
        phone.open(clock.url + "/")
        phone.type("#pair-code", code)
        phone.type("#pair-name", "phone")
        phone.click("#pair-submit")
        phone.wait_visible("#alarms-card", "the phone's alarms after pairing")
        phone.wait(lambda d: "Work" in phone.text("#alarms"), "the alarm on the phone")
        kiosk.wait(lambda d: kiosk.text("#pair-expiry") == "Paired.", "the kiosk saying the phone is paired")
        kiosk.wait_hidden("#pairing", "the pairing panel closing")
        names = sorted(t["name"] for t in clock.cli_json("token", "list")["tokens"])
        self.assertEqual(names, ["kiosk", "phone"])

        # A code is used once; a wrong one is refused with the clock's sentence, and the page keeps what was typed.
        other = Browser(self, 360, 780, mobile=True)
        other.open(clock.url + "/")
        other.type("#pair-code", code)
        other.type("#pair-name", "tablet")
        other.click("#pair-submit")
        other.wait_visible("#pair-error", "the refusal of a used code")
        self.assertEqual(other.find("#pair-name").get_attribute("value"), "tablet")

        # A revoked token sends the phone back to the pairing form at its next change; the kiosk is untouched.
        clock.cli("token", "revoke", "phone")
        phone.click("#alarms .switch")
        phone.wait_visible("#pair-code", "the pairing form after the token was revoked")
        self.assertEqual([t["name"] for t in clock.cli_json("token", "list")["tokens"]], ["kiosk"])

        kiosk.resize(720, 1280)
        kiosk.wait(lambda d: kiosk.js("return innerWidth") == 720, "the portrait viewport")
        self.assertEqual(kiosk.layout_problems(min_target=48), [])
        self.assertFalse(kiosk.js("return document.scrollingElement.scrollHeight > innerHeight"), "the face fits")
        kiosk.screenshot("kiosk-portrait")
        self.assert_no_script_errors(kiosk)
        self.assert_no_script_errors(phone)

    def test_stop_on_the_kiosk_silences_the_ringing_alarm(self):
        clock = Clock(self)
        clock.cli("alarm", "add", "--name", "Work", "--time", "08:00", "--days", "daily", "--source", "tone",
                  "--duration", "5m")
        clock.start(fake_time=tomorrow_at(8, 0, seconds_before=5))
        kiosk = Browser(self, 800, 480)
        self.open_kiosk(clock, kiosk)
        ringing = clock.wait_for("ringing")
        self.assertEqual(ringing["alarm"], 1)
        kiosk.wait_visible("#stop", "Stop while the alarm rings")
        self.assertTrue(kiosk.visible("#snooze"))
        shown = [css for css in FACE_PARTS if kiosk.visible(css)]
        self.assertEqual(shown, [], "nothing but Snooze and Stop while an alarm rings")
        for css in ("#snooze", "#stop"):
            size = kiosk.find(css).size
            self.assertGreater(size["height"], 480 / 2, f"{css} is huge")
            self.assertGreater(size["width"], 800 / 3, f"{css} is huge")
        kiosk.screenshot("kiosk-ringing")
        clock.wait_for("audible")
        clock.wait_for_card(2.0)  # more than one period of the classic tone (1.6 s, half of it quiet)

        tapped = len(clock.events)
        kiosk.click("#stop")
        stopped = clock.wait_for("stopped", after=tapped)
        at_stop = clock.card_bytes() // 4
        self.assertLess(clock.position("ringing"), clock.position("stopped"))
        self.assertEqual(stopped.get("by"), "api", stopped)
        kiosk.wait_hidden("#ring", "the face back after Stop")
        kiosk.wait_visible("#clock", "the time after Stop")

        # What reached the card: the loud tone until the stop, then at most what the device already held.
        self.assertEqual(clock.kill(signal.SIGTERM), 0)
        after = clock.card_bytes() // 4 - at_stop
        self.assertLessEqual(after, FRAMES_AFTER_A_STOP, f"{after} frames reached the card after the stop")
        before = clock.samples()[: at_stop * 2]
        last_two_seconds = before[-2 * 2 * RATE:]
        self.assertGreater(max(abs(s) for s in last_two_seconds), 10000, "the tone was loud in the 2 s before the stop")
        self.assert_no_script_errors(kiosk)

    def test_the_wake_up_check_asks_are_you_up_and_a_touch_answers_it(self):
        clock = Clock(self)
        clock.cli("alarm", "add", "--name", "Work", "--time", "08:00", "--days", "daily", "--source", "tone",
                  "--duration", "5m", "--wake-check", "1m")
        clock.start(fake_time=tomorrow_at(8, 0, seconds_before=5))
        kiosk = Browser(self, 800, 480)
        self.open_kiosk(clock, kiosk)
        clock.wait_for("ringing")
        kiosk.wait_visible("#stop", "Stop while the alarm rings")
        tapped = len(clock.events)
        kiosk.click("#stop")
        clock.wait_for("stopped", after=tapped)
        kiosk.wait_visible("#clock", "the face after Stop")
        self.assertFalse(kiosk.visible("#asking"), "no question before its minute")

        # A minute after the Stop: the chime and the question, with one large button and nothing else.
        asked = clock.wait_for("wake-check", timeout=120)
        self.assertEqual(asked.get("alarm"), 1, asked)
        kiosk.wait_visible("#up", "the question a minute after Stop")
        self.assertIn("Are you up?", kiosk.text("#asking"))
        shown = [css for css in FACE_PARTS if kiosk.visible(css)]
        self.assertEqual(shown, [], "nothing but the question while it asks")
        size = kiosk.find("#up").size
        self.assertGreater(size["height"], 480 / 2, "the button is huge")
        kiosk.screenshot("kiosk-are-you-up")

        touched = len(clock.events)
        kiosk.click("#up")
        answered = clock.wait_for("woke", after=touched)
        self.assertEqual(answered.get("detail"), "by=api", answered)
        kiosk.wait_hidden("#asking", "the question gone once answered")
        kiosk.wait_visible("#clock", "the face after the answer")
        self.assertEqual(clock.kill(signal.SIGTERM), 0)
        self.assert_no_script_errors(kiosk)

    def test_the_face_keeps_the_time_while_the_daemon_is_away(self):
        clock = Clock(self)
        clock.start(fake_time="2031-03-04T03:17:30Z")
        kiosk = Browser(self, 800, 480)
        self.open_kiosk(clock, kiosk)
        self.assertIn(kiosk.text("#clock"), ("03:17", "03:18"), "the clock's time, not the browser's")
        self.assertTrue(kiosk.text("#date").startswith("Tuesday"), kiosk.text("#date"))
        port = clock.port

        shown_at_kill = shown_instant(kiosk)
        clock.kill(signal.SIGKILL)
        kiosk.wait_visible("#reconnecting", "the reconnecting mark")
        kiosk.wait(lambda d: shown_instant(kiosk) >= shown_at_kill + timedelta(seconds=2), "the time going on")
        self.assertIn(kiosk.text("#clock"), ("03:17", "03:18", "03:19"), "still the clock's time")

        clock.start(fake_time="2031-03-04T05:42:10Z", port=port)
        kiosk.wait_hidden("#reconnecting", "the kiosk reconnected by itself")
        kiosk.wait(lambda d: kiosk.text("#clock") in ("05:42", "05:43"), "the restarted clock's time")
        self.assert_no_script_errors(kiosk)


def shown_instant(browser):
    """The instant the face shows (its <time datetime>)."""
    return datetime.fromisoformat(browser.find("#clock").get_attribute("datetime").replace("Z", "+00:00"))


class OutputSwitchTests(BrowserTest):
    """The bed shaker and the lamp, switched by hand from the kiosk and from the phone page, each page following
    what the other did. This machine has no GPIO, so the clock drives its outputs on simulated lines
    (`--simulate-outputs`): its driver's thread and patterns are its own, and each level is recorded."""

    def test_the_kiosk_and_the_phone_switch_the_shaker_and_the_lamp_and_see_each_other(self):
        clock = Clock(self)
        clock.with_outputs({"shaker": ("GPIO16", "200/200"), "lamp": ("GPIO20", "steady")})
        clock.start()
        kiosk = Browser(self, 800, 480)
        self.open_kiosk(clock, kiosk)
        phone = Browser(self, 360, 780, mobile=True)
        self.pair_phone(clock, phone)
        shaker_key, lamp_key = ('#outputs button[data-output="shaker"]', '#outputs button[data-output="lamp"]')
        kiosk.wait_visible(shaker_key, "the kiosk's shaker toggle on a clock with outputs")
        phone.wait_visible("#outputs-card", "the phone's outputs card on a clock with outputs")
        self.assertEqual(phone.text("#outputs"), "Bed shaker\nLamp")
        self.assertEqual(kiosk.find(shaker_key).get_attribute("aria-pressed"), "false")

        # The kiosk turns the shaker on: its line follows its pattern, the phone's switch follows the clock.
        at = len(clock.output_trace())
        kiosk.click(shaker_key)
        at = clock.wait_output("shaker", True, after=at)
        at = clock.wait_output("shaker", False, after=at)
        at = clock.wait_output("shaker", True, after=at)
        kiosk.wait(lambda d: kiosk.find(shaker_key).get_attribute("aria-pressed") == "true", "the kiosk's toggle pressed")
        phone.wait(lambda d: phone.find('#outputs input[name="shaker"]').is_selected(), "the phone's shaker switch on")
        self.assertFalse(phone.find('#outputs input[name="lamp"]').is_selected())

        # The phone stops the shaker and then lights the lamp; the kiosk follows. A pattern stopped in its off half
        # sets nothing (the line is inactive already), so the shaker's end is judged by order: the outputs' thread
        # takes its commands in turn, and once the lamp is lit the shaker's "off" was handled before it.
        phone.click('#outputs label:has(input[name="shaker"])')
        kiosk.wait(lambda d: kiosk.find(shaker_key).get_attribute("aria-pressed") == "false", "the kiosk's shaker released")
        mark = len(clock.output_trace())
        phone.click('#outputs label:has(input[name="lamp"])')
        lit = clock.wait_output("lamp", True, after=mark)  # the records past the lamp's set
        kiosk.wait(lambda d: kiosk.find(lamp_key).get_attribute("aria-pressed") == "true", "the kiosk's lamp pressed")
        levels = {r["output"]: r["active"] for r in clock.output_trace() if r["event"] == "set"}
        self.assertEqual(levels, {"shaker": False, "lamp": True}, "the lines' last levels")
        kiosk.screenshot("kiosk-outputs")
        self.assertEqual(clock.kill(signal.SIGTERM), 0)
        last = {r["output"]: (r["event"], r["active"]) for r in clock.output_trace()}
        self.assertEqual(last, {"shaker": ("release", False), "lamp": ("release", False)}, "every line let go inactive")
        after_lamp = [(r["event"], r["active"]) for r in clock.output_trace()[lit:] if r["output"] == "shaker"]
        self.assertEqual(after_lamp, [("release", False)], "the shaker's pattern stopped before the lamp was lit")
        self.assert_no_script_errors(kiosk)
        self.assert_no_script_errors(phone)
