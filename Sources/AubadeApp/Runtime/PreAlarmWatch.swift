import AubadeCore
import Foundation

/// The pre-alarm notices as a part of the running clock (`PreAlarms` decides): on each turn the notices due are
/// printed and told to the faces that follow the clock, and the newest one of an alarm that will ring is the
/// clock's `pre_alarm` activity until its time. With no leads configured it does nothing at all.
struct PreAlarmWatch {
    private var plan: PreAlarms
    private var current: PreAlarmNotice?

    init(leadSeconds: [Int]) {
        plan = PreAlarms(leadSeconds: leadSeconds)
    }

    /// Gives the notices due at `now` for `scheduler`'s alarms as they are now.
    mutating func turn(_ scheduler: AlarmScheduler, _ now: Date, _ c: inout ClockContext) {
        guard !plan.leads.isEmpty else { return }
        for notice in plan.due(
            PreAlarmWatch.alarms(scheduler), at: now, zone: scheduler.defaultZone, daysOff: scheduler.daysOff,
            floor: scheduler.floor)
        {
            c.effects.emit(
                "pre-alarm",
                [
                    "alarm": notice.alarmID, "occurrence": notice.occurrence.timeIntervalSince1970,
                    "lead_s": notice.leadSeconds, "will_ring": notice.willRing, "why": notice.why,
                ])
            c.effects.append(.tell(.preAlarm(notice)))
            if notice.willRing { current = notice }
        }
    }

    /// When the next notice falls due, if within the longest lead.
    func next(_ scheduler: AlarmScheduler, _ now: Date) -> Date? {
        guard !plan.leads.isEmpty else { return nil }
        return plan.next(
            PreAlarmWatch.alarms(scheduler), after: now, zone: scheduler.defaultZone, daysOff: scheduler.daysOff,
            floor: scheduler.floor)
    }

    /// The scheduler's alarms in id order.
    private static func alarms(_ scheduler: AlarmScheduler) -> [Alarm] {
        scheduler.alarms.keys.sorted().compactMap { scheduler.alarms[$0] }
    }

    /// The notice whose alarm is still to ring: given, its time not come, the alarm still enabled and still due
    /// then (an edit or a skip since moves it out).
    func pending(_ scheduler: AlarmScheduler, _ now: Date) -> PreAlarmNotice? {
        guard let notice = current, notice.occurrence > now,
            scheduler.nextRinging(of: notice.alarmID, after: now)?.instant == notice.occurrence
        else { return nil }
        return notice
    }
}
