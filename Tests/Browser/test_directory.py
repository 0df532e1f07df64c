"""The faces of the station directory and of podcasts, in the real browser against the real daemon: the phone
page's search against a local directory mirror (results with logo, country and codec; a station this clock cannot
play shown with why and no Save; Try plays the stream through the clock; Save adds the station with its logo),
podcasts followed from a local feed and offered as `podcast:<name>` sounds, and the kiosk's station picker (a tap
plays the station, its logo shows beside what plays) and volume. Nothing reaches beyond 127.0.0.1."""

import json
import tempfile
from pathlib import Path
import shutil

from harness import Browser, BrowserTest, Clock, DirectoryMirror, Fixture
from selenium.webdriver.support.ui import Select

SWISS_JAZZ = "11111111-1111-1111-1111-111111111111"
HOSTILE_DIRECTORY_NAME = '<img src=x onerror="window.__pwned=3">Jazz'

# The directory's own field names, as radio-browser answers them ({base}: the mirror's address).
STATIONS = [
    {"stationuuid": SWISS_JAZZ, "name": "Swiss Jazz", "url_resolved": "{base}/stream.mp3", "countrycode": "CH",
     "tags": "jazz,swing", "codec": "MP3", "bitrate": 128, "hls": 0, "lastcheckok": 1, "clickcount": 900,
     "favicon": "{base}/logo/jazz.png", "homepage": "https://jazz.example/"},
    {"stationuuid": "22222222-2222-2222-2222-222222222222", "name": "Jazz FM WMA", "url_resolved": "{base}/wma",
     "countrycode": "GB", "tags": "jazz", "codec": "WMA", "bitrate": 64, "hls": 0, "lastcheckok": 1, "clickcount": 800},
    {"stationuuid": "33333333-3333-3333-3333-333333333333", "name": HOSTILE_DIRECTORY_NAME,
     "url_resolved": "{base}/hostile.mp3", "countrycode": "FR", "tags": "jazz", "codec": "MP3", "lastcheckok": 1,
     "clickcount": 700, "favicon": "javascript:window.__pwned=4"},
    {"stationuuid": "55555555-5555-5555-5555-555555555555", "name": "Broken Jazz", "url_resolved": "{base}/gone",
     "codec": "MP3", "tags": "jazz", "lastcheckok": 0, "clickcount": 5000},
]

