import AubadeCore
import AubadeTesting
import Foundation
import GRDB
import Testing

@testable import AubadeStore

/// Schema version 4 (issue 13): imported programmes replaced by source with their reservations kept, alarms
/// that follow a programme, days off — each change one transaction (R26), the backup copy carrying what an
/// alarm needs (R27), every past version migrated (R28).
@Suite("Store: calendars — imports, programme-tied alarms, days off")
struct StoreCalendarTests {
    static let zone = TimeZone(identifier: "Europe/Berlin")!
    static let now = Date(timeIntervalSince1970: 1_805_000_000)  // 2027-03-14

    static func t(_ s: String) throws -> LocalTime { try LocalTime(parsing: s) }
    static func d(_ s: String) throws -> LocalDate { try LocalDate(parsing: s) }

    /// A station calendar's rows as AubadeCalendar reads them: keys a, b, c.
    static func calendar(
        _ rows: [(key: String, name: String, begin: String, end: String, dates: [String])],
        hash: String, location: String = "https://radio.test/schedule.ics"
    ) throws -> CalendarImport {
        var programmes: [Programme] = []
        for r in rows {
            var p = Programme(
                name: r.name, begin: try t(r.begin), end: try t(r.end), timeZoneID: "Europe/Berlin", importKey: r.key)
            let dates = try r.dates.map(d)
            if dates.count == 1 { p.date = dates[0] } else { p.dates = dates }
            programmes.append(p)
        }
        return CalendarImport(
            kind: .programmes, location: location, station: "FIP", format: "ics", contentHash: hash,
            programmes: programmes)
    }

    static func fixture() throws -> StoreFixture {
        let f = try StoreFixture()
        _ = try f.store.insert(try Station(name: "FIP", url: StreamURL(parsing: "http://radio.example/fip")))
        return f
    }

    func apply(_ f: StoreFixture, _ edit: ClockEdit) throws(StoreError) -> EditOutcome {
        try f.store.apply(edit, zone: Self.zone, now: Self.now)
    }

    func imported(_ f: StoreFixture, _ c: CalendarImport) throws -> ImportSummary {
        guard case .imported(let s) = try apply(f, .importCalendar(c)) else { throw StoreError.invalid("not an import") }
        return s
    }

