"""User strings stay text on both pages (R31): an alarm named with a <script> and a station named with an
<img onerror>, saved through the real CLI, are shown as the characters typed and run nothing."""

from harness import HOSTILE_ALARM, HOSTILE_STATION, Browser, BrowserTest, Clock


class EscapingTests(BrowserTest):
    def test_markup_in_names_stays_text_on_both_pages(self):
        clock = Clock(self)
        clock.cli("alarm", "add", "--name", HOSTILE_ALARM, "--time", "06:45", "--days", "daily")
        # Nothing listens on port 9: the station stays "connecting" or "not playing", under its name.
        clock.cli("station", "add", "--name", HOSTILE_STATION, "--url", "http://127.0.0.1:9/stream")
        clock.start()

        phone = Browser(self, 360, 780, mobile=True)
        self.pair_phone(clock, phone)
        phone.wait(lambda d: phone.text("#alarms .alarm-name") == HOSTILE_ALARM, "the alarm's name as text")
        phone.wait(lambda d: HOSTILE_ALARM in phone.text("#firings"), "the name among the next firings")
        self.assertEqual(phone.layout_problems(), [], "a long name without spaces does not widen the page")
        phone.click("#alarms .alarm-open")
        phone.wait(lambda d: phone.find("#f-name").get_attribute("value") == HOSTILE_ALARM, "the name in the editor")
        self.assertIn(HOSTILE_STATION, [o.text for o in phone.driver.find_elements("css selector", "#f-source option")])
        phone.click("#f-cancel")
        phone.click('#tabs [data-tab="radio"]')
        phone.wait(lambda d: phone.text("#stations .station-name") == HOSTILE_STATION, "the station's name as text")

        kiosk = Browser(self, 800, 480)
        self.open_kiosk(clock, kiosk)
        kiosk.wait(lambda d: kiosk.text("#next").startswith(f"Next alarm: {HOSTILE_ALARM}, "), "the next alarm's name")
        kiosk.wait(lambda d: kiosk.text("#play") == f"Play {HOSTILE_STATION}", "the station's name on Play")
        kiosk.click("#play")
        kiosk.wait(lambda d: kiosk.text("#playing-state").startswith(f"{HOSTILE_STATION} — "), "what plays, by name")
        # Nothing listens there: a long "not playing: …" sentence, and the sleep countdown beside it.
        kiosk.click('[data-minutes="15"]')
        kiosk.wait(lambda d: kiosk.text("#playing-sleep").startswith("sleep 1"), "the sleep countdown")
        kiosk.wait(lambda d: "not playing" in kiosk.text("#playing-state"), "the station's problem")
        self.assertEqual(kiosk.layout_problems(min_target=48), [], "a long line does not widen the face")
        self.assertTrue(kiosk.visible("#playing-sleep"))
        phone.wait(lambda d: phone.text("#player-state").startswith(f"{HOSTILE_STATION} — "), "what plays, on the phone")

        for browser in (phone, kiosk):
            self.assertFalse(browser.script_ran(), "a name's markup ran")
            self.assertEqual(browser.js("return document.querySelectorAll('script:not([src])').length"), 0)
            self.assert_no_script_errors(browser)
