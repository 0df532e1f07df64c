import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// Calendars in the running clock (fakes for sound and time): a reservation's reminder chime at its lead and the
/// tune-in at the start (neither over a ringing alarm), the sleep timer until a programme ends, and days off
/// passed over — in `alarm next`, the status, the history and the morning report.
@Suite("Daemon decisions: reminders, sleep until a programme ends, days off")
struct CalendarClockTests {
    static let fip = ClockRig.station(5)

    static func show(
        _ id: Int64, _ name: String, _ h: Int, _ m: Int, until eh: Int, _ em: Int, reserved: Bool = false,
        remind: Int? = nil
    ) throws -> Programme {
        Programme(
            id: id, name: name, begin: try LocalTime(hour: h, minute: m), end: try LocalTime(hour: eh, minute: em),
            reserved: reserved, stationID: 5, remindSeconds: remind)
    }

    @Test func aReminderChimesAtItsLeadAndTheRadioTunesInAtTheStart() async throws {
        let show = try Self.show(9, "Morning Jazz", 7, 30, until: 8, 0, reserved: true, remind: 300)
        let rig = ClockRig(stations: [Self.fip], programmes: [show], start: ClockRig.at(7, 20))
        await rig.start()
        await rig.run(until: ClockRig.at(7, 25))
        let chime = try #require(rig.lastPlayed)
        #expect(chime.request.priority == .chime && chime.request.content == .tone(.chime))
        #expect(rig.store.history.last?.detail == "reminder: Morning Jazz on FIP in 5 min")
        await rig.engineSays(.stopped(chime.id, .finished))
        #expect(rig.lastPlayed?.id == chime.id, "a reminder tunes to nothing yet")
        #expect(try await rig.status().radio == nil)

        await rig.run(until: ClockRig.at(7, 30))
        let tuned = try #require(rig.lastPlayed)
        #expect(tuned.request.priority == .radio && tuned.request.content == .stations(Self.fip.addresses), "no second chime")
        #expect(rig.store.history.last { $0.kind == "reservation-started" }?.detail == "Morning Jazz on FIP")
        #expect(try await rig.status().radio?.kind == "reserved programme Morning Jazz")
    }

    @Test func aReminderIsNotChimedOverARingingAlarm() async throws {
        let show = try Self.show(9, "News", 7, 5, until: 7, 30, reserved: true, remind: 120)
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)], stations: [Self.fip], programmes: [show])
        await rig.start()
        await rig.run(until: ClockRig.at(7, 5))
        #expect(rig.sound.played.allSatisfy { $0.request.priority == .alarm })
        let details = rig.store.history.filter { $0.kind == "reservation-started" }.map(\.detail)
        #expect(details == ["News: reminder not chimed, an alarm is ringing", "News: not tuned, an alarm is ringing"])
    }

    @Test func theSleepTimerRunsUntilTheProgrammeOnAirEnds() async throws {
        let late = try Self.show(3, "Night Owls", 23, 0, until: 1, 0)
        let rig = ClockRig(stations: [Self.fip], programmes: [late], start: ClockRig.at(23, 20))
        await rig.start()
        let reply = try await rig.clock.handle(.sleepUntilEnd(programme: nil, source: nil))
        guard case .sound(_, let label, let message) = reply else { throw RigError("no sound: \(reply)") }
        #expect(label == "FIP" && message.hasPrefix("Until Night Owls ends at 01:00 (1h40m). Sleep timer: FIP for 1h40m"))
        #expect(rig.lastPlayed?.request.content == .stations(Self.fip.addresses), "the programme's station")

        await #expect(throws: ClockError(.notFound, "No programme has id 7.")) {
            try await rig.clock.handle(.sleepUntilEnd(programme: 7, source: nil))
        }
        let quiet = ClockRig(stations: [Self.fip], programmes: [late], start: ClockRig.at(12, 0))
        await quiet.start()
        await #expect(throws: ClockError(.refused, "No programme is on air now; give a programme's id.")) {
            try await quiet.clock.handle(.sleepUntilEnd(programme: nil, source: nil))
        }
        do {
            _ = try await quiet.clock.handle(.sleepUntilEnd(programme: 3, source: nil))
            Issue.record("slept until a programme that is not on air")
        } catch {
            #expect(error.kind == .refused && error.message.hasPrefix("Programme 3 (Night Owls) is not on air now. It begins "))
        }
    }

    @Test func aDayOffIsPassedOverAndTheHistoryNamesIt() async throws {
        let rig = ClockRig(start: ClockRig.morning)  // Tuesday 2026-11-24 06:50 UTC
        await rig.start()
        try await rig.edit(.addAlarm(AlarmPatch(name: "Work", time: "07:00", days: "mon-fri")))
        try await rig.edit(.addDayOff(DayOffFields(dates: "2026-11-24..2026-11-25", name: "Away")))
        guard case .next(let next) = try await rig.ask(.nextFirings(count: 3)) else { throw RigError("no answer") }
        #expect(next.firings.map(\.reason) == ["skipped: Away", "skipped: Away", nil])
        #expect(next.tomorrow == "No alarm tomorrow (Work skipped: Away).")
        guard case .status(let status) = try await rig.clock.handle(.status) else { throw RigError("no status") }
        #expect(status.next?.at == ClockRig.morning.addingTimeInterval(2 * 86_400 + 600), "the next ring is Thursday's")

        rig.time.advance(to: ClockRig.morning.addingTimeInterval(15 * 60))
        _ = await rig.clock.tick()
        #expect(rig.sound.played.isEmpty, "nothing rings on a day off")
        let skipped = try rig.store.events().first { $0.kind == "skipped" }
        #expect(skipped?.detail == "due 2026-11-24T07:00:00Z, day off: Away")
        guard case .reports(let reports) = try await rig.ask(.reports(days: 1)) else { throw RigError("no reports") }
        #expect(reports.reports.first?.lines.contains { $0.contains("skipped: Away (a day off)") } == true, "\(reports)")
    }
}
