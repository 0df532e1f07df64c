public import Foundation

/// Converts between absolute instants and wall-clock readings in one time zone, as alarms need it.
///
/// The rules (RELIABILITY.md R2, R3), for every zone of the tz database:
/// - a wall time that exists once maps to that instant;
/// - a wall time that exists twice (an overlap, clocks set back) maps to the FIRST instant;
/// - a wall time that does not exist (a gap, clocks set forward — also a whole skipped date, as in
///   Pacific/Apia on 2011-12-30) maps to the same minutes after the gap: it is read with the offset in force
///   just before the gap (02:30 in a 02:00→03:00 gap is 03:30). It is never moved to another day's rule.
///
/// Pure and thread-safe; never reads the clock. Built on `TimeZone.secondsFromGMT(for:)` and
/// `TimeZone.nextDaylightSavingTimeTransition(after:)` (which also reports changes of the standard offset),
/// not on `Calendar` matching, whose `.strict` policy moves gap times to the next day.
public struct ZoneCalendar: Sendable {
    public let zone: TimeZone

    /// Offsets anywhere on Earth since 1970 stay within ±15 h; the search window is a little wider.
    private static let window: Int = 18 * 3600

    /// Resolves wall times of `zone`.
    public init(_ zone: TimeZone) {
        self.zone = zone
    }

    /// The UTC offset in seconds in force at `instant`.
    public func offset(at instant: Date) -> Int {
        zone.secondsFromGMT(for: instant)
    }

    /// The local day number (days since 1970-01-01 on the local calendar) of `instant`.
    public func localDayNumber(of instant: Date) -> Int {
        let local = Int(instant.timeIntervalSince1970.rounded(.down)) + offset(at: instant)
        return local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    }

    /// The local date of `instant`, or nil outside the years `LocalDate` accepts.
    public func localDate(of instant: Date) -> LocalDate? {
        LocalDate(dayNumber: localDayNumber(of: instant))
    }

    /// The instant at which the wall clock of this zone shows `time` on `date`, by the rules above.
    public func instant(of date: LocalDate, at time: LocalTime) -> Date {
        let wall = date.dayNumber * 86_400 + time.minutesSinceMidnight * 60
        let segments = offsetSegments(around: wall)
        // Every instant that really shows `wall`; the earliest is the first occurrence of an overlap.
        let exact = segments.compactMap { segment -> Int? in
            let t = wall - segment.offset
            guard t >= segment.start, t < segment.end,
                offset(at: Date(timeIntervalSince1970: TimeInterval(t))) == segment.offset
            else { return nil }
            return t
        }
        if let first = exact.min() {
            return Date(timeIntervalSince1970: TimeInterval(first))
        }
        // A gap: find the forward transition that skipped `wall` and read it with the offset before it.
        for (before, after) in zip(segments, segments.dropFirst()) where after.offset > before.offset {
            if after.start + before.offset <= wall, wall < after.start + after.offset {
                return Date(timeIntervalSince1970: TimeInterval(wall - before.offset))
            }
        }
        // Not reachable with consistent tz data; the offset before the wall time is the gap rule's answer.
        return Date(timeIntervalSince1970: TimeInterval(wall - segments[0].offset))
    }

    /// A stretch of time with one UTC offset: [start, end) in seconds since 1970.
    private struct Segment {
        var start: Int
        var end: Int
        var offset: Int
    }

    /// The offsets in force from `wall - window` to `wall + window` (seconds since 1970), split at each transition.
    private func offsetSegments(around wall: Int) -> [Segment] {
        let low = wall - ZoneCalendar.window
        let high = wall + ZoneCalendar.window
        var cursor = Date(timeIntervalSince1970: TimeInterval(low))
        var current = Segment(start: low, end: high, offset: offset(at: cursor))
        var segments: [Segment] = []
        // A day and a half holds at most a couple of transitions; the bound only guards against odd data.
        for _ in 0..<8 {
            guard let next = zone.nextDaylightSavingTimeTransition(after: cursor), next > cursor else { break }
            let t = Int(next.timeIntervalSince1970.rounded(.down))
            guard t < high else { break }
            current.end = t
            segments.append(current)
            current = Segment(start: t, end: high, offset: offset(at: next))
            cursor = next
        }
        segments.append(current)
        return segments
    }
}
