import AubadeCore
import AubadeStore
import AubadeSystem
import AubadeTesting
import Foundation
import Synchronization
import Testing

/// R26: a change reads what it changes under the write lock, so concurrent edits from two connections (two
/// processes, in production) all take effect.
@Suite("Store edits: patches, atomic read-modify-write")
struct StoreEditTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// Runs each body on a thread of its own, released together, and waits for all; rethrows the first error.
    static func together(_ bodies: [@Sendable () throws -> Void]) throws {
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let failures = Failures()
        for body in bodies {
            group.enter()
            NamedThread.start("aubade-t-edit") {
                start.wait()
                do { try body() } catch { failures.add(error) }
                group.leave()
            }
        }
        for _ in bodies { start.signal() }
        group.wait()
        if let first = failures.first { throw first }
    }

    @Test func twoConnectionsPatchingDifferentFieldsOfTheSameAlarmsLoseNothing() throws {
        let f = try StoreFixture()
        let other = try Store.open(path: f.path)
        defer { other.close() }
        var ids: [Int64] = []
        for i in 0..<10 { ids.append(try f.store.insert(try f.sampleAlarm("Alarm \(i)")).id!) }
        let rounds = 15
        try Self.together([
            { [store = f.store, ids] in
                for round in 0..<rounds {
                    for id in ids { try store.updateAlarm(id: id, zone: Self.utc, now: Date(), AlarmPatch(volume: 20 + round)) }
                }
            },
            { [ids] in
                for round in 0..<rounds {
                    for id in ids {
                        try other.updateAlarm(id: id, zone: Self.utc, now: Date(), AlarmPatch(name: "Renamed \(round)"))
                    }
                }
            },
        ])
        for alarm in try f.store.alarms() {
            #expect(alarm.volume == 20 + rounds - 1 && alarm.name == "Renamed \(rounds - 1)", "\(alarm)")
        }
        #expect(try f.store.snapshot.load().alarms == (try f.store.alarms()).sorted { $0.id! < $1.id! })
    }

    @Test func incrementsFromTwoConnectionsAllCount() throws {
        let f = try StoreFixture()
        let other = try Store.open(path: f.path)
        defer { other.close() }
        var start = try f.sampleAlarm()
        start.volume = 10
        let id = try f.store.insert(start).id!
        let perConnection = 40
        try Self.together(
            [f.store, other].map { store in
                { for _ in 0..<perConnection { try store.updateAlarm(id: id) { alarm, _ in alarm.volume += 1 } } }
            })
        #expect(try f.store.alarm(id: id).volume == 10 + 2 * perConnection)
    }

    @Test func settingsChangedFromTwoConnectionsKeepBothKeys() throws {
        let f = try StoreFixture()
        let other = try Store.open(path: f.path)
        defer { other.close() }
        let rounds = 30
        try Self.together([
            { [store = f.store] in
                for round in 0..<rounds { try store.updateSettings { $0.defaultVolume = 20 + round } }
            },
            {
                for round in 0..<rounds {
                    try other.updateSettings { settings throws(ValidationError) in
                        try SettingKey.snoozeMinutes.set("\(1 + round)", in: &settings)
                    }
                }
            },
        ])
        let settings = try f.store.settings()
        #expect(settings.defaultVolume == 20 + rounds - 1 && settings.snoozeMinutes == rounds)
        #expect(try f.store.snapshot.load().settings == settings)
    }

    @Test func aPatchParsesLooksUpTheStationAndRefusesWithCoreSentences() throws {
        let f = try StoreFixture()
        let fip = try f.store.insert(try Station(name: "FIP", url: try StreamURL(parsing: "https://fip.example/live")))
        let id = try f.store.insert(try f.sampleAlarm()).id!
        let saved = try f.store.updateAlarm(
            id: id, zone: Self.utc, now: Date(),
            AlarmPatch(
                time: "07:10", days: "sat,sun", source: "fip", durationSeconds: 1200, fadeInSeconds: 45, snoozeMinutes: 10,
                maxSnoozes: 4,
                shake: false, tz: ""))
        #expect(saved.time == (try LocalTime(parsing: "07:10")) && saved.recurrence == .weekly(.weekend))
        #expect(saved.sound == .station(id: fip.id!) && saved.durationSeconds == 1200 && saved.fadeInSeconds == 45)
        #expect(saved.snoozeMinutes == 10 && saved.maxSnoozes == 4 && !saved.shakeToStop && saved.timeZoneID == nil)
        #expect(try f.store.alarm(id: id) == saved)

        let before = try f.store.alarm(id: id)
        // A value of the wrong form is invalid; one of the right form that names what is not there (a station, a
        // zone) or does not fit this alarm (a date for a repeating one) is unprocessable.
        let refusals: [(AlarmPatch, StoreError)] = [
            (AlarmPatch(time: "25:61"), .invalid("Alarm time '25:61' is not a valid time; use HH:MM from 00:00 to 23:59.")),
            (
                AlarmPatch(date: "2030-01-01"),
                .unprocessable("A date only goes with --days once; repeating alarms ring on weekdays.")
            ),
            (
                AlarmPatch(source: "Nowhere FM"),
                .unprocessable(
                    "Sound 'Nowhere FM' is neither tone, a saved station, podcast:<name> nor an http(s) URL; list stations with 'aubade station list'."
                )
            ),
            (AlarmPatch(volume: 5), .invalid("Volume 5 is out of range; use 10 to 100.")),
            (AlarmPatch(snoozeMinutes: 61), .invalid("Snooze length 61 min is out of range; use 1 min to 60 min.")),
            (
                AlarmPatch(tz: "Mars/Base"),
                .unprocessable("Time zone 'Mars/Base' is unknown; use a tz database name such as Europe/Berlin.")
            ),
        ]
        for (patch, refusal) in refusals {
            #expect(throws: refusal) {
                try f.store.updateAlarm(id: id, zone: Self.utc, now: Date(), patch)
            }
        }
        #expect(try f.store.alarm(id: id) == before)
        #expect(throws: StoreError.notFound(what: "alarm", id: 99)) {
            try f.store.updateAlarm(id: 99, zone: Self.utc, now: Date(), AlarmPatch(volume: 50))
        }
    }

    @Test func aTimingPatchDropsAPendingSnoozeAndALabelPatchKeepsIt() throws {
        let f = try StoreFixture()
        let id = try f.store.insert(try f.sampleAlarm()).id!
        let snoozed = AlarmRunState(
            alarmID: id, phase: .snoozed, occurrence: Date(timeIntervalSince1970: 1_000),
            snoozedUntil: Date(timeIntervalSince1970: 1_540), snoozeCount: 1,
            lastHandledOccurrence: Date(timeIntervalSince1970: 900))
        try f.store.save(snoozed)
        try f.store.updateAlarm(id: id, zone: Self.utc, now: Date(), AlarmPatch(name: "Renamed", volume: 80))
        #expect(try f.store.runStates() == [snoozed])
        try f.store.updateAlarm(id: id, zone: Self.utc, now: Date(), AlarmPatch(time: "07:00"))
        let state = try #require(try f.store.runStates().first)
        #expect(state.phase == .idle && state.snoozedUntil == nil && state.lastHandledOccurrence == snoozed.lastHandledOccurrence)
    }

    @Test func theChangeClosureSeesTheStoredRunStateAndCanRefuse() throws {
        let f = try StoreFixture()
        let id = try f.store.insert(try f.sampleAlarm()).id!
        let handled = Date(timeIntervalSince1970: 5_000)
        try f.store.save(AlarmRunState(alarmID: id, phase: .idle, lastHandledOccurrence: handled))
        var seen: Date?
        try f.store.updateAlarm(id: id) { alarm, state in
            seen = state?.lastHandledOccurrence
            alarm.skipDate = nil
        }
        #expect(seen == handled)
        #expect(try f.store.alarm(id: id).skipDate == nil)
        #expect(throws: StoreError.invalid("Not today.")) {
            try f.store.updateAlarm(id: id) { alarm, _ throws(ValidationError) in
                alarm.volume = 99
                throw ValidationError("Not today.")
            }
        }
        #expect(try f.store.alarm(id: id).volume == 70)
    }

    @Test func insertingAPatchTakesTheSettingsDefaultsAndRingsOnceWithoutDays() throws {
        let f = try StoreFixture()
        try f.store.updateSettings {
            $0.defaultVolume = 35; $0.alarmDurationSeconds = 1200
        }
        let now = try #require(ISO8601DateFormatter().date(from: "2026-05-04T08:00:00Z"))
        let a = try f.store.insertAlarm(zone: Self.utc, now: now, AlarmPatch(name: "Dentist", time: "07:30", enabled: false))
        #expect(a.id != nil && a.volume == 35 && a.durationSeconds == 1200 && !a.enabled)
        #expect(a.recurrence == .once(try LocalDate(parsing: "2026-05-05")))  // 07:30 has passed today
        #expect(try f.store.alarm(id: a.id!) == a)
        #expect(throws: StoreError.invalid("An alarm needs a name: add --name, e.g. --name Work.")) {
            try f.store.insertAlarm(zone: Self.utc, now: now, AlarmPatch(time: "07:30"))
        }
        #expect(try f.store.alarms().count == 1)
    }

    @Test func reservingAProgrammeWithoutStationIsRefusedInTheStore() throws {
        let f = try StoreFixture()
        let loose = try f.store.insert([
            Programme(
                name: "Loose", begin: try LocalTime(parsing: "22:00"),
                end: try LocalTime(parsing: "23:00"))
        ])[0]
        #expect(throws: StoreError.invalid("Programme \(loose.id!) (Loose) has no station to tune to, so it cannot be reserved."))
        {
            try f.store.setReserved(true, programmeID: loose.id!)
        }
        #expect(try f.store.setReserved(false, programmeID: loose.id!).reserved == false)
    }
}

/// Errors collected from several threads, as sentences.
private final class Failures: Sendable {
    private let messages = Mutex<[String]>([])

    func add(_ error: any Error) {
        let text = String(describing: error)
        messages.withLock { $0.append(text) }
    }

    var first: ThreadFailure? { messages.withLock { $0.first.map(ThreadFailure.init) } }
}

struct ThreadFailure: Error, CustomStringConvertible {
    let description: String
}
