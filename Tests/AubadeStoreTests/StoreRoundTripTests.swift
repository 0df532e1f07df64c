import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import GRDB
import Testing

@Suite("Store round trips")
struct StoreRoundTripTests {
    @Test func alarmsRoundTripEveryField() throws {
        let f = try StoreFixture()
        let fip = try f.store.insert(try Station(name: "FIP", url: try StreamURL(parsing: "https://fip.example/live")))
        var once = try f.sampleAlarm("Flight", "04:10")
        once.recurrence = .once(try LocalDate(parsing: "2026-12-24"))
        once.sound = .station(id: fip.id!)
        once.enabled = false
        once.timeZoneID = nil
        once.skipDate = nil
        var stream = try f.sampleAlarm("Radio", "07:00")
        stream.sound = .stream(try StreamURL(parsing: "http://192.168.1.5:8000/radio.mp3"))
        for a in [try f.sampleAlarm(), once, stream] {
            let saved = try f.store.insert(a)
            var expected = a
            expected.id = saved.id
            #expect(try f.store.alarm(id: saved.id!) == expected)
        }
        #expect(try f.store.alarms().map(\.name) == ["Flight", "Work", "Radio"])  // by time of day
    }

    @Test func updateAndDelete() throws {
        let f = try StoreFixture()
        var a = try f.store.insert(try f.sampleAlarm())
        a.name = "Gym"
        a.volume = 90
        try f.store.update(a)
        #expect(try f.store.alarm(id: a.id!) == a)
        try f.store.deleteAlarm(id: a.id!)
        #expect(throws: StoreError.notFound(what: "alarm", id: a.id!)) { try f.store.alarm(id: a.id!) }
        #expect(throws: StoreError.notFound(what: "alarm", id: 99)) { try f.store.deleteAlarm(id: 99) }
    }

    @Test func invalidAlarmIsRefusedAndNothingIsWritten() throws {
        let f = try StoreFixture()
        var a = try f.sampleAlarm()
        a.volume = 0
        #expect(throws: StoreError.self) { try f.store.insert(a) }
        a.volume = 50
        a.sound = .station(id: 42)
        #expect(throws: StoreError.self) { try f.store.insert(a) }
        #expect(try f.store.alarms().isEmpty)
    }

