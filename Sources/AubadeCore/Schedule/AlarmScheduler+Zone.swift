public import Foundation

extension AlarmScheduler {
    /// The clock's default zone changed (the user moved, or set another zone). Alarms without a zone of
    /// their own are re-read in `zone` and ring at their wall time there (R1). Occurrences of the new zone
    /// that are already past are not caught up, and an alarm that already acted on a local date does not
    /// ring again on that same local date of the new zone. Ringing and snoozes go on (monotonic).
    public mutating func timeZoneChanged(to zone: TimeZone, at now: SchedulerTime) -> [SchedulerAction] {
        var batch = newBatch()
        prepare(now, &batch)
        if zone.identifier != defaultZone.identifier {
            let old = defaultZone
            defaultZone = zone
            batch.record(
                HistoryEvent(
                    at: now.wall, alarmID: nil, kind: .timeZoneChanged,
                    detail: "\(old.identifier) → \(zone.identifier)"))
            for id in alarms.keys.sorted() {
                // Only alarms that follow the default zone (no zone, or one unknown to this machine).
                guard let alarm = alarms[id], alarm.enabled,
                    alarm.timeZoneID.flatMap({ TimeZone(identifier: $0) }) == nil
                else { continue }
                arm(id, now, &batch, alsoHandled: sameDateOccurrence(of: alarm, id, in: zone))
            }
            processDue(now, &batch)
        }
        return finish(batch, now)
    }

    /// The occurrence, in `zone`, on the local date (of `zone`) of the alarm's last handled occurrence.
    private func sameDateOccurrence(of alarm: Alarm, _ id: Int64, in zone: TimeZone) -> Date? {
        guard let handled = states[id]?.lastHandledOccurrence,
            let date = ZoneCalendar(zone).localDate(of: handled)
        else { return nil }
        return AlarmSchedule.occurrence(of: alarm, on: date, defaultZone: zone)?.instant
    }
}
