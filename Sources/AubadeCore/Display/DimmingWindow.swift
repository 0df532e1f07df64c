public import Foundation

/// The hours of the night during which the kiosk dims: from `from` until `until` on the local wall clock,
/// across midnight when `until` is earlier than `from` ("22:00–07:00"). Pure; never reads the clock.
///
/// Each night is resolved per local date through `ZoneCalendar`, exactly as alarms are (R2, R3): the night
/// that begins on date D runs from D at `from` until `until` on D (or on D + 1 across midnight), so on the
/// night the clocks change "22:00–07:00" still runs from local 22:00 to local 07:00 — an hour shorter or
/// longer in real time. A time inside a DST gap is read as the same minutes after the gap, one inside an
/// overlap as its first instant. A night the gap swallows whole (both ends inside one gap, or an end that
/// resolves before its start) is empty that date: it does not dim rather than dim backwards.
public struct DimmingWindow: Hashable, Sendable, CustomStringConvertible {
    public let from: LocalTime
    public let until: LocalTime

    /// A window from `from` until `until`. Equal times are refused: the window would either last no time
    /// or never end, and neither is what anyone means.
    public init(from: LocalTime, until: LocalTime) throws(ValidationError) {
        guard from != until else { throw DimmingWindow.equalTimes(from) }
        self.from = from
        self.until = until
    }

    /// The refusal for equal start and end times, worded for the settings `dimFrom` and `dimUntil`.
    static func equalTimes(_ time: LocalTime) -> ValidationError {
        ValidationError(
            "dimFrom and dimUntil are both \(time); night dimming needs two different times, or set dimFrom off.",
            kind: .unprocessable)
    }

    /// Whether the window runs past midnight into the next local date.
    public var crossesMidnight: Bool { until < from }

    /// "22:00–07:00".
    public var description: String { "\(from)–\(until)" }

    /// The real-time span of the night that begins on local date `date`, or nil when that night is empty
    /// (swallowed by a DST gap).
    public func night(beginning date: LocalDate, in calendar: ZoneCalendar) -> Range<Date>? {
        let start = calendar.instant(of: date, at: from)
        let end = calendar.instant(of: crossesMidnight ? date.adding(days: 1) : date, at: until)
        return start < end ? start..<end : nil
    }

    /// Whether `instant` lies in a night of this window in `zone`: from its start (dimmed at 22:00:00
    /// exactly) up to, not including, its end (bright again at 07:00:00 exactly).
    public func contains(_ instant: Date, in zone: TimeZone) -> Bool {
        nights(around: instant, in: zone).contains { $0.contains(instant) }
    }

    /// The first start or end of a night strictly after `instant`: when dimming next changes by the
    /// schedule alone.
    public func nextBoundary(after instant: Date, in zone: TimeZone) -> Date? {
        nights(around: instant, in: zone)
            .flatMap { [$0.lowerBound, $0.upperBound] }
            .filter { $0 > instant }
            .min()
    }

    /// The nights beginning on the local dates from the day before `instant` to two days after it: enough
    /// for the night in progress and the next start, even across a skipped date (Pacific/Apia 2011-12-30).
    private func nights(around instant: Date, in zone: TimeZone) -> [Range<Date>] {
        let calendar = ZoneCalendar(zone)
        let today = calendar.localDayNumber(of: instant)
        return ((today - 1)...(today + 2))
            .compactMap { LocalDate(dayNumber: $0) }
            .compactMap { night(beginning: $0, in: calendar) }
    }
}
