import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeDaemon
import AubadeStore
import AubadeTesting
import Foundation
import Synchronization
import Testing

/// Calendar sources in the running clock over its SQLite file and the daemon's calendar loader, the downloads
/// answered from an in-memory folder as an HTTP server on 127.0.0.1 would answer them: an import from a URL, the
/// scheduled refresh that picks up a change and keeps reservations, a failing refresh that keeps the last good
/// copy (and says so), Wi-Fi-only refusing the download, and the expansion renewed from the cached copy without
/// the network.
@Suite("Calendars: URL sources refreshed, cached, Wi-Fi-only")
struct CalendarRefreshTests {
    /// A folder served over HTTP, without the network: the loader's download reads it as `python3 -m http.server`
    /// would answer (a missing file is HTTP 404, in curl's sentence).
    final class Served: Sendable {
        private let files = Mutex<[String: String]>([:])
        let base = "http://calendars.test:8080"

        init() async throws {}

        func put(_ name: String, _ text: String) throws { files.withLock { $0[name] = text } }

        func remove(_ name: String) throws { _ = files.withLock { $0.removeValue(forKey: name) } }

        /// The download the rig's `CalendarLoader` uses.
        var download: CalendarLoader.Download {
            { [self] url, maxBytes, _ throws(CalendarFetchError) in
                let name = String(url.text.dropFirst(base.count + 1))
                guard url.text.hasPrefix(base + "/"), let text = files.withLock({ $0[name] }) else {
                    throw CalendarFetchError(.failed, "The server answered HTTP 404 (\(url.text)).")
                }
                guard text.utf8.count <= maxBytes else {
                    throw CalendarFetchError(
                        .failed, "\(url.text) sends more than \(maxBytes >> 20) MiB; that is not a calendar this clock reads.")
                }
                return Array(text.utf8)
            }
        }
    }

