"""The phone page in a real Chromium at 360×780, against a real `aubade run`, checked with the real CLI on the
same database."""

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from harness import Browser, BrowserTest, Clock


class PhonePageTests(BrowserTest):
    def alarm(self, clock, name):
        """The alarm named `name` as `aubade alarm list --json` prints it."""
        alarms = [a for a in clock.cli_json("alarm", "list")["alarms"] if a["name"] == name]
        return alarms[0] if alarms else None

    def test_alarms_made_and_edited_on_the_phone_are_in_the_cli_list(self):
        clock = Clock(self)
        clock.cli("station", "add", "--name", "FIP", "--url", "http://127.0.0.1:9/fip")
        clock.cli("alarm", "add", "--name", "Weekend", "--time", "08:30", "--days", "sat,sun")
        clock.start()
        phone = Browser(self, 360, 780, mobile=True)
        self.pair_phone(clock, phone)
        self.assertEqual(clock.cli_json("token", "list")["tokens"][0]["name"], "phone")

        # A new alarm with every field the form has.
        phone.click("#add-alarm")
        phone.type("#f-name", "Work")
        phone.type("#f-time", "0645")
        self.assertEqual([box.is_selected() for box in phone.driver.find_elements("css selector", "#f-days input")],
                         [True] * 5 + [False] * 2, "a new alarm starts on weekdays")
        phone.click("#f-days label:nth-child(6)")  # Sat
        Select(phone.find("#f-source")).select_by_visible_text("FIP")
        volume = phone.find("#f-volume")
        volume.send_keys(Keys.END)
        volume.send_keys(*[Keys.LEFT] * 25)
        self.assertEqual(phone.text("#f-volume-out"), "75")
        phone.type("#f-duration", "20")
        phone.type("#f-fade", "45")
        phone.type("#f-snooze", "5")
        phone.type("#f-max-snoozes", "2")
        phone.type("#f-shaker", "now")
        phone.type("#f-lamp", "after:2m")
        phone.type("#f-sound-after", "1m")
        phone.click("label.switch-field:has(#f-shake)")
        phone.click("#f-save")
        phone.wait(lambda d: "Work" in phone.text("#alarms"), "the new alarm in the list")
        work = self.alarm(clock, "Work")
        self.assertIsNotNone(work, "aubade alarm list shows the alarm made on the phone")
        self.assertEqual({k: work[k] for k in ("time", "days", "soundName", "volume", "durationSeconds", "fadeInSeconds",
                                                "snoozeMinutes", "maxSnoozes", "shakeToStop", "enabled", "shaker", "lamp",
                                                "soundAfterSeconds")},
                         {"time": "06:45", "days": "mon,tue,wed,thu,fri,sat", "soundName": "FIP", "volume": 75,
                          "durationSeconds": 1200, "fadeInSeconds": 45, "snoozeMinutes": 5, "maxSnoozes": 2,
                          "shakeToStop": True, "enabled": True, "shaker": "now", "lamp": "after:2m",
                          "soundAfterSeconds": 60})
        _, next_firings = clock.api("GET", "/alarms/next?count=5")
        phone.wait(lambda d: phone.text("#tomorrow") == next_firings["tomorrow"], "the clock's sentence for tomorrow")
        self.assertIn("Work", phone.text("#firings"))
        self.assertEqual(phone.layout_problems(), [])
        phone.scroll_to("#next-card")
        phone.screenshot("phone-alarms")

        # Edit: only what changed is sent; everything else stays as it was.
        phone.click(f'#alarms li[data-id="{work["id"]}"] .alarm-open')
        phone.wait(lambda d: phone.find("#f-name").get_attribute("value") == "Work", "the alarm in the editor")
        self.assertEqual(phone.find("#f-time").get_attribute("value"), "06:45")
        self.assertEqual(phone.layout_problems(), [])
        phone.screenshot("phone-edit")
        phone.type("#f-time", "07:10")
        phone.click("#f-days label:nth-child(6)")  # Sat off again
        phone.click("#f-save")
        phone.wait(lambda d: "07:10" in phone.text("#alarms"), "the edited time in the list")
        edited = self.alarm(clock, "Work")
        self.assertEqual((edited["time"], edited["days"]), ("07:10", "mon,tue,wed,thu,fri"))
        # Only what was edited changed (the next ring, and what is on air then, follow from the time).
        derived = ("time", "days", "nextRing", "onAir")
        self.assertEqual({k: v for k, v in edited.items() if k not in derived},
                         {k: v for k, v in work.items() if k not in derived})

        # A refusal: the CLI's sentence next to the form, and nothing typed is lost.
        expected = clock.cli("alarm", "edit", str(work["id"]), "--snooze", "90m", check=False)
        self.assertEqual(expected.returncode, 2)
        phone.click(f'#alarms li[data-id="{work["id"]}"] .alarm-open')
        phone.type("#f-name", "Work (early)")
        phone.type("#f-snooze", "90")
        phone.click("#f-save")
        phone.wait_visible("#editor-error", "the refusal")
        self.assertEqual("aubade: " + phone.text("#editor-error"), expected.stderr.strip())
        self.assertEqual(phone.find("#f-name").get_attribute("value"), "Work (early)")
        self.assertEqual(phone.find("#f-snooze").get_attribute("value"), "90")
        self.assertEqual(self.alarm(clock, "Work")["snoozeMinutes"], 5, "nothing was saved")

        # Skip the next ringing, from the same editor; then cancel the refused edit.
        phone.click("#f-skip")
        phone.wait(lambda d: "Ring that day after all" in phone.text("#f-skip"), "the skip confirmed")
        self.assertIsNotNone(self.alarm(clock, "Work")["skipDate"])
        phone.click("#f-cancel")
        phone.wait(lambda d: "skips" in phone.text(f'#alarms li[data-id="{work["id"]}"]'), "the skip in the list")

        # Disable with the switch; delete with the editor's two-step Delete.
        phone.click(f'#alarms li[data-id="{work["id"]}"] .switch')
        phone.wait(lambda d: not self.alarm(clock, "Work")["enabled"], "the alarm disabled")
        weekend = self.alarm(clock, "Weekend")
        phone.click(f'#alarms li[data-id="{weekend["id"]}"] .alarm-open')
        phone.click("#f-delete")
        self.assertEqual(phone.text("#f-delete"), "Really delete?")
        self.assertIsNotNone(self.alarm(clock, "Weekend"), "one tap deletes nothing")
        phone.click("#f-delete")
        # The clock first (the page's list may be hidden or re-drawn while the editor closes), then the list.
        phone.wait(lambda d: self.alarm(clock, "Weekend") is None, "the alarm deleted")
        phone.wait(lambda d: "Weekend" not in phone.text("#alarms"), "the deleted alarm gone from the list")
        self.assert_no_script_errors(phone)

    def test_stations_settings_and_programmes(self):
        clock = Clock(self)
        clock.cli("station", "add", "--name", "FIP", "--url", "http://127.0.0.1:9/fip")
        clock.cli("program", "add", "--name", "Night Jazz", "--begin", "22:00", "--end", "23:00", "--station", "FIP",
                  "--weekday", "fri")
        clock.start()
        phone = Browser(self, 360, 780, mobile=True)
        self.pair_phone(clock, phone)

        # A station: "Test it" plays the typed address for 5 s through the clock, then it is added.
        phone.click('#tabs [data-tab="radio"]')
        phone.type("#s-name", "Local")
        phone.type("#s-url", "http://127.0.0.1:9/local")
        phone.click("#s-test")
        phone.wait(lambda d: "127.0.0.1:9/local" in phone.text("#station-test"), "how the test goes")
        # Nothing listens there: the clock tries for the 5 s asked, then the test is over.
        ended = clock.wait_for("radio-stopped", lambda e: e.get("source") == "http://127.0.0.1:9/local")
        self.assertEqual(ended["reason"], "finished")
        phone.wait(lambda d: "The test is over." in phone.text("#station-test"), "the end of the test")
        phone.click("#s-add")
        phone.wait(lambda d: "Local" in phone.text("#stations"), "the new station")
        self.assertIn("Local", [s["name"] for s in clock.cli_json("station", "list")["stations"]])
        phone.type("#s-name", "Bad")
        phone.type("#s-url", "ftp://example.com/x")
        phone.click("#s-add")
        phone.wait_visible("#station-error", "the refusal of a bad address")
        self.assertEqual(phone.find("#s-url").get_attribute("value"), "ftp://example.com/x")

        # Settings: every key of GET /settings has a field; a change is saved; a bad one is refused.
        phone.click('#tabs [data-tab="settings"]')
        _, settings = clock.api("GET", "/settings")
        keys = phone.js("return [...document.querySelectorAll('#settings-fields [data-key]')].map(e => e.dataset.key)")
        self.assertEqual(sorted(keys), sorted(settings))
        phone.type("#set-defaultVolume", "70")
        phone.click("label.switch-field:has(#set-isWifi)")
        phone.click("#settings-save")
        phone.wait(lambda d: phone.text("#settings-done") == "Saved.", "the settings saved")
        got = clock.cli_json("settings", "get")
        self.assertEqual((got["defaultVolume"], got["isWifi"]), (70, True))
        phone.type("#set-sleepVolume", "0")
        phone.click("#settings-save")
        phone.wait_visible("#settings-error", "the refusal of volume 0")
        self.assertIn("sleepVolume", phone.text("#settings-error"))

        # Programmes: reserve and unreserve.
        phone.click('#tabs [data-tab="programmes"]')
        phone.wait(lambda d: "Night Jazz" in phone.text("#programmes"), "the programme")
        phone.click("#programmes .programme button")
        phone.wait(lambda d: "Reserved" in phone.text("#programmes .programme button"), "the reservation")
        self.assertTrue(clock.cli_json("program", "list")["programmes"][0]["reserved"])
        phone.click("#programmes .programme button")
        phone.wait(lambda d: phone.text("#programmes .programme button") == "Reserve", "the reservation undone")
        self.assertFalse(clock.cli_json("program", "list")["programmes"][0]["reserved"])
        self.assertEqual(phone.layout_problems(), [])
        self.assert_no_script_errors(phone)

