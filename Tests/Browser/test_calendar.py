"""Calendars on the pages, in a real Chromium against a real `aubade run`, checked with the real CLI on the same
database: what is on air now and next on the kiosk face and the phone page (a schedule imported with
`aubade program import`), reserving from both, and days off on the phone page (add a date or a range, a refused
range, remove, import a holiday calendar from a local HTTP server) with the next firings saying what is
skipped and why."""

import http.server
import json
import threading
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from harness import HOSTILE_ALARM, Browser, BrowserTest, Clock

ZONE = "Europe/Paris"
# A programme on the other station: markup in its title must stay text on both pages.
HOSTILE_TITLE = HOSTILE_ALARM + " Jazz"


def on_air_schedule(now):
    """A daily schedule around `now` (an aware datetime in the clock's zone): "Le Matin" from an hour before
    now to an hour after it, then "Jazz à FIP" for an hour; both times whole minutes."""
    begin = (now - timedelta(hours=1)).replace(second=0, microsecond=0)
    middle = begin + timedelta(hours=2)
    end = middle + timedelta(hours=1)
    return {"timeZone": ZONE, "programmes": [
        {"id": "matin", "title": "Le Matin", "days": "daily", "start": f"{begin:%H:%M}", "end": f"{middle:%H:%M}"},
        {"id": "jazz", "title": "Jazz à FIP", "days": "daily", "start": f"{middle:%H:%M}", "end": f"{end:%H:%M}"},
    ]}, begin, middle, end


