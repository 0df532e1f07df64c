import AubadeCore
import Foundation

extension NextFirings {
    /// The next `count` firings of the enabled `alarms` after `now` — by the engine's own recurrence code
    /// (`AlarmSchedule`, as `aubade alarm next`), so DST nights answer as the clock will ring — including an
    /// occurrence passed over by skip-next, marked `skipped`. `tomorrow` names the alarms that will ring on
    /// the clock's next local date.
    public static func build(_ alarms: [Alarm], after now: Date, count: Int, zone: TimeZone) -> NextFirings {
        var all: [Entry] = []
        for alarm in alarms where alarm.enabled {
            guard let id = alarm.id else { continue }
            let alarmZone = AlarmSchedule.zone(of: alarm, defaultZone: zone)
            var cursor = now
            for _ in 0..<count {
                guard let o = AlarmSchedule.next(of: alarm, after: cursor, defaultZone: zone) else { break }
                let skipped = o.date == alarm.skipDate
                all.append(Entry(alarm: id, name: alarm.name, at: o.instant,
                                 local: DaemonStatus.clock(o.instant, alarmZone, date: true), skipped: skipped,
                                 reason: skipped ? "Skipped once (skip-next); it rings again after that." : nil))
                cursor = o.instant
            }
        }
        all.sort { ($0.at, $0.alarm) < ($1.at, $1.alarm) }
        let firings = Array(all.prefix(count))
        return NextFirings(firings: firings, tomorrow: tomorrowSentence(alarms, now: now, zone: zone))
    }

    /// What rings on the next local date of `zone`, in one plain sentence.
    static func tomorrowSentence(_ alarms: [Alarm], now: Date, zone: TimeZone) -> String {
        let calendar = ZoneCalendar(zone)
        guard let tomorrow = LocalDate(dayNumber: calendar.localDayNumber(of: now) + 1) else { return "No alarm tomorrow." }
        let start = calendar.instant(of: tomorrow, at: LocalTime.midnight)
        let end = LocalDate(dayNumber: tomorrow.dayNumber + 1).map { calendar.instant(of: $0, at: LocalTime.midnight) }
            ?? start.addingTimeInterval(86_400)
        var ringing: [(Date, String)] = []
        var skipped: [String] = []
        for alarm in alarms where alarm.enabled {
            let alarmZone = AlarmSchedule.zone(of: alarm, defaultZone: zone)
            for o in AlarmSchedule.occurrences(of: alarm, after: start.addingTimeInterval(-0.001), through: end.addingTimeInterval(-0.001),
                                               defaultZone: zone) {
                if o.date == alarm.skipDate {
                    skipped.append(alarm.name)
                } else {
                    ringing.append((o.instant, "\(alarm.name) at \(DaemonStatus.clock(o.instant, alarmZone, date: false))"))
                }
            }
        }
        let skippedText = skipped.isEmpty ? "" : " (\(skipped.joined(separator: ", ")) skipped once)"
        guard !ringing.isEmpty else { return "No alarm tomorrow\(skippedText)." }
        let names = ringing.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: ", ")
        return "Tomorrow: \(names)\(skippedText)."
    }
}