    @Test func aReimportKeepsIdsAndReservationsOfProgrammesFoundAgain() throws {
        let f = try Self.fixture()
        let first = try imported(
            f,
            try Self.calendar(
                [
                    ("a", "Morning", "07:00", "09:00", ["2027-03-15", "2027-03-16"]),
                    ("b", "Jazz", "22:00", "23:00", ["2027-03-19", "2027-03-26"]),
                    ("c", "Talk", "12:00", "13:00", ["2027-03-17"]),
                ], hash: "one"))
        #expect(first.count == 3 && first.added == 3 && !first.unchanged)
        let byKey = Dictionary(try f.store.programmes().map { ($0.importKey!, $0) }, uniquingKeysWith: { a, _ in a })
        let jazz = try #require(byKey["b"])
        #expect(jazz.stationID != nil && jazz.importSource == "https://radio.test/schedule.ics")
        _ = try apply(f, .reserveProgramme(id: jazz.id!, reserved: true, remindSeconds: 300))

        let second = try imported(
            f,
            try Self.calendar(
                [
                    ("a", "Morning", "07:00", "09:00", ["2027-03-15", "2027-03-16"]),
                    ("b", "Jazz at Night", "22:30", "23:30", ["2027-03-19", "2027-03-26"]),
                    ("d", "News", "08:00", "08:15", ["2027-03-18"]),
                ], hash: "two"))
        #expect(second.added == 1 && second.updated == 2 && second.removed == 1 && second.reservationsKept == 1)
        let after = Dictionary(try f.store.programmes().map { ($0.importKey!, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(Set(after.keys) == ["a", "b", "d"])
        let moved = try #require(after["b"])
        #expect(moved.id == jazz.id && moved.reserved && moved.remindSeconds == 300)
        #expect(try moved.name == "Jazz at Night" && moved.begin == Self.t("22:30"))
    }

    @Test func aTiedAlarmMovesWithItsProgrammeAndKeepsItsLastTimeWhenItIsGone() throws {
        let f = try Self.fixture()
        _ = try imported(f, try Self.calendar([("b", "Jazz", "06:30", "07:30", ["2027-03-19", "2027-03-26"])], hash: "one"))
        let jazz = try #require(try f.store.programmes().first)
        guard case .alarm(let alarm) = try apply(f, .addAlarm(AlarmPatch(atProgramme: String(jazz.id!)))) else {
            Issue.record("no alarm")
            return
        }
        #expect(try alarm.name == "Jazz" && alarm.time == Self.t("06:30") && alarm.timeZoneID == "Europe/Berlin")
        let airings = try ["2027-03-19", "2027-03-26"].map(Self.d)
        #expect(alarm.recurrence == .dates(airings) && alarm.programme?.id == jazz.id)
        // Its time is the programme's: setting it is refused until untied.
        #expect(throws: StoreError.self) { try apply(f, .editAlarm(id: alarm.id!, AlarmPatch(time: "05:00"))) }

        let moved = try imported(
            f, try Self.calendar([("b", "Jazz", "07:00", "08:00", ["2027-03-19", "2027-04-02"])], hash: "two"))
        #expect(moved.alarmsMoved == [alarm.id!])
        let following = try f.store.alarm(id: alarm.id!)
        let newAirings = try ["2027-03-19", "2027-04-02"].map(Self.d)
        #expect(try following.time == Self.t("07:00") && following.recurrence == .dates(newAirings))

        let gone = try imported(f, try Self.calendar([("x", "Other", "09:00", "10:00", ["2027-03-20"])], hash: "three"))
        #expect(gone.alarmsOrphaned == [alarm.id!])
        let orphan = try f.store.alarm(id: alarm.id!)
        #expect(
            try orphan.programme?.gone == true && orphan.time == Self.t("07:00") && orphan.enabled,
            "it keeps ringing at the programme's last known time")
        let warning = try #require(try f.store.events().first { $0.kind == HistoryKind.warning.rawValue })
        #expect(warning.detail.contains("The programme Jazz") && warning.detail.contains("is gone"))
        // Untied, it takes a time of its own again.
        guard case .alarm(let untied) = try apply(f, .editAlarm(id: alarm.id!, AlarmPatch(days: "mon-fri", atProgramme: "none")))
        else { return }
        #expect(untied.programme == nil && untied.recurrence == .weekly(.workdays))
    }

    @Test func theSameBytesWriteNothingAndABadCalendarChangesNothing() throws {
        let f = try Self.fixture()
        let c = try Self.calendar([("a", "Morning", "07:00", "09:00", ["2027-03-15", "2027-03-16"])], hash: "one")
        _ = try imported(f, c)
        let before = try f.store.queue.read { db in try Int.fetchOne(db, sql: "SELECT total_changes()") }
        let again = try imported(f, c)
        #expect(again.unchanged && again.count == 1)
        #expect(try f.store.queue.read { db in try Int.fetchOne(db, sql: "SELECT total_changes()") } == before)

        let programmes = try f.store.programmes()
        var twice = try Self.calendar(
            [("a", "Morning", "07:00", "09:00", ["2027-03-15"]), ("a", "Other", "10:00", "11:00", ["2027-03-15"])],
            hash: "two")
        #expect(throws: StoreError.invalid("Two programmes of the calendar share the key 'a'; each needs its own UID.")) {
            try apply(f, .importCalendar(twice))
        }
        twice.station = "Nowhere"
        #expect(throws: StoreError.invalid("No station is named 'Nowhere'; see 'aubade station list'.")) {
            try apply(f, .importCalendar(twice))
        }
        #expect(try f.store.programmes() == programmes, "nothing half-imported")
    }

