public import Foundation

/// One upcoming firing for the preview (`aubade alarm next`): which alarm, when, and in which zone.
public struct Firing: Hashable, Sendable {
    public let alarmID: Int64?
    public let alarmName: String
    public let occurrence: Occurrence
    /// The zone the alarm's rule is read in.
    public let zone: TimeZone
    /// Why it will not ring (skip-next, a day off), when it will not.
    public let skip: SkipReason?

    /// A firing of the alarm with `alarmID` (nil for an unsaved alarm), its rule read in `zone`.
    public init(alarmID: Int64?, alarmName: String, occurrence: Occurrence, zone: TimeZone, skip: SkipReason? = nil) {
        self.alarmID = alarmID
        self.alarmName = alarmName
        self.occurrence = occurrence
        self.zone = zone
        self.skip = skip
    }

    /// The UTC offset in force at the firing, in seconds.
    public var utcOffsetSeconds: Int { zone.secondsFromGMT(for: occurrence.instant) }

    /// The UTC offset as "+02:00" / "-03:30" / "+05:45".
    public var utcOffsetText: String { Firing.offsetText(utcOffsetSeconds) }

    /// The wall clock at the firing, in its zone: "2026-03-29 03:30 +02:00". Inside a DST gap this is the
    /// time the clock really shows (03:30), not the rule's time (02:30).
    public var localText: String {
        let local = Int(occurrence.instant.timeIntervalSince1970.rounded(.down)) + utcOffsetSeconds
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let minutes = (local - day * 86_400) / 60
        let date = LocalDate(dayNumber: day)?.description ?? occurrence.date.description
        return "\(date) \(Firing.twoDigits(minutes / 60)):\(Firing.twoDigits(minutes % 60)) \(utcOffsetText)"
    }

    /// The weekday of the firing on its local wall clock ("mon" … "sun").
    public var localWeekday: String {
        let local = Int(occurrence.instant.timeIntervalSince1970.rounded(.down)) + utcOffsetSeconds
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return (LocalDate(dayNumber: day) ?? occurrence.date).weekday.shortName
    }

    /// "+HH:MM" for an offset in seconds (seconds beyond the minute are dropped).
    public static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        return "\(sign)\(twoDigits(minutes / 60)):\(twoDigits(minutes % 60))"
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

extension AlarmSchedule {
    /// The next `count` firings of all enabled alarms strictly after `instant`, soonest first (ties by alarm
    /// id). Occurrences that pass over (each alarm's `skipDate`; `daysOff` for alarms that skip days off) are
    /// left out, or with `includeSkipped` listed with their `skip` reason. Only firings before `limit`, when
    /// given, are listed.
    public static func upcoming(
        _ alarms: [Alarm], after instant: Date, count: Int, defaultZone: TimeZone,
        before limit: Date? = nil, daysOff: DaysOff = .none,
        includeSkipped: Bool = false
    ) -> [Firing] {
        guard count > 0 else { return [] }
        var all: [Firing] = []
        for alarm in alarms where alarm.enabled {
            let zone = zone(of: alarm, defaultZone: defaultZone)
            var cursor = instant
            var listed = 0
            while listed < count {
                guard
                    let o = next(
                        of: alarm, after: cursor, defaultZone: defaultZone, honouringSkip: !includeSkipped,
                        daysOff: daysOff),
                    limit.map({ o.instant < $0 }) ?? true
                else { break }
                let skip = skipReason(of: alarm, on: o.date, daysOff: daysOff)
                all.append(Firing(alarmID: alarm.id, alarmName: alarm.name, occurrence: o, zone: zone, skip: skip))
                cursor = o.instant
                listed += 1
            }
        }
        all.sort { a, b in
            a.occurrence != b.occurrence ? a.occurrence < b.occurrence : (a.alarmID ?? -1) < (b.alarmID ?? -1)
        }
        return Array(all.prefix(count))
    }
}
