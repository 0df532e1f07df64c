import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import Testing

/// The in-memory test store (`MemoryClockStore`) against the SQLite store (`SQLiteClockStore`): the same edits,
/// in the same order, on both — the same outcomes, the same refusals in the same sentences, the same clock
/// loaded afterwards. What holds here lets the in-process tests of the running clock trust the fake's edits.
@Suite("In-memory store: the SQLite store's edits, outcomes and sentences")
struct MemoryStoreParityTests {
    static let now = Date(timeIntervalSince1970: 1_795_503_000)  // Tuesday 2026-11-24 06:50 UTC

    static func programme(_ key: String, _ name: String, begin: String) throws -> Programme {
        Programme(
            name: name, begin: try LocalTime(parsing: begin), end: try LocalTime(parsing: "23:00"),
            weekday: .wednesday, importKey: key)
    }

    static func calendar(hash: String, _ programmes: [Programme]) -> CalendarImport {
        CalendarImport(
            kind: .programmes, location: "http://radio.example/week.ics", station: "FIP", format: "ics",
            contentHash: hash, programmes: programmes)
    }

    /// What each store answered to an edit: its outcome, or its refusal's sentence.
    static func answer(_ store: any ClockStore, _ edit: ClockEdit) -> String {
        do throws(StoreError) {
            return "\(try store.apply(edit, zone: .gmt, now: now))"
        } catch {
            return "refused: \(error) — \(error.description)"
        }
    }

    @Test func everyEditIsAnsweredAsTheSQLiteStoreAnswersIt() throws {
        let dir = try TemporaryDirectory("parity")
        let sqlite = SQLiteClockStore(try Store.open(path: dir.file("aubade.sqlite"), now: { Self.now }))
        let memory = MemoryClockStore(now: { Self.now })
        let edits: [ClockEdit] = [
            .addStation(StationFields(name: "FIP", url: "http://radio.example/fip")),
            .addStation(StationFields(name: "fip", url: "http://radio.example/fip2")),
            .addStation(StationFields(name: "Jazz", url: "not a url")),
            .addAlarm(AlarmPatch(name: "Work", time: "07:00", days: "daily", source: "FIP")),
            .addAlarm(AlarmPatch(name: "Work", time: "7h")),
            .addAlarm(AlarmPatch(name: "Nap", time: "14:00", date: "2026-11-25")),
            .editAlarm(id: 1, AlarmPatch(days: "mon-fri")),
            .editAlarm(id: 9, AlarmPatch(days: "mon-fri")),
            .skipNext(id: 1, undo: false),
            .skipNext(id: 1, undo: true),
            .editAlarm(id: 2, AlarmPatch(enabled: false)),
            .skipNext(id: 2, undo: false),
            .removeStation("FIP"),
            .removeStation("Rock"),
            .removeStation("7"),
            .addProgramme(ProgrammeFields(name: "Night", begin: "22:00", end: "01:00", station: "FIP")),
            .addProgramme(ProgrammeFields(name: "Ghost", begin: "22:00", end: "01:00", station: "Rock")),
            .reserveProgramme(id: 1, reserved: true, remindSeconds: 300),
            .reserveProgramme(id: 1, reserved: false, remindSeconds: 300),
            .reserveProgramme(id: 8, reserved: true, remindSeconds: nil),
            .setSettings([]),
            .setSettings([SettingChange(key: "defaultVolume", value: .number(50))]),
            .setSettings([SettingChange(key: "defaultVolume", value: .number(500))]),
            .addDayOff(DayOffFields(dates: "2026-12-24..2026-12-26", name: "Christmas")),
            .addDayOff(DayOffFields(dates: "24.12.2026")),
            .removeDayOff(id: 5),
            .importCalendar(
                Self.calendar(
                    hash: "one",
                    [
                        try Self.programme("a", "Jazz", begin: "22:00"),
                        try Self.programme("b", "News", begin: "21:00"),
                    ])),
            .reserveProgramme(id: 2, reserved: true, remindSeconds: 600),
            .addAlarm(AlarmPatch(name: "Jazz alarm", atProgramme: "2")),
            .importCalendar(
                Self.calendar(
                    hash: "one",
                    [
                        try Self.programme("a", "Jazz", begin: "22:00"),
                        try Self.programme("b", "News", begin: "21:00"),
                    ])),
            .importCalendar(
                Self.calendar(
                    hash: "two",
                    [
                        try Self.programme("a", "Jazz", begin: "22:30"),
                        try Self.programme("c", "Talk", begin: "20:00"),
                    ])),
            .importCalendar(
                Self.calendar(
                    hash: "three",
                    [
                        try Self.programme("a", "Jazz", begin: "22:30"),
                        try Self.programme("a", "Jazz again", begin: "23:00"),
                    ])),
            .importCalendar(Self.calendar(hash: "four", [try Self.programme("c", "Talk", begin: "20:00")])),
            .removeProgramme(id: 1),
            .removeProgramme(id: 1),
            .removeDayOff(id: 1),
            .removeAlarm(id: 2),
            .removeAlarm(id: 2),
        ]
        for edit in edits {
            #expect(Self.answer(memory, edit) == Self.answer(sqlite, edit), "\(edit)")
        }
        let (m, s) = (try memory.load(), try sqlite.load())
        #expect(m.alarms == s.alarms)
        #expect(m.stations == s.stations)
        #expect(m.programmes.sorted { $0.id ?? 0 < $1.id ?? 0 } == s.programmes.sorted { $0.id ?? 0 < $1.id ?? 0 })
        #expect(m.daysOff == s.daysOff)
        #expect(m.settings == s.settings)
        #expect(m.calendarSources == s.calendarSources)
        #expect(m.alarmUpdateTimes == s.alarmUpdateTimes)
        #expect(memory.history.contains { $0.detail.hasPrefix("The programme Jazz (2) is gone") }, "\(memory.history)")
        #expect(
            try memory.events(limit: 10, since: .distantPast).map(\.detail)
                == sqlite.events(limit: 10, since: .distantPast).map(\.detail))
    }

    @Test func tokensAreMadeAndRefusedAsTheSQLiteStoreDoes() throws {
        let dir = try TemporaryDirectory("parity")
        let sqlite = SQLiteClockStore(try Store.open(path: dir.file("aubade.sqlite"), now: { Self.now }))
        let memory = MemoryClockStore(now: { Self.now })
        for (name, replacing) in [("phone", false), ("Phone", false), ("phone", true), (nil, false), (" ", false)]
            as [(String?, Bool)]
        {
            var answers: [String] = []
            for store in [memory, sqlite] as [any ClockStore] {
                do throws(StoreError) {
                    let made = try store.createToken(name: name, replacing: replacing)
                    #expect(TokenSecret.hash(made.secret) == made.token.hash)
                    answers.append("\(made.token.id) \(made.token.name) \(made.token.createdAt)")
                } catch {
                    answers.append("refused: \(error.description)")
                }
            }
            #expect(answers[0] == answers[1], "\(name ?? "nil") replacing: \(replacing)")
        }
        #expect(try memory.tokens().map(\.name) == sqlite.tokens().map(\.name))
    }
}
