"""User strings stay text on both pages (R31): an alarm named with a <script> and a station named with an
<img onerror>, saved through the real CLI, and a directory station's name and a podcast feed's title, which anyone
may write, are shown as the characters typed and run nothing."""

import shutil
import tempfile
from pathlib import Path

from harness import HOSTILE_ALARM, HOSTILE_STATION, Browser, BrowserTest, Clock, DirectoryMirror, Fixture

HOSTILE_UUID = "77777777-7777-7777-7777-777777777777"
HOSTILE_DIRECTORY = '<img src=x onerror="window.__pwned=5">Jazz'


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

    def test_markup_from_the_directory_and_a_feed_stays_text(self):
        """The directory's names and a feed's title are anyone's text: shown as typed on both pages, run nothing —
        in the search's results, the saved station, the kiosk's picker and the podcasts."""
        mirror = DirectoryMirror(self, [
            {"stationuuid": HOSTILE_UUID, "name": HOSTILE_DIRECTORY, "url_resolved": "{base}/stream.mp3",
             "countrycode": "FR", "codec": "MP3", "bitrate": 128, "lastcheckok": 1, "clickcount": 10,
             "favicon": "javascript:window.__pwned=6", "tags": "jazz"},
        ])
        folder = Path(tempfile.mkdtemp(prefix="aubade-feeds-"))
        self.addCleanup(shutil.rmtree, folder, True)
        (folder / "news.xml").write_text(
            '<?xml version="1.0"?><rss version="2.0"><channel><title>&lt;script&gt;window.__pwned=7&lt;/script&gt;</title>'
            '<item><title>&lt;img src=x onerror="window.__pwned=8"&gt;</title>'
            '<enclosure url="https://news.example/1.mp3" type="audio/mpeg"/></item></channel></rss>')
        feeds = Fixture(self, "feed_server.py", folder)
        clock = Clock(self, directory=[mirror.base])
        clock.start()

        phone = Browser(self, 360, 780, mobile=True)
        self.pair_phone(clock, phone)
        phone.click('#tabs [data-tab="radio"]')
        phone.type("#q", "jazz")
        phone.click("#search-submit")
        phone.wait(lambda d: phone.driver.find_elements("css selector", "#results .result-name"), "the result")
        self.assertEqual(phone.text("#results .result-name"), HOSTILE_DIRECTORY)
        self.assertIsNone(phone.find("#results img.logo").get_attribute("src"), "a javascript: logo is not loaded")
        phone.click("#results .save")
        phone.wait(lambda d: phone.text("#stations .station-name") == HOSTILE_DIRECTORY, "the saved station as text")
        phone.click('#tabs [data-tab="podcasts"]')
        phone.type("#p-feed", f"{feeds.base}/news.xml")
        phone.click("#p-add")
        phone.wait(lambda d: phone.text("#podcasts .podcast-name") == "podcast:<script>window.__pwned=7</script>",
                   "the feed's title as the podcast's name, as text")
        self.assertIn('<img src=x onerror="window.__pwned=8">', phone.text("#podcasts .podcast-details"))
        self.assertIn("podcast:<script>window.__pwned=7</script>",
                      [o.get_attribute("textContent") for o in phone.driver.find_elements("css selector", "#player-source option")])

        kiosk = Browser(self, 800, 480)
        self.open_kiosk(clock, kiosk)
        kiosk.wait(lambda d: kiosk.text("#play") == f"Play {HOSTILE_DIRECTORY}", "the station's name on Play")
        kiosk.click("#stations")
        kiosk.wait_visible("#picker", "the station picker")
        # The station's tile shows its name as text.
        self.assertEqual(kiosk.text("#picker-list .tile-name"), HOSTILE_DIRECTORY)
        for browser in (phone, kiosk):
            self.assertFalse(browser.script_ran(), "markup from the directory or a feed ran")
            self.assert_no_script_errors(browser)