class CalendarPageTests(BrowserTest):
    def programme(self, clock, name):
        return next(p for p in clock.cli_json("program", "list")["programmes"] if p["name"] == name)

    def test_the_kiosk_and_the_phone_show_what_is_on_air_now_and_next(self):
        clock = Clock(self, zone=ZONE)
        # "Other" is saved first, so it is what the kiosk's Play button would play; the next alarm plays FIP,
        # so the face must show FIP's programmes, not Other's, until Other plays.
        clock.cli("station", "add", "--name", "Other", "--url", "http://127.0.0.1:9/other")
        clock.cli("station", "add", "--name", "FIP", "--url", "http://127.0.0.1:9/fip")
        schedule, begin, middle, end = on_air_schedule(datetime.now(ZoneInfo(ZONE)))
        (clock.dir / "fip.json").write_text(json.dumps(schedule))
        clock.cli("program", "import", str(clock.dir / "fip.json"), "--station", "FIP")
        clock.cli("program", "add", "--name", HOSTILE_TITLE, "--begin", f"{begin:%H:%M}", "--end", f"{middle:%H:%M}",
                  "--station", "Other")
        alarm_time = f"{datetime.now(ZoneInfo(ZONE)) + timedelta(hours=12):%H:%M}"  # far from the programmes' hours
        clock.cli("alarm", "add", "--name", "Work", "--time", alarm_time, "--days", "daily", "--source", "FIP")
        clock.start()  # the real time: the schedule was made around it
        expected = clock.cli_json("program", "now", "--station", "FIP")
        self.assertEqual((expected["now"]["name"], expected["next"]["name"]), ("Le Matin", "Jazz à FIP"))
        now_times = f"{begin:%H:%M}–{middle:%H:%M}"
        next_times = f"{middle:%H:%M}–{end:%H:%M}"
        if middle.date() != datetime.now(ZoneInfo(ZONE)).date():
            next_times = f"tomorrow {middle:%H:%M}"  # the run is in the hour before midnight

        kiosk = Browser(self, 800, 480)
        self.open_kiosk(clock, kiosk)
        kiosk.wait(lambda d: kiosk.text("#onair-now-title") == "Le Matin", "the programme on air on the next alarm's station")
        self.assertEqual(kiosk.text("#onair-now-label"), "Now on FIP")
        self.assertEqual(kiosk.text("#onair-now-time"), now_times, "the times in the clock's zone, not the browser's (UTC)")
        self.assertEqual(kiosk.text("#onair-next-label"), "Next")
        self.assertEqual(kiosk.text("#onair-next-time"), next_times)
        self.assertEqual(kiosk.text("#onair-next-title"), "Jazz à FIP")
        self.assertEqual(kiosk.text("#onair-reserve"), "Reserve")
        self.assertEqual(kiosk.layout_problems(min_target=48), [])
        self.assertEqual(self.overlaps(kiosk, ["#warnings", "#clock", "#date", "#next", "#onair", "#controls"]), [])
        self.assertFalse(kiosk.js("return document.scrollingElement.scrollHeight > innerHeight"), "the face fits")
        kiosk.screenshot("kiosk-onair")

        # The toggle reserves the next programme and cancels the reservation, as `aubade program reserve` does.
        kiosk.click("#onair-reserve")
        kiosk.wait(lambda d: kiosk.text("#onair-reserve") == "Reserved ✓", "the next programme reserved")
        self.assertEqual(kiosk.find("#onair-reserve").get_attribute("aria-pressed"), "true")
        self.assertTrue(self.programme(clock, "Jazz à FIP")["reserved"])
        kiosk.click("#onair-reserve")
        kiosk.wait(lambda d: kiosk.text("#onair-reserve") == "Reserve", "the reservation cancelled")
        self.assertFalse(self.programme(clock, "Jazz à FIP")["reserved"])

        # While the radio plays a station picked on the face, the face shows the programmes of the station
        # playing, and everything still fits.
        kiosk.wait(lambda d: kiosk.text("#play") == "Play FIP", "the station to play")
        other = next(s["id"] for s in clock.cli_json("station", "list")["stations"] if s["name"] == "Other")
        kiosk.click("#stations")
        kiosk.click(f'#picker-list button[data-station="{other}"]')
        kiosk.wait(lambda d: kiosk.text("#onair-now-label") == "Now on Other", "the playing station's programme")
        self.assertEqual(kiosk.text("#onair-now-title"), HOSTILE_TITLE)
        self.assertFalse(kiosk.script_ran(), "a programme's title ran as markup on the kiosk")
        kiosk.wait_visible("#playing", "what plays")
        self.assertEqual(self.overlaps(kiosk, ["#warnings", "#clock", "#date", "#next", "#playing", "#onair", "#controls"]), [])
        self.assertFalse(kiosk.js("return document.scrollingElement.scrollHeight > innerHeight"), "the face fits")
        kiosk.wait(lambda d: kiosk.text("#play") == "Stop", "the Stop button")
        kiosk.click("#play")
        kiosk.wait(lambda d: kiosk.text("#onair-now-label") == "Now on FIP", "the next alarm's station again")

        kiosk.resize(720, 1280)
        kiosk.wait(lambda d: kiosk.js("return innerWidth") == 720, "the portrait viewport")
        self.assertTrue(kiosk.visible("#onair"))
        self.assertEqual(kiosk.layout_problems(min_target=48), [])
        self.assertFalse(kiosk.js("return document.scrollingElement.scrollHeight > innerHeight"), "the face fits")

        # The phone: what is on air on each station that has programmes, beside the week's programmes.
        phone = Browser(self, 360, 780, mobile=True)
        self.pair_phone(clock, phone)
        phone.click('#tabs [data-tab="programmes"]')
        fip = '#onair .onair-station[data-station="FIP"]'
        phone.wait(lambda d: phone.text(f"{fip} .onair-row.now .onair-title") == "Le Matin", "FIP's programme on air")
        self.assertEqual(phone.text(f"{fip} .onair-row.now .onair-time"), now_times)
        self.assertEqual(phone.text(f"{fip} .onair-row.next .onair-time"), next_times)
        self.assertEqual(phone.text(f"{fip} .onair-row.next .onair-title"), "Jazz à FIP")
        self.assertEqual(phone.text('#onair .onair-station[data-station="Other"] .onair-row.now .onair-title'), HOSTILE_TITLE)
        self.assertFalse(phone.script_ran(), "a programme's title ran as markup on the phone")
        self.assertEqual(phone.layout_problems(), [])

        # Reserving the next one on the phone: both of its toggles show it, and so does the kiosk once it reads again.
        jazz = self.programme(clock, "Jazz à FIP")
        phone.click(f"{fip} .onair-row.next button")
        listed = f'#programmes li[data-id="{jazz["id"]}"] button'
        phone.wait(lambda d: phone.text(listed) == "Reserved ✓", "the reservation in the week's list")
        self.assertEqual(phone.text(f"{fip} .onair-row.next button"), "Reserved ✓")
        self.assertEqual(phone.find(listed).get_attribute("aria-pressed"), "true")
        self.assertTrue(self.programme(clock, "Jazz à FIP")["reserved"])
        phone.scroll_to("#onair-card")
        phone.screenshot("phone-onair")
        phone.click(listed)
        phone.wait(lambda d: phone.text(f"{fip} .onair-row.next button") == "Reserve", "the cancelled reservation on air")
        self.assertFalse(self.programme(clock, "Jazz à FIP")["reserved"])

        # A reservation made with a reminder lead elsewhere (the CLI) shows its lead once the page reads again.
        clock.cli("program", "reserve", str(jazz["id"]), "--remind", "5m")
        phone.driver.refresh()
        phone.click('#tabs [data-tab="programmes"]')
        phone.wait(lambda d: "chime 5 min before" in phone.text(f'#programmes li[data-id="{jazz["id"]}"]'),
                   "the reminder's lead beside the reserved programme")
        self.assertEqual(phone.text(listed), "Reserved ✓")
        self.assert_no_script_errors(kiosk)
        self.assert_no_script_errors(phone)

    def test_the_face_moves_on_when_the_programme_ends_and_reads_again_on_reconnect(self):
        clock = Clock(self)
        clock.cli("station", "add", "--name", "FIP", "--url", "http://127.0.0.1:9/fip")
        clock.cli("program", "add", "--name", "Early", "--begin", "06:00", "--end", "07:00", "--station", "FIP")
        clock.cli("program", "add", "--name", "Breakfast", "--begin", "07:00", "--end", "09:00", "--station", "FIP")
        # The browser first: its start on a loaded machine must not eat the daemon's 40 s before Early ends.
        kiosk = Browser(self, 800, 480)
        clock.start(fake_time="2031-03-04T06:59:20Z")
        self.open_kiosk(clock, kiosk)
        kiosk.wait(lambda d: kiosk.text("#onair-now-title") == "Early", "the programme on air")
        self.assertEqual(kiosk.text("#onair-next-title"), "Breakfast")
        self.assertEqual(kiosk.text("#onair-next-time"), "07:00–09:00")
        # Nothing but the end of "Early" tells the face to read again: no reload, no other change.
        kiosk.wait(lambda d: kiosk.text("#onair-now-title") == "Breakfast", "the next programme on air once Early ended")
        self.assertEqual(kiosk.text("#onair-now-time"), "07:00–09:00")
        self.assertEqual(kiosk.text("#onair-next-title"), "Early")
        self.assertEqual(kiosk.text("#onair-next-time"), "tomorrow 06:00")

        # The schedule changes while the daemon is away; the face reads it again when it reconnects.
        port = clock.port
        clock.kill()
        kiosk.wait_visible("#reconnecting", "the reconnecting mark")
        breakfast = next(p for p in clock.cli_json("program", "list")["programmes"] if p["name"] == "Breakfast")
        clock.cli("program", "rm", str(breakfast["id"]))
        clock.cli("program", "add", "--name", "Late breakfast", "--begin", "07:00", "--end", "10:00", "--station", "FIP")
        clock.start(fake_time="2031-03-04T07:01:00Z", port=port)
        kiosk.wait_hidden("#reconnecting", "the kiosk reconnected")
        kiosk.wait(lambda d: kiosk.text("#onair-now-title") == "Late breakfast", "the new schedule after reconnecting")
        self.assertEqual(kiosk.text("#onair-now-time"), "07:00–10:00")
        self.assert_no_script_errors(kiosk)

    def test_no_programme_data_hides_the_on_air_lines(self):
        clock = Clock(self)
        clock.cli("station", "add", "--name", "FIP", "--url", "http://127.0.0.1:9/fip")
        clock.start()
        kiosk = Browser(self, 800, 480)
        self.open_kiosk(clock, kiosk)
        kiosk.wait(lambda d: kiosk.text("#play") == "Play FIP", "the stations read")
        kiosk.wait(lambda d: kiosk.js("return document.querySelector('#onair').hidden"), "the on-air lines hidden")
        phone = Browser(self, 360, 780, mobile=True)
        self.pair_phone(clock, phone)
        phone.click('#tabs [data-tab="programmes"]')
        phone.wait_visible("#programmes-empty", "no programmes")
        self.assertFalse(phone.visible("#onair-card"))
        self.assert_no_script_errors(kiosk)
        self.assert_no_script_errors(phone)

    def test_days_off_on_the_phone_are_skipped_by_the_alarms_that_skip_them(self):
        clock = Clock(self)
        clock.cli("alarm", "add", "--name", "Work", "--time", "07:00", "--days", "mon-fri")
        clock.cli("alarm", "add", "--name", "Gym", "--time", "09:00", "--days", "sat,sun")
        holidays = serve_calendar(self, HOLIDAYS)
        clock.start(fake_time="2031-03-03T12:00:00Z")  # a Monday
        phone = Browser(self, 360, 780, mobile=True)
        self.pair_phone(clock, phone)

        # Which alarm skips days off: a weekday alarm does by default, a weekend one does not.
        alarms = {a["name"]: a for a in clock.cli_json("alarm", "list")["alarms"]}
        self.assertEqual((alarms["Work"]["skipDaysOff"], alarms["Gym"]["skipDaysOff"]), (True, False))
        phone.wait(lambda d: "skips days off" in phone.text(f'#alarms li[data-id="{alarms["Work"]["id"]}"]'),
                   "the weekday alarm marked as skipping days off")
        self.assertNotIn("skips days off", phone.text(f'#alarms li[data-id="{alarms["Gym"]["id"]}"]'))
        phone.click(f'#alarms li[data-id="{alarms["Gym"]["id"]}"] .alarm-open')
        phone.wait(lambda d: phone.find("#f-name").get_attribute("value") == "Gym", "the alarm in the editor")
        self.assertFalse(phone.find("#f-skip-days-off").is_selected())
        phone.click("#f-cancel")

        # A day off, added on the phone: in the CLI's list, and the weekday alarm's firing that day is skipped.
        phone.wait_visible("#days-off-empty", "no days off yet")
        self.type_date(phone, "#d-first", "2031-03-04")
        phone.type("#d-name", "Holiday")
        phone.click("#d-add")
        phone.wait(lambda d: "Holiday" in phone.text("#days-off"), "the day off in the list")
        days = clock.cli_json("days-off", "list")["daysOff"]
        self.assertEqual([(d["dates"], d["name"], d.get("source")) for d in days], [("2031-03-04", "Holiday", None)])
        self.assertIn("Tue 4 Mar 2031", phone.text("#days-off"))
        self.assertIn("added by hand", phone.text("#days-off"))
        self.assertEqual(phone.find("#d-first").get_attribute("value"), "", "the form is cleared once saved")
        _, firings = clock.api("GET", "/alarms/next?count=5")
        skipped = [f for f in firings["firings"] if f["skipped"]]
        self.assertEqual([(f["name"], f["reason"]) for f in skipped], [("Work", "skipped: Holiday")])
        shown = f'{skipped[0]["local"]} Work — skipped: Holiday'
        phone.wait(lambda d: shown in phone.text("#firings .skipped"), "the skipped firing and why")

        # A range, with the CLI's form of it; the weekday alarm skips each of its days.
        self.type_date(phone, "#d-first", "2031-03-06")
        self.type_date(phone, "#d-last", "2031-03-07")
        phone.type("#d-name", "Long weekend")
        phone.click("#d-add")
        phone.wait(lambda d: "Long weekend" in phone.text("#days-off"), "the range in the list")
        self.assertIn(("2031-03-06..2031-03-07", "Long weekend"),
                      [(d["dates"], d["name"]) for d in clock.cli_json("days-off", "list")["daysOff"]])
        self.assertIn("Thu 6 Mar – Fri 7 Mar 2031", phone.text("#days-off"))
        phone.wait(lambda d: phone.text("#firings").count("skipped: Long weekend") == 2, "both days of the range skipped")
        phone.scroll_to("#next-card")
        phone.screenshot("phone-next-skipped")

        # A range that ends before it begins: the CLI's sentence beside the form, what was typed kept, nothing saved.
        refused = clock.cli("days-off", "add", "2031-03-20..2031-03-18", "--name", "Backwards", check=False)
        self.assertEqual(refused.returncode, 2)
        self.type_date(phone, "#d-first", "2031-03-20")
        self.type_date(phone, "#d-last", "2031-03-18")
        phone.type("#d-name", "Backwards")
        phone.click("#d-add")
        phone.wait_visible("#day-off-error", "the refusal of a backwards range")
        self.assertEqual("aubade: " + phone.text("#day-off-error"), refused.stderr.strip())
        self.assertEqual([phone.find(css).get_attribute("value") for css in ("#d-first", "#d-last", "#d-name")],
                         ["2031-03-20", "2031-03-18", "Backwards"])
        self.assertEqual(len(clock.cli_json("days-off", "list")["daysOff"]), 2)

        # A public-holiday calendar imported from its address: its days are listed with where they came from.
        phone.type("#d-url", holidays)
        phone.click("#d-import")
        phone.wait_visible("#holidays-done", "what the import did")
        self.assertIn("Imported 1 day off", phone.text("#holidays-done"))
        phone.wait(lambda d: "Easter Monday" in phone.text("#days-off"), "the imported holiday in the list")
        imported = [d for d in clock.cli_json("days-off", "list")["daysOff"] if d["name"] == "Easter Monday"]
        self.assertEqual([(d["dates"], d["source"]) for d in imported], [("2031-04-14", holidays)])
        self.assertIn(f"from {holidays}", phone.text(f'#days-off li[data-id="{imported[0]["id"]}"]'))
        self.assertEqual(phone.layout_problems(), [])
        phone.scroll_to("#days-off-card")
        phone.screenshot("phone-days-off")

        # Removed with the two-step Remove: gone from the CLI's list, and the alarm rings that day again.
        holiday = phone.wait_visible('#days-off li[data-dates="2031-03-04"] button')
        holiday.click()
        self.assertEqual(len(clock.cli_json("days-off", "list")["daysOff"]), 3, "one tap removes nothing")
        phone.click('#days-off li[data-dates="2031-03-04"] button')
        phone.wait(lambda d: "Holiday" not in phone.text("#days-off"), "the day off gone from the list")
        self.assertNotIn("2031-03-04", [d["dates"] for d in clock.cli_json("days-off", "list")["daysOff"]])
        phone.wait(lambda d: "skipped: Holiday" not in phone.text("#firings"), "the firing no longer skipped")
        _, firings = clock.api("GET", "/alarms/next?count=5")
        self.assertEqual([f["reason"] for f in firings["firings"] if f["skipped"]], ["skipped: Long weekend"] * 2)

        # The weekday alarm set, on the phone, to ring on days off too.
        phone.click(f'#alarms li[data-id="{alarms["Work"]["id"]}"] .alarm-open')
        phone.wait(lambda d: phone.find("#f-name").get_attribute("value") == "Work", "the alarm in the editor")
        self.assertTrue(phone.find("#f-skip-days-off").is_selected())
        phone.click("label.switch-field:has(#f-skip-days-off)")
        phone.click("#f-save")
        phone.wait(lambda d: "skips days off" not in phone.text(f'#alarms li[data-id="{alarms["Work"]["id"]}"]'),
                   "the alarm no longer skipping days off")
        work = next(a for a in clock.cli_json("alarm", "list")["alarms"] if a["name"] == "Work")
        self.assertFalse(work["skipDaysOff"])
        phone.wait(lambda d: "skipped" not in phone.text("#firings"), "no firing skipped any more")
        self.assert_no_script_errors(phone)

    def overlaps(self, browser, parts):
        """The pairs of `parts` (CSS selectors, top to bottom) whose boxes overlap, or that leave the viewport."""
        return browser.js("""
            const boxes = arguments[0].map((css) => [css, document.querySelector(css).getBoundingClientRect()]);
            const problems = [];
            for (let i = 1; i < boxes.length; i++) {
              if (boxes[i][1].top < boxes[i - 1][1].bottom - 1) problems.push(`${boxes[i - 1][0]} overlaps ${boxes[i][0]}`);
            }
            for (const [css, box] of boxes) if (box.bottom > innerHeight + 1) problems.push(`${css} is below the screen`);
            return problems;""", parts)

    def type_date(self, browser, css, iso):
        """Types `iso` (YYYY-MM-DD) into a date field as a person does: in the order of the field's own format,
        which follows Chromium's locale (dd/mm/yyyy or mm/dd/yyyy), tried in turn."""
        year, month, day = iso.split("-")
        field = browser.wait_visible(css)
        browser.js("arguments[0].scrollIntoView({block: 'center'})", field)
        for order in ((day, month, year), (month, day, year)):
            field.clear()
            field.send_keys(*order)
            if field.get_attribute("value") == iso:
                return
        self.fail(f"{iso} could not be typed into {css}: it shows {field.get_attribute('value')!r}")


HOLIDAYS = "\r\n".join([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Aubade browser tests//EN",
    "BEGIN:VEVENT", "UID:easter-monday-2031@aubade.test", "DTSTAMP:20310101T000000Z",
    "DTSTART;VALUE=DATE:20310414", "DTEND;VALUE=DATE:20310415", "SUMMARY:Easter Monday", "END:VEVENT",
    "END:VCALENDAR", ""])


def serve_calendar(test, text):
    """Serves `text` as text/calendar on a free port of 127.0.0.1 until the test ends; answers its URL."""
    body = text.encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the name http.server calls
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    test.addCleanup(server.server_close)
    test.addCleanup(server.shutdown)
    return f"http://127.0.0.1:{server.server_port}/holidays.ics"
