import AubadeCore
import Foundation
import PropertyBased
import Testing

/// Days off as properties, beside the reference-model tests: random alarms (weekly, daily or one-shot, in zones
/// with and without DST, some skipping days off) and random days off over six weeks that include a DST change,
/// run through the engine with the daemon's harness. Every occurrence must either ring — exactly once, on time —
/// or, when the alarm skips days off and its date is one, be recorded `skipped` with the day's name, never rung;
/// what happened must be what `AlarmSchedule.upcoming(…, includeSkipped: true)` (`alarm next`) foretold.
@Suite("Scheduler: days off as properties")
struct SchedulerDaysOffPropertyTests {
    struct Case: CustomStringConvertible, Sendable {
        var zone: String
        var alarms: [Alarm]
        var daysOff: [DayOff]
        var description: String {
            "zone=\(zone) alarms=\(alarms.map { "\($0.id!):\($0.time) \($0.recurrence.summary) skip=\($0.skipDaysOff) tz=\($0.timeZoneID ?? "-")" }) "
                + "daysOff=\(daysOff.map { "\($0.rangeText) \($0.name)" })"
        }
    }

    /// Six weeks from 2027-03-01 (Europe and the US change to summer time inside them).
    static let start = "2027-03-01T00:00:00Z"
    static let first = try! LocalDate(parsing: "2027-03-01")

    static let generator = Generator<Case, Shrink.None<Case>> { rng in
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        let zones = ["Europe/Berlin", "America/New_York", "Asia/Kathmandu", "UTC"]
        let zone = zones[int(0...3)]
        var alarms: [Alarm] = []
        for id in 1...Int64(int(1...4)) {
            let time = try! LocalTime(hour: [0, 1, 2, 3, 6, 7, 23][int(0...6)], minute: [0, 15, 30, 59][int(0...3)])
            let recurrence: Recurrence =
                switch int(0...5) {
                case 0: .once(first.adding(days: int(0...41)))
                case 1: .weekly(.all)
                case 2, 3: .weekly(.workdays)
                default: .weekly(Weekdays(rawValue: int(1...127)))
                }
            alarms.append(
                Alarm(
                    id: id, name: "A\(id)", time: time, recurrence: recurrence, durationSeconds: 60 * int(1...15),
                    timeZoneID: int(0...2) == 0 ? zones[int(0...3)] : nil, skipDaysOff: int(0...3) > 0))
        }
        var days: [DayOff] = []
        for i in 0..<int(0...6) {
            let from = first.adding(days: int(0...41))
            days.append(
                DayOff(
                    id: Int64(i + 1), first: from, last: from.adding(days: [0, 0, 0, 1, 2, 9][int(0...5)]),
                    name: ["Holiday", "Away", "Bridge day"][int(0...2)] + " \(i + 1)"))
        }
        return Case(zone: zone, alarms: alarms, daysOff: days)
    }

    @Test("every occurrence rings once or is skipped for its day off, as alarm next foretold")
    func occurrencesRingOrAreSkippedForTheirDayOff() async {
        var skippedSeen = 0
        var rungOnDayOff = 0
        await propertyCheck(count: 150, input: Self.generator) { c in
            let counts = try Self.check(c)
            skippedSeen += counts.skipped
            rungOnDayOff += counts.rungOnDayOffWithoutTheFlag
        }
        #expect(skippedSeen >= 20, "the cases must skip often enough to prove something: \(skippedSeen)")
        #expect(rungOnDayOff >= 5, "and ring on days off when the alarm does not skip them: \(rungOnDayOff)")
    }

    static func check(_ c: Case) throws -> (skipped: Int, rungOnDayOffWithoutTheFlag: Int) {
        let zone = try Fixture.zone(c.zone)
        let days = DaysOff(c.daysOff)
        var h = try SchedulerHarness(c.alarms, zone: c.zone, at: start)
        h.engine.setDaysOff(days)
        h.start()
        let end = try Fixture.instant(start).addingTimeInterval(42 * 86_400)
        h.runByWakeUps(until: end)

        // Compared inside (start, end − 1 h]: an occurrence just before the start may be caught up (R6), and the
        // last hour's may not have been acted on yet.
        let from = try Fixture.instant(start)
        let through = end.addingTimeInterval(-3600)
        func inside(_ t: Date) -> Bool { t > from && t <= through }
        let foretold = AlarmSchedule.upcoming(
            c.alarms, after: from, count: 500, defaultZone: zone, before: through.addingTimeInterval(1),
            daysOff: days, includeSkipped: true)
        func due(_ e: HistoryEvent) -> Date? {
            (try? Date(String(e.detail.dropFirst(4).prefix { $0 != "," }), strategy: .iso8601))
        }
        // Alarms that coincide ring together under one sound (R38): each has its own `rang` in the history.
        let rings = (h.events(.rang) + h.events(.rangLate)).compactMap { e -> String? in
            guard let at = due(e), inside(at) else { return nil }
            return "\(e.alarmID!)@\(at.formatted(.iso8601))"
        }.sorted()
        let expectedRings = foretold.filter { $0.skip == nil }
            .map { "\($0.alarmID!)@\($0.occurrence.instant.formatted(.iso8601))" }.sorted()
        #expect(rings == expectedRings, "each occurrence that is not skipped rings once: \(c)")
        #expect(h.events(.rangLate).allSatisfy { due($0).map { !inside($0) } ?? true }, "on time: \(c)")
        let skippedEvents = h.events(.skipped).filter { e in due(e).map(inside) ?? false }

        var skipped = 0
        var rungOnDayOff = 0
        for f in foretold {
            guard let alarm = c.alarms.first(where: { $0.id == f.alarmID }) else { continue }
            let dayOff = days.name(on: f.occurrence.date)
            let detail = "\(HistoryDetail.due(f.occurrence.instant)), \(HistoryDetail.dayOff(dayOff ?? ""))"
            let recorded = skippedEvents.filter { $0.alarmID == f.alarmID && $0.detail == detail }
            if alarm.skipDaysOff, alarm.recurrence.onceDate == nil, let dayOff {
                #expect(f.skip == .dayOff(dayOff), "\(f.occurrence) of \(alarm.name): \(c)")
                #expect(recorded.count == 1, "skipped once, with its day's name: \(f.occurrence) \(c)")
                skipped += 1
            } else {
                #expect(f.skip == nil && recorded.isEmpty, "\(f.occurrence) of \(alarm.name) rings: \(c)")
                if dayOff != nil { rungOnDayOff += 1 }
            }
        }
        #expect(skippedEvents.count == skipped, "nothing else is skipped: \(c)")
        return (skipped, rungOnDayOff)
    }
}