    @Test func stations() throws {
        let f = try StoreFixture()
        let s = try f.store.insert(
            try Station(
                name: "Radio Paradise", url: try StreamURL(parsing: "https://rp.example/mp3"),
                alternateURL: try StreamURL(parsing: "http://rp2.example/mp3")))
        #expect(try f.store.station(id: s.id!) == s)
        #expect(try f.store.station(named: "radio paradise") == s)
        #expect(throws: StoreError.self) {
            try f.store.insert(try Station(name: "RADIO PARADISE", url: try StreamURL(parsing: "https://x.example/")))
        }
        var alarm = try f.sampleAlarm()
        alarm.sound = .station(id: s.id!)
        let saved = try f.store.insert(alarm)
        #expect(throws: StoreError.self) { try f.store.deleteStation(id: s.id!) }  // in use
        try f.store.deleteAlarm(id: saved.id!)
        try f.store.deleteStation(id: s.id!)
        #expect(try f.store.stations().isEmpty)
    }

    @Test func programmesAllOrNothingAndReservation() throws {
        let f = try StoreFixture()
        let st = try f.store.insert(try Station(name: "FIP", url: try StreamURL(parsing: "https://fip.example/live")))
        let p1 = Programme(
            name: "Jazz à FIP", begin: try LocalTime(parsing: "21:00"), end: try LocalTime(parsing: "23:00"),
            stationID: st.id, weekday: .friday, host: "Bruno", details: "Late jazz", importSource: "fip.json")
        let p2 = Programme(
            name: "Matin", begin: try LocalTime(parsing: "07:00"), end: try LocalTime(parsing: "09:00"),
            stationID: st.id, date: try LocalDate(parsing: "2026-12-01"))
        let saved = try f.store.insert([p1, p2])
        #expect(saved.count == 2)
        var expected = p1
        expected.id = saved[0].id
        #expect(try f.store.programme(id: saved[0].id!) == expected)
        try f.store.setReserved(true, programmeID: saved[1].id!)
        #expect(try f.store.programme(id: saved[1].id!).reserved)
        let bad = Programme(name: "", begin: p1.begin, end: p1.end)
        #expect(throws: StoreError.self) { try f.store.insert([p1, bad]) }
        #expect(try f.store.programmes().count == 2)  // the batch with a bad row added nothing
        #expect(throws: StoreError.self) { try f.store.setReserved(true, programmeID: 999) }
        try f.store.deleteStation(id: st.id!)  // programmes go with their station
        #expect(try f.store.programmes().isEmpty)
    }

    @Test func settingsRoundTripAndBadStoredValuesFallBack() throws {
        let f = try StoreFixture()
        #expect(try f.store.settings() == AppSettings())
        var s = AppSettings()
        s.isWifi = true
        s.catchUpSeconds = 600
        s.fallbackTone = .rising
        try f.store.save(s)
        #expect(try f.store.settings() == s)
        let q = try DatabaseQueue(path: f.path)
        try q.write { db in try db.execute(sql: "UPDATE appSet SET defaultVolume = 5000, fallbackTone = 'kazoo'") }
        let (loaded, invalid) = try f.store.settingsWithProblems()
        #expect(invalid.sorted() == ["defaultVolume", "fallbackTone"])
        #expect(loaded.defaultVolume == AppSettings().defaultVolume && loaded.isWifi)
    }

    @Test func runStateAndEventsRoundTrip() throws {
        let f = try StoreFixture()
        let a = try f.store.insert(try f.sampleAlarm())
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let state = AlarmRunState(
            alarmID: a.id!, phase: .snoozed, occurrence: t0, ringingSince: t0 + 5,
            snoozedUntil: t0 + 305, snoozeCount: 1, lastHandledOccurrence: t0 - 86_400)
        try f.store.save(state, recording: HistoryEvent(at: t0 + 5, alarmID: a.id, kind: "snoozed", detail: "button"))
        #expect(try f.store.runStates() == [state])
        try f.store.record(HistoryEvent(at: t0 + 400, alarmID: nil, kind: "clock-step", detail: "+3600 s"))
        let events = try f.store.events()
        #expect(events.map(\.kind) == ["clock-step", "snoozed"])
        #expect(events[1].at == t0 + 5 && events[1].alarmID == a.id && events[1].detail == "button")
        #expect(try f.store.events(since: t0 + 100).count == 1)
        #expect(throws: StoreError.notFound(what: "alarm", id: 77)) { try f.store.save(AlarmRunState(alarmID: 77)) }
        try f.store.deleteAlarm(id: a.id!)
        #expect(try f.store.runStates().isEmpty)  // state goes with its alarm
    }

    @Test func editsKeepOrCancelAPendingSnooze() throws {
        let f = try StoreFixture()
        var a = try f.store.insert(try f.sampleAlarm())
        let lastRung = Date(timeIntervalSince1970: 1_800_000_000)
        let snoozed = AlarmRunState(
            alarmID: a.id!, phase: .snoozed, occurrence: Date(), snoozedUntil: Date() + 300,
            snoozeCount: 1, lastHandledOccurrence: lastRung)
        let idle = AlarmRunState(alarmID: a.id!, lastHandledOccurrence: lastRung)
        try f.store.save(snoozed)
        a.name = "Renamed"
        a.volume = 30
        a.sound = .stream(try StreamURL(parsing: "https://x.example/s"))
        try f.store.update(a)
        #expect(try f.store.runStates().first?.phase == .snoozed)  // R10: label, sound, volume keep it
        let before = try f.store.alarmUpdateTimes()[a.id!]!
        a.time = try LocalTime(parsing: "07:15")
        try f.store.update(a)
        #expect(try f.store.runStates() == [idle])  // R10: time cancels it; R11: what already rang stays rung
        #expect(try f.store.alarmUpdateTimes()[a.id!]! >= before)
        try f.store.save(snoozed)
        a.enabled = false
        try f.store.update(a)
        #expect(try f.store.runStates() == [idle])
    }
}