FEED = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Morning News</title>
<item><title>Monday</title><pubDate>Mon, 23 Nov 2026 06:00:00 GMT</pubDate><enclosure url="https://news.example/1.mp3" type="audio/mpeg"/></item>
<item><title>Tuesday</title><pubDate>Tue, 24 Nov 2026 06:00:00 GMT</pubDate><enclosure url="https://news.example/2.mp3" type="audio/mpeg"/></item>
</channel></rss>
"""


class DirectoryPageTests(BrowserTest):
    def search(self, phone, words):
        phone.click('#tabs [data-tab="radio"]')
        phone.type("#q", words)
        phone.click("#search-submit")
        phone.wait(lambda d: not phone.find("#search-submit").get_attribute("disabled")
                   and phone.driver.find_elements("css selector", "#results .result"), "the search's results")

    def test_the_phone_searches_the_directory_tries_and_saves_a_station(self):
        mirror = DirectoryMirror(self, STATIONS)
        clock = Clock(self, directory=[mirror.base])
        clock.start()
        phone = Browser(self, 360, 780, mobile=True)
        self.pair_phone(clock, phone)
        self.search(phone, "jazz")

        # The most played first, the broken one hidden; each with its country, codec and bitrate.
        names = [e.text for e in phone.driver.find_elements("css selector", "#results .result-name")]
        self.assertEqual(names, ["Swiss Jazz", "Jazz FM WMA", HOSTILE_DIRECTORY_NAME])
        swiss = f'#results .result[data-id="{SWISS_JAZZ}"]'
        self.assertEqual(phone.text(f"{swiss} .result-details"), "CH · MP3 · 128 kbps")
        phone.wait(lambda d: phone.js(f"return document.querySelector('{swiss} img.logo').naturalWidth") == 8,
                   "Swiss Jazz's logo, from where the directory says")
        # A station this clock cannot play says why and has no Save (nor Try).
        wma = '#results .result[data-id="22222222-2222-2222-2222-222222222222"]'
        self.assertEqual(phone.text(f"{wma} .result-note"), "This clock cannot play: WMA.")
        self.assertEqual(phone.driver.find_elements("css selector", f"{wma} button"), [])
        self.assertEqual(phone.layout_problems(), [])
        self.assertFalse(phone.script_ran(), "a directory station's name ran as markup")
        phone.scroll_to("#search-card")
        phone.screenshot("phone-search")

        # Try: the clock plays the stream (the card gets the 440 Hz tone), through the player everyone shares.
        phone.click(f"{swiss} .try")
        phone.wait(lambda d: phone.text("#player-state").endswith("— playing"), "the tried station playing")
        self.assertIn("/stream.mp3", phone.text("#player-state"))
        clock.wait_for_card(1)
        phone.click("#player-stop")
        phone.wait(lambda d: phone.text("#player-state") == "Nothing is playing.", "the try stopped")

        # Save: the station is kept with where it was found and its logo; its Save button goes.
        phone.click(f"{swiss} .save")
        phone.wait(lambda d: "Saved as Swiss Jazz." == phone.text("#search-note"), "the station saved")
        phone.wait(lambda d: not phone.driver.find_elements("css selector", f"{swiss} .save"), "no second Save")
        station = next(s for s in clock.cli_json("station", "list")["stations"] if s["name"] == "Swiss Jazz")
        self.assertEqual(station["directory"]["id"], SWISS_JAZZ)
        self.assertEqual(station["directory"]["logo"], f"{SWISS_JAZZ}.png")
        self.assertEqual(station["url"], f"{mirror.base}/stream.mp3")
        phone.wait(lambda d: phone.js(
            f"return document.querySelector('#stations .station[data-id=\"{station['id']}\"] img.logo').naturalWidth") == 8,
            "the saved station's stored logo, read with the phone's token")
        self.assertIn("Swiss Jazz", [o.text for o in phone.driver.find_elements("css selector", "#player-source option")])
        self.assertFalse(phone.script_ran())
        self.assert_no_script_errors(phone)

    def test_the_phone_follows_a_podcast_and_offers_it_as_a_sound(self):
        folder = Path(tempfile.mkdtemp(prefix="aubade-feeds-"))
        self.addCleanup(shutil.rmtree, folder, True)
        (folder / "news.xml").write_text(FEED)
        feeds = Fixture(self, "feed_server.py", folder)
        clock = Clock(self)
        clock.start()
        phone = Browser(self, 360, 780, mobile=True)
        self.pair_phone(clock, phone)
        phone.click('#tabs [data-tab="podcasts"]')
        phone.wait_visible("#podcasts-empty", "no podcasts yet")

        phone.type("#p-feed", f"{feeds.base}/page.html")
        phone.click("#p-add")
        phone.wait_visible("#podcast-error", "the refusal of an address that is no feed")
        self.assertEqual(phone.find("#p-feed").get_attribute("value"), f"{feeds.base}/page.html", "nothing typed is lost")

        phone.type("#p-feed", f"{feeds.base}/news.xml")
        phone.type("#p-name", "News")
        phone.click("#p-add")
        phone.wait(lambda d: phone.text("#podcasts .podcast-name") == "podcast:News", "the podcast followed")
        self.assertTrue(phone.find("#podcast-error").get_attribute("hidden"))
        self.assertEqual(phone.text("#podcasts .podcast-details"), "2 episodes · newest: Tuesday (2026-11-24)")
        self.assertEqual([p["name"] for p in clock.cli_json("podcast", "list")["podcasts"]], ["News"])
        self.assertEqual(phone.layout_problems(), [])
        phone.screenshot("phone-podcasts")

        # The podcast among the sounds: the player's, and the alarm form's, where an alarm wakes to its newest episode.
        phone.click('#tabs [data-tab="radio"]')
        self.assertIn("podcast:News", [o.text for o in Select(phone.find("#player-source")).options])
        phone.click('#tabs [data-tab="alarms"]')
        phone.click("#add-alarm")
        phone.type("#f-name", "Wake to news")
        phone.type("#f-time", "0630")
        Select(phone.find("#f-source")).select_by_value("podcast:News")
        phone.click("#f-save")
        phone.wait(lambda d: "Wake to news" in phone.text("#alarms"), "the alarm saved")
        alarm = next(a for a in clock.cli_json("alarm", "list")["alarms"] if a["name"] == "Wake to news")
        self.assertEqual(alarm["sound"], "podcast:News")

        # Removing it is refused while the alarm plays it (asked twice, like a station); then it goes, from the
        # list and from the sounds.
        phone.click('#tabs [data-tab="podcasts"]')
        phone.click('#podcasts .podcast button')
        phone.click('#podcasts .podcast button.confirm')
        phone.wait_visible("#podcasts-error", "the refusal while an alarm plays it")
        self.assertEqual(phone.text("#podcasts-error"),
                         "Podcast News is the sound of alarm 'Wake to news'; change the alarm first.")
        clock.cli("alarm", "rm", str(alarm["id"]))
        phone.click('#podcasts .podcast button')
        phone.click('#podcasts .podcast button.confirm')
        phone.wait_visible("#podcasts-empty", "the podcast removed")
        self.assertEqual(clock.cli_json("podcast", "list")["podcasts"], [])
        self.assertNotIn("podcast:News", [o.text for o in Select(phone.find("#player-source")).options])

        self.assert_no_script_errors(phone)


class KioskPickerTests(BrowserTest):
    def test_the_kiosk_picks_a_station_by_its_logo_plays_it_and_sets_the_volume(self):
        mirror = DirectoryMirror(self, STATIONS)
        clock = Clock(self, directory=[mirror.base])
        clock.cli("station", "add", "--name", "FIP", "--url", "http://127.0.0.1:9/fip")
        clock.cli("station", "add", "--from-directory", SWISS_JAZZ)
        jazz = next(s for s in clock.cli_json("station", "list")["stations"] if s["name"] == "Swiss Jazz")
        clock.start()

        kiosk = Browser(self, 800, 480)
        self.open_kiosk(clock, kiosk)
        kiosk.wait(lambda d: kiosk.text("#play") == "Play FIP", "the first station on Play")
        kiosk.click("#stations")
        kiosk.wait_visible("#picker", "the station picker")
        tiles = [e.text for e in kiosk.driver.find_elements("css selector", "#picker-list .tile-name")]
        self.assertEqual(tiles, ["FIP", "Swiss Jazz"])
        tile = f'#picker-list button[data-station="{jazz["id"]}"]'
        kiosk.wait(lambda d: kiosk.js(f"return document.querySelector('{tile} img.tile-logo').naturalWidth") == 8,
                   "Swiss Jazz's logo on its tile")
        self.assertEqual(kiosk.text('#picker-list button[data-station] .tile-initial'), "F", "FIP has no logo: its initial")
        self.assertEqual(kiosk.layout_problems(min_target=48), [])
        kiosk.screenshot("kiosk-picker")

        # A tap plays the station: the picker closes, the face shows what plays with its logo.
        kiosk.click(tile)
        kiosk.wait_hidden("#picker", "the picker closed")
        kiosk.wait(lambda d: kiosk.text("#playing-state") == "Swiss Jazz — playing", "Swiss Jazz playing")
        kiosk.wait(lambda d: kiosk.js("const i = document.getElementById('playing-logo'); return !i.hidden && i.naturalWidth") == 8,
                   "the logo of what plays")
        clock.wait_for_card(1)
        self.assertEqual(clock.cli_json("status")["radio"]["source"], "Swiss Jazz")

        # The volume, in steps of 5, as the live state says it.
        before = int(kiosk.text("#volume-value"))
        kiosk.click("#volume-up")
        kiosk.wait(lambda d: kiosk.text("#volume-value") == str(before + 5), "the volume one step up")
        self.assertEqual(clock.cli_json("status")["radio"]["volume"], before + 5)
        kiosk.click("#volume-down")
        kiosk.click("#volume-down")
        kiosk.wait(lambda d: kiosk.text("#volume-value") == str(before - 5), "the volume two steps down")
        self.assertEqual(kiosk.layout_problems(min_target=48), [])
        self.assertFalse(kiosk.js("return document.scrollingElement.scrollHeight > innerHeight"), "the face fits")
        kiosk.screenshot("kiosk-playing")

        # Another station from the picker replaces it.
        kiosk.click("#stations")
        kiosk.click('#picker-list button[data-station]:not([data-station="%d"])' % jazz["id"])
        kiosk.wait(lambda d: kiosk.text("#playing-state").startswith("FIP — "), "FIP instead")
        kiosk.wait(lambda d: kiosk.js("return document.getElementById('playing-logo').hidden"), "no logo for FIP")
        kiosk.click("#play")
        kiosk.wait_hidden("#playing", "the radio stopped")
        self.assertFalse(kiosk.script_ran())
        self.assert_no_script_errors(kiosk)
