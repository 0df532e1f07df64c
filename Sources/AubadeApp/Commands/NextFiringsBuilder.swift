public import AubadeCore
public import Foundation

extension NextFirings {
    /// The next `count` firings of the enabled `alarms` after `now` — by the engine's own recurrence code
    /// (`AlarmSchedule.upcoming`, as `aubade alarm next`), so DST nights answer as the clock will ring — including
    /// the occurrences passed over, marked `skipped` with their reason (skip-next; "skipped: Christmas Day" for a
    /// day off), and the programme on air at each on the alarm's station. `tomorrow` names the alarms that will
    /// ring on the clock's next local date, and those skipped.
    public static func build(
        _ alarms: [Alarm], after now: Date, count: Int, zone: TimeZone, daysOff: DaysOff = .none,
        programmes: [Programme] = []
    ) -> NextFirings {
        let guide = ProgrammeGuide(programmes: programmes, zone: zone)
        let byID = Dictionary(alarms.compactMap { a in a.id.map { ($0, a) } }, uniquingKeysWith: { a, _ in a })
        let firings = AlarmSchedule.upcoming(
            alarms.filter { $0.id != nil }, after: now, count: count, defaultZone: zone,
            daysOff: daysOff, includeSkipped: true
        ).compactMap { f -> Entry? in
            guard let id = f.alarmID, let alarm = byID[id] else { return nil }
            return Entry(
                alarm: id, name: f.alarmName, at: f.occurrence.instant,
                local: DaemonStatus.clock(f.occurrence.instant, f.zone, date: true), skipped: f.skip != nil,
                reason: f.skip?.sentence,
                onAir: f.skip == nil ? guide.onAir(for: alarm, at: f.occurrence.instant)?.programme.name : nil)
        }
        return NextFirings(firings: firings, tomorrow: tomorrowSentence(alarms, now: now, zone: zone, daysOff: daysOff))
    }

    /// What rings on the next local date of `zone`, in one plain sentence.
    static func tomorrowSentence(_ alarms: [Alarm], now: Date, zone: TimeZone, daysOff: DaysOff = .none) -> String {
        let calendar = ZoneCalendar(zone)
        guard let tomorrow = LocalDate(dayNumber: calendar.localDayNumber(of: now) + 1) else { return "No alarm tomorrow." }
        var ringing: [(Date, String)] = []
        var skipped: [String] = []
        for alarm in alarms where alarm.enabled {
            let alarmZone = AlarmSchedule.zone(of: alarm, defaultZone: zone)
            for o in AlarmSchedule.occurrences(of: alarm, onLocalDate: tomorrow, in: zone) {
                switch AlarmSchedule.skipReason(of: alarm, on: o.date, daysOff: daysOff) {
                case .skipNext: skipped.append("\(alarm.name) skipped once")
                case .dayOff(let name): skipped.append("\(alarm.name) skipped: \(name)")
                case nil: ringing.append((o.instant, "\(alarm.name) at \(DaemonStatus.clock(o.instant, alarmZone, date: false))"))
                }
            }
        }
        let skippedText = skipped.isEmpty ? "" : " (\(skipped.joined(separator: "; ")))"
        guard !ringing.isEmpty else { return "No alarm tomorrow\(skippedText)." }
        let names = ringing.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: ", ")
        return "Tomorrow: \(names)\(skippedText)."
    }
}
