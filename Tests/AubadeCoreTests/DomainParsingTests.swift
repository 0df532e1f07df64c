import AubadeCore
import Foundation
import Testing

@Suite("Parsing what users type")
struct DomainParsingTests {
    @Test(arguments: [("06:45", 6, 45), ("6:05", 6, 5), ("00:00", 0, 0), ("23:59", 23, 59), (" 07:30 ", 7, 30)])
    func validTimes(text: String, hour: Int, minute: Int) throws {
        let t = try LocalTime(parsing: text)
        #expect(t.hour == hour && t.minute == minute)
        #expect(try LocalTime(parsing: t.description) == t)
    }

    @Test(arguments: ["25:61", "24:00", "12:60", "7", "07:5", "-1:30", "ab:cd", "", "12:30:00", "1２:30", "+7:30"])
    func invalidTimes(text: String) {
        #expect(throws: ValidationError.self) { try LocalTime(parsing: text) }
    }

    @Test func invalidTimeSentenceNamesTheInput() {
        let error = #expect(throws: ValidationError.self) { try LocalTime(parsing: "25:61", field: "Alarm time") }
        #expect(error?.message == "Alarm time '25:61' is not a valid time; use HH:MM from 00:00 to 23:59.")
    }

    @Test(arguments: ["2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "26-01-01", "2026/01/01", ""])
    func invalidDates(text: String) {
        #expect(throws: ValidationError.self) { try LocalDate(parsing: text) }
    }

    @Test func leapDayAndWeekdayAgreeWithFoundation() throws {
        #expect(try LocalDate(parsing: "2028-02-29").day == 29)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var date = try LocalDate(parsing: "1999-12-25")
        for _ in 0..<800 {
            let instant = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: 12))!
            #expect(date.weekday.gregorianCalendarWeekday == calendar.component(.weekday, from: instant))
            date = date.adding(days: 1)
        }
        #expect(date == (try LocalDate(parsing: "2002-03-04")))
    }

    @Test(arguments: [
        ("mon-fri", Weekdays.workdays), ("weekdays", .workdays), ("sat,sun", .weekend), ("weekends", .weekend),
        ("daily", .all), ("Mon, Wed , FRI", Weekdays([.monday, .wednesday, .friday])),
        ("fri-mon", Weekdays([.friday, .saturday, .sunday, .monday])), ("tuesday", Weekdays(.tuesday)),
        ("thurs", Weekdays(.thursday)), ("sun-sun", Weekdays(.sunday)),
    ])
    func weekdaySets(text: String, expected: Weekdays) throws {
        let days = try Weekdays(parsing: text)
        #expect(days == expected)
        #expect(try Weekdays(parsing: days.description) == days)
    }

    @Test(arguments: ["funday", "", "mon-", "-fri", "mon-fri-sat", "m"])
    func unknownDays(text: String) {
        #expect(throws: ValidationError.self) { try Weekdays(parsing: text) }
    }

    @Test func onceNeedsNoDateAndRefusesADateOnRepeats() throws {
        let fallback = try LocalDate(parsing: "2026-11-22")
        #expect(try Recurrence(days: "once", date: nil) { fallback } == .once(fallback))
        #expect(try Recurrence(days: "ONCE", date: "2026-12-24") { fallback } == .once(try LocalDate(parsing: "2026-12-24")))
        #expect(throws: ValidationError.self) { try Recurrence(days: "daily", date: "2026-12-24") { fallback } }
        let stored = Recurrence.weekly(.workdays)
        #expect(try Recurrence(repeated: stored.repeatedText, onceDate: nil) == stored)
    }

    @Test(arguments: [("15m", 900), ("90s", 90), ("1h", 3600), ("1h30m", 5400), ("0s", 0), ("2m30s", 150), ("1H", 3600)])
    func durations(text: String, seconds: Int) throws {
        #expect(try DurationText.seconds(parsing: text, field: "Duration") == seconds)
        #expect(try DurationText.seconds(parsing: DurationText.format(seconds), field: "D") == seconds)
    }

    @Test(arguments: ["15", "", "m", "15x", "1.5m", "-5m", "9999999h"])
    func badDurations(text: String) {
        #expect(throws: ValidationError.self) { try DurationText.seconds(parsing: text, field: "Duration") }
    }

    @Test(arguments: [
        "http://radio.example/stream.mp3", "https://icecast.example:8443/live", "HTTP://UPPER.example/",
        "http://192.168.1.20:8000/radio", "http://[2001:db8::1]:8000/x",
    ])
    func acceptedStreamURLs(text: String) throws {
        #expect(try StreamURL(parsing: text).text == text)
    }

    @Test(arguments: [
        "ftp://radio.example/x", "file:///etc/passwd", "http://user:pw@radio.example/", "http://user@radio.example/",
        "http:///nohost", "radio.example/stream", "http://radio.example/a b", "",
        "https://radio.example/" + String(repeating: "a", count: 2048), "javascript:alert(1)",
    ])
    func refusedStreamURLs(text: String) {
        #expect(throws: ValidationError.self) { try StreamURL(parsing: text) }
    }

    @Test func soundSourcesRoundTripAndResolveNames() throws {
        let fip = try Station(id: 7, name: "FIP", url: try StreamURL(parsing: "https://fip.example/live"))
        let lookup: (String) throws -> Station? = { $0.lowercased() == "fip" ? fip : nil }
        #expect(try SoundSource(userText: "tone", stationNamed: lookup) == .tone)
        #expect(try SoundSource(userText: "fip", stationNamed: lookup) == .station(id: 7))
        let url = try SoundSource(userText: "https://x.example/s", stationNamed: lookup)
        #expect(url == .stream(try StreamURL(parsing: "https://x.example/s")))
        for source in [SoundSource.tone, .station(id: 7), url] {
            #expect(try SoundSource(storageText: source.storageText) == source)
        }
        #expect(throws: (any Error).self) { try SoundSource(userText: "Nowhere FM", stationNamed: lookup) }
        #expect(throws: (any Error).self) { try SoundSource(userText: "ftp://x.example/s", stationNamed: lookup) }
        // A bracketed host must be an IPv6 address: one '::' at most, eight groups at most.
        for good in ["http://[::1]:8000/s", "http://[2001:db8::1]/live", "https://[1:2:3:4:5:6:7:8]/"] {
            #expect(throws: Never.self, "\(good)") { try StreamURL(parsing: good) }
        }
        for bad in ["http://[e0A:e:::b50E:4:8]/s", "http://[1::2::3]/s", "http://[1:2:3:4:5:6:7:8:9]/s", "http://[]/s"] {
            #expect(throws: ValidationError.self, "\(bad)") { try StreamURL(parsing: bad) }
        }
        #expect(throws: (any Error).self) { try SoundSource(userText: "", stationNamed: lookup) }
    }

    @Test func stationNamesThatWouldBeAmbiguousAreRefused() throws {
        let url = try StreamURL(parsing: "https://x.example/s")
        #expect(throws: ValidationError.self) { try Station(name: "Tone", url: url) }
        #expect(throws: ValidationError.self) { try Station(name: "http://x", url: url) }
        #expect(throws: ValidationError.self) { try Station(name: "  ", url: url) }
        #expect(try Station(name: " Radio Paradise ", url: url).name == "Radio Paradise")
    }
}