    static func schedule(jazzAt begin: String) -> String {
        """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Aubade tests//Refresh//EN\r
        BEGIN:VEVENT\r
        UID:morning@refresh.test\r
        DTSTART;TZID=Europe/Berlin:20270301T070000\r
        DTEND;TZID=Europe/Berlin:20270301T090000\r
        RRULE:FREQ=DAILY\r
        SUMMARY:Morning\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:jazz@refresh.test\r
        DTSTART;TZID=Europe/Berlin:20270302T\(begin)00\r
        DURATION:PT1H\r
        RRULE:FREQ=WEEKLY;COUNT=10\r
        SUMMARY:Jazz\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
    }

    static let start = try! Date("2027-03-01T05:00:00Z", strategy: .iso8601)

    static func rig(_ served: Served, calendars: CalendarOptions = CalendarOptions()) async throws -> SQLiteRig {
        let rig = try SQLiteRig(start: start, calendars: calendars, served: served) { store in
            _ = try store.insert(try Station(name: "FIP", url: StreamURL(parsing: "http://radio.example/fip")))
        }
        await rig.start()
        return rig
    }

    func warnings(_ rig: SQLiteRig) async throws -> [String] {
        guard case .status(let status) = try await rig.clock.handle(.status) else { return [] }
        return status.warnings
    }

    @Test func aURLSourceIsRefreshedCachedAndKeepsItsLastGoodCopyWhenTheServerFails() async throws {
        let served = try await Served()
        try served.put("radio.ics", Self.schedule(jazzAt: "2200"))
        let rig = try await Self.rig(served)
        let url = try StreamURL(parsing: served.base + "/radio.ics")

        let first = try await rig.clock.importCalendar(from: url, kind: .programmes, station: "FIP")
        guard case .imported(let summary) = first.outcome else { Issue.record("no import"); return }
        #expect(summary.count == 2 && summary.added == 2 && summary.location == url.text)
        let source = try #require(try rig.store.calendarSources().first)
        let cache = try #require(rig.store.calendarCache.cachedName(sourceID: source.id))
        #expect(String(decoding: try rig.store.calendarCache.read(cache), as: UTF8.self) == Self.schedule(jazzAt: "2200"))
        let jazz = try #require(try rig.store.programmes().first { $0.name == "Jazz" })
        try await rig.edit(.reserveProgramme(id: jazz.id!, reserved: true, remindSeconds: 300))

        // Nothing is due before the refresh interval; then the changed calendar is fetched and imported.
        _ = await rig.clock.refreshCalendars()
        #expect(rig.lines.all.filter { $0.contains("\"calendar\"") }.isEmpty, "not due yet")
        try served.put("radio.ics", Self.schedule(jazzAt: "2230"))
        rig.time.advance(by: .seconds(86_400 + 60))
        _ = await rig.clock.refreshCalendars()
        let moved = try #require(try rig.store.programmes().first { $0.name == "Jazz" })
        #expect(
            try moved.id == jazz.id && moved.begin == LocalTime(parsing: "22:30") && moved.reserved && moved.remindSeconds == 300)
        #expect(String(decoding: try rig.store.calendarCache.read(cache), as: UTF8.self) == Self.schedule(jazzAt: "2230"))

        // The server fails: the warning says so, and the programmes and the cached copy stay the last good ones.
        try served.remove("radio.ics")
        rig.time.advance(by: .seconds(86_400 + 60))
        _ = await rig.clock.refreshCalendars()
        let warning = try #require(try await warnings(rig).first { $0.contains("was not refreshed") })
        #expect(warning.contains(url.text) && warning.contains("HTTP 404"), "\(warning)")
        #expect(try rig.store.programmes().first { $0.name == "Jazz" }?.begin == (try LocalTime(parsing: "22:30")))
        #expect(String(decoding: try rig.store.calendarCache.read(cache), as: UTF8.self) == Self.schedule(jazzAt: "2230"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: rig.store.calendarCache.folder).filter {
                $0.hasPrefix("incoming-")
            }.isEmpty)

        // It comes back: the next refresh works and the warning goes.
        try served.put("radio.ics", Self.schedule(jazzAt: "2230"))
        rig.time.advance(by: .seconds(86_400 + 60))
        _ = await rig.clock.refreshCalendars()
        #expect(try await warnings(rig).allSatisfy { !$0.contains("was not refreshed") })
        #expect(rig.lines.all.contains { $0.contains("\"calendar\"") && $0.contains("has not changed") })
    }

    @Test func wifiOnlyRefusesTheDownloadAndTheRefresh() async throws {
        let served = try await Served()
        try served.put("radio.ics", Self.schedule(jazzAt: "2200"))
        let rig = try await Self.rig(served)
        let url = try StreamURL(parsing: served.base + "/radio.ics")
        _ = try await rig.clock.importCalendar(from: url, kind: .programmes, station: "FIP")

        try await rig.edit(.setSettings([SettingChange(key: "isWifi", value: .bool(true))]))
        rig.network.set(ClockRig.wired)
        do {
            _ = try await rig.clock.importCalendar(from: url, kind: .programmes, station: "FIP")
            Issue.record("downloaded over a wired route with Wi-Fi-only on")
        } catch {
            #expect(error.kind == .refused && error.message.hasPrefix("The calendar is not downloaded: Wi-Fi-only mode is on"))
        }
        try served.put("radio.ics", Self.schedule(jazzAt: "2230"))
        rig.time.advance(by: .seconds(86_400 + 60))
        _ = await rig.clock.refreshCalendars()
        #expect(try await warnings(rig).contains { $0.contains("was not refreshed: Wi-Fi-only mode is on") })
        #expect(
            try rig.store.programmes().first { $0.name == "Jazz" }?.begin == (try LocalTime(parsing: "22:00")), "nothing fetched")

        rig.network.set(ClockRig.wifi)
        rig.time.advance(by: .seconds(86_400 + 60))
        _ = await rig.clock.refreshCalendars()
        #expect(try rig.store.programmes().first { $0.name == "Jazz" }?.begin == (try LocalTime(parsing: "22:30")))
    }

    @Test func theExpansionIsRenewedFromTheCachedCopyWithoutTheNetwork() async throws {
        let served = try await Served()
        try served.put("radio.ics", Self.schedule(jazzAt: "2200"))
        let rig = try await Self.rig(served, calendars: CalendarOptions(refresh: .seconds(30 * 86_400), horizonDays: 20))
        _ = try await rig.clock.importCalendar(
            from: try StreamURL(parsing: served.base + "/radio.ics"), kind: .programmes, station: "FIP")
        let before = try #require(try rig.store.calendarSources().first?.expandedThrough)
        #expect(before.description == "2027-03-21")
        #expect(try rig.store.programmes().first { $0.name == "Morning" }?.dates?.last == before)

        try served.remove("radio.ics")  // the network has nothing to give: the copy is enough
        rig.time.advance(by: .seconds(11 * 86_400))
        _ = await rig.clock.refreshCalendars()
        let after = try #require(try rig.store.calendarSources().first?.expandedThrough)
        #expect(after.description == "2027-04-01")
        let morning = try #require(try rig.store.programmes().first { $0.name == "Morning" })
        #expect(
            morning.dates?.first?.description == "2027-03-11" && morning.dates?.last == after,
            "past dates dropped, new ones added")
        let left = try await warnings(rig)
        #expect(left.isEmpty, "\(left)")
    }
}
