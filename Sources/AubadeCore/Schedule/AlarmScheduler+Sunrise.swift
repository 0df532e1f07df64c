public import Foundation

extension AlarmScheduler {
    /// The coming sunrises for the face plan (`FacePlan`): for each enabled alarm with a sunrise, its next
    /// occurrence that will ring — a skipped occurrence, a day off it skips and a handled one have none, and a
    /// snooze is no occurrence, so a snooze never restarts a sunrise. Looked for from `Sunrise.hold` before `now`,
    /// so a sunrise whose alarm is due but not yet rung stays at full until the alarm rings. Ordered by alarm id.
    public func sunrises(at now: Date) -> [Sunrise] {
        alarms.keys.sorted().compactMap { id -> Sunrise? in
            guard let alarm = alarms[id], alarm.enabled, alarm.sunriseSeconds > 0,
                let next = nextRinging(of: id, after: now.addingTimeInterval(-Sunrise.hold))
            else { return nil }
            return Sunrise(alarmID: id, alarmAt: next.instant, leadSeconds: alarm.sunriseSeconds)
        }
    }
}