    @Test func daysOffAreTypedImportedReplacedAndRemoved() throws {
        let f = try Self.fixture()
        guard case .dayOff(let typed) = try apply(f, .addDayOff(DayOffFields(dates: "2027-08-09..2027-08-20", name: "Away")))
        else { return }
        #expect(typed.rangeText == "2027-08-09..2027-08-20" && typed.importSource == nil)
        #expect(
            throws: StoreError.unprocessable(
                "The day off ends (2027-08-01) before it begins (2027-08-09); give the earlier date first.")
        ) {
            try apply(f, .addDayOff(DayOffFields(dates: "2027-08-09..2027-08-01")))
        }
        let holidays = CalendarImport(
            kind: .daysOff, location: "/etc/holidays.ics", format: "ics", contentHash: "h1",
            daysOff: [
                DayOff(
                    first: try Self.d("2027-12-24"), last: try Self.d("2027-12-26"), name: "Christmas", importKey: "x@2027-12-24"),
                DayOff(
                    first: try Self.d("2027-01-01"), last: try Self.d("2027-01-01"), name: "New Year", importKey: "n@2027-01-01"),
            ])
        let first = try imported(f, holidays)
        #expect(first.count == 2 && first.kind == .daysOff)
        var next = holidays
        next.contentHash = "h2"
        next.daysOff.removeLast()
        let second = try imported(f, next)
        #expect(second.removed == 1 && second.updated == 1)
        #expect(try f.store.daysOff().map(\.name) == ["Away", "Christmas"], "the typed day off stays")
        guard case .dayOffRemoved(let removed) = try apply(f, .removeDayOff(id: typed.id!)) else { return }
        #expect(try removed.name == "Away" && f.store.daysOff().map(\.name) == ["Christmas"])
        #expect(try f.store.calendarSources().map(\.location) == ["/etc/holidays.ics"])
    }

    @Test func theBackupCopyCarriesDaysOffAndFollowedProgrammesAndAFormat3CopyStillLoads() throws {
        let f = try Self.fixture()
        _ = try imported(
            f,
            try Self.calendar(
                [
                    ("b", "Jazz", "06:30", "07:30", ["2027-03-19", "2027-03-26"]),
                    ("c", "Talk", "12:00", "13:00", ["2027-03-17"]),
                ], hash: "one"))
        let jazz = try #require(try f.store.programmes().first { $0.importKey == "b" })
        _ = try apply(f, .addAlarm(AlarmPatch(atProgramme: String(jazz.id!))))
        _ = try apply(f, .addAlarm(AlarmPatch(name: "Work", time: "06:45", days: "mon-fri")))
        _ = try apply(f, .addDayOff(DayOffFields(dates: "2027-12-24", name: "Christmas Eve")))
        let copy = try ScheduleSnapshot(databasePath: f.path).load()
        #expect(copy.formatVersion == 4 && copy.daysOff.map(\.name) == ["Christmas Eve"])
        #expect(copy.programmes.map(\.name) == ["Jazz"], "the programme an alarm follows, not every programme")
        #expect(copy.alarms.first { $0.name == "Work" }?.skipDaysOff == true, "a new weekday alarm skips days off")
        #expect(copy.alarms.first { $0.name == "Jazz" }?.programme?.id == jazz.id)

        // The copy of a clock before version 4: no days off, no new alarm columns.
        let path = f.path + ".schedule.json"
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        object["formatVersion"] = 3
        object["daysOff"] = nil
        var clocks = try #require(object["clocks"] as? [[String: Any]])
        for i in clocks.indices {
            for key in ["skipDaysOff", "airDates", "programId", "programName", "programGone"] { clocks[i][key] = nil }
        }
        object["clocks"] = clocks.filter { $0["clockName"] as? String == "Work" }
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        let old = try ScheduleSnapshot(databasePath: f.path).load()
        #expect(old.formatVersion == 3 && old.daysOff.isEmpty && old.alarms.map(\.name) == ["Work"])
        #expect(old.alarms.first?.skipDaysOff == false, "an older copy's alarms skip nothing")
    }

    @Test(arguments: Array(1..<Schema.latestVersion))
    func aFileOfEveryPastVersionGainsTheCalendarTables(version: Int) throws {
        let dir = try TemporaryDirectory()
        let path = try StoreMigrationAndTokenTests.file(at: version, in: dir)
        let store = try Store.open(path: path)
        defer { store.close() }
        let tables = try store.queue.read { db in (try db.tableExists("daysOff"), try db.tableExists("calendarSources")) }
        #expect(tables.0 && tables.1)
        let alarm = try #require(try store.alarms().first)
        #expect(!alarm.skipDaysOff && alarm.programme == nil, "a migrated alarm keeps ringing on every one of its days")
        #expect(try store.daysOff().isEmpty && store.calendarSources().isEmpty)
        _ = try store.insert(DayOff(first: try Self.d("2027-12-24"), last: try Self.d("2027-12-24"), name: "Eve"))
        #expect(try store.daysOff().count == 1)
    }
}
