import AubadeCore
import Foundation
import PropertyBased
import Testing

/// R2/R3 for every zone Foundation knows: wall times around each transition resolve as the rule says.
/// The expectation is restated from raw offsets — a wall time `w` can be shown with the offset before or
/// after the transition; the valid readings are those whose instant really has that offset; the earliest
/// wins (R3), and with none (a gap) `w` is read with the offset before the gap (R2) — and cross-checked
/// with `Calendar`'s own reading of the instant. The table tests hold the independent zoneinfo literals.
@Suite("Recurrence: every tz zone, around every transition")
struct RecurrenceAllZonesTests {
    /// Minutes around the local wall time of a transition (as shown just before it).
    static let offsets = [-90, -61, -1, 0, 1, 15, 29, 30, 44, 45, 59, 60, 61, 89, 90, 119, 120, 121, 150]

    @Test("2020–2027, all zones")
    func recentTransitions() throws {
        let start = try Fixture.instant("2020-01-01T00:00:00Z")
        let end = try Fixture.instant("2027-12-31T00:00:00Z")
        var checked = 0
        for id in TimeZone.knownTimeZoneIdentifiers {
            let zone = try Fixture.zone(id)
            var cursor = start
            while let t = zone.nextDaylightSavingTimeTransition(after: cursor), t < end {
                checked += try checkAround(t, in: zone)
                cursor = t
            }
        }
        #expect(checked > 5_000, "only \(checked) wall times were checked")
    }

    @Test("1971–2037, random zones and transitions")
    func historicTransitions() async throws {
        let zones = TimeZone.knownTimeZoneIdentifiers
        let input = zip(Gen.int(in: 0...(zones.count - 1)), Gen.int(in: 1971...2037), Gen.int(in: 0...364))
        await propertyCheck(count: 400, input: input) { pick in
            let (index, year, day) = pick
            guard let zone = TimeZone(identifier: zones[index]) else { return }
            let from = Date(timeIntervalSince1970: TimeInterval((year - 1970) * 31_556_952 + day * 86_400))
            guard let t = zone.nextDaylightSavingTimeTransition(after: from) else { return }
            _ = try checkAround(t, in: zone)
        }
    }

    /// Checks the wall times around transition `t`; returns how many were checked.
    private func checkAround(_ t: Date, in zone: TimeZone) throws -> Int {
        let before = zone.secondsFromGMT(for: t.addingTimeInterval(-1))
        let after = zone.secondsFromGMT(for: t)
        let tSeconds = Int(t.timeIntervalSince1970)
        // Skip offsets with seconds (LMT) and transitions with another one within a day (not testable here).
        guard before % 60 == 0, after % 60 == 0, before != after,
            zone.nextDaylightSavingTimeTransition(after: t).map({ $0.timeIntervalSince(t) > 86_400 }) ?? true,
            zone.nextDaylightSavingTimeTransition(after: t.addingTimeInterval(-86_400)) == t
        else { return 0 }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let resolver = ZoneCalendar(zone)
        var checked = 0
        for minutes in RecurrenceAllZonesTests.offsets {
            let wall = tSeconds + before + minutes * 60
            let dayNumber = wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400
            guard let date = LocalDate(dayNumber: dayNumber) else { continue }
            let time = try LocalTime(hour: (wall - dayNumber * 86_400) / 3600, minute: (wall - dayNumber * 86_400) % 3600 / 60)
            let readings = [before, after].map { wall - $0 }.filter { instant in
                [before, after].contains {
                    zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))) == $0 && wall - instant == $0
                }
            }
            let expected = readings.min() ?? (wall - before)
            let got = resolver.instant(of: date, at: time)
            #expect(
                Int(got.timeIntervalSince1970) == expected, "\(zone.identifier) \(date) \(time) near \(t.formatted(.iso8601))")
            let shown = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: got)
            let showsWall =
                shown.year == date.year && shown.month == date.month && shown.day == date.day
                && shown.hour == time.hour && shown.minute == time.minute
            #expect(showsWall == !readings.isEmpty, "\(zone.identifier) \(date) \(time): Calendar shows \(shown)")
            checked += 1
        }
        return checked
    }
}
