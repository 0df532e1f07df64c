public import Foundation

/// A notice some minutes before an alarm's occurrence — for a wake-up light to start fading up, say. It is given
/// for every occurrence of an enabled alarm, also one that will not ring (skip-next, a day off): `willRing` and
/// `why` say so, so that what follows it can follow the real plan.
public struct PreAlarmNotice: Sendable, Hashable {
    public var alarmID: Int64
    public var name: String
    /// The occurrence it announces.
    public var occurrence: Date
    /// How long before the occurrence it was due, in seconds (one of the configured leads).
    public var leadSeconds: Int
    public var willRing: Bool
    /// Why it will not ring ("skipped once (skip-next)", "day off: Christmas Day"), when it will not.
    public var why: String?

    public init(alarmID: Int64, name: String, occurrence: Date, leadSeconds: Int, willRing: Bool, why: String?) {
        self.alarmID = alarmID
        self.name = name
        self.occurrence = occurrence
        self.leadSeconds = leadSeconds
        self.willRing = willRing
        self.why = why
    }
}

/// Which pre-alarm notices fall due, and when the next one does. Pure: the clock asks it on each turn with the
/// alarms as they are then (so an edit, a skip or a day off added before the notice is reflected in it) and
/// remembers which notices it gave. Each (occurrence, lead) is given once; a clock that starts, or an alarm set,
/// inside the lead of an occurrence gives the latest notice that is due, once, not one per lead.
public struct PreAlarms: Sendable {
    /// The leads in seconds, longest first, none zero or negative, no two equal.
    public let leads: [Int]
    private var given: Set<Key> = []

    private struct Key: Hashable, Sendable {
        var alarmID: Int64
        var occurrence: Date
        var lead: Int
    }

    public init(leadSeconds: [Int]) {
        leads = Array(Set(leadSeconds.filter { $0 > 0 })).sorted(by: >)
    }

    /// The firings whose notices may fall due from `now` on: those within the longest lead (and a minute), later
    /// than their alarm's `floor` (the scheduler's: what it will not act on).
    private func firings(_ alarms: [Alarm], after now: Date, zone: TimeZone, daysOff: DaysOff, floor: (Int64) -> Date?)
        -> [Firing]
    {
        guard let longest = leads.first, !alarms.isEmpty else { return [] }
        return AlarmSchedule.upcoming(
            alarms.filter { $0.id != nil }, after: now, count: 2 * alarms.count, defaultZone: zone,
            before: now.addingTimeInterval(TimeInterval(longest + 60)), daysOff: daysOff, includeSkipped: true
        ).filter { f in f.alarmID.flatMap(floor).map { f.occurrence.instant > $0 } ?? true }
    }

    /// The notices due at `now` and not given yet, soonest occurrence first; they count as given from now on.
    public mutating func due(
        _ alarms: [Alarm], at now: Date, zone: TimeZone, daysOff: DaysOff, floor: (Int64) -> Date? = { _ in nil }
    ) -> [PreAlarmNotice] {
        given = given.filter { $0.occurrence > now }
        var notices: [PreAlarmNotice] = []
        for firing in firings(alarms, after: now, zone: zone, daysOff: daysOff, floor: floor) {
            guard let id = firing.alarmID else { continue }
            let at = firing.occurrence.instant
            // The leads whose moment has come, shortest last: the latest of them is the one given.
            let reached = leads.filter { at.addingTimeInterval(-TimeInterval($0)) <= now }
            guard let lead = reached.last, !given.contains(Key(alarmID: id, occurrence: at, lead: lead)) else { continue }
            for passed in reached { given.insert(Key(alarmID: id, occurrence: at, lead: passed)) }
            notices.append(
                PreAlarmNotice(
                    alarmID: id, name: firing.alarmName, occurrence: at, leadSeconds: lead, willRing: firing.skip == nil,
                    why: firing.skip.map(PreAlarms.why)))
        }
        return notices
    }

    /// Why an occurrence will not ring, in a few words: "skipped once (skip-next)", "day off: Christmas Day".
    public static func why(_ skip: SkipReason) -> String {
        switch skip {
        case .skipNext: "skipped once (skip-next)"
        case .dayOff(let name): "day off: \(name)"
        }
    }

    /// When the next notice not given yet falls due, if one does within the longest lead (and a minute) of `now`.
    public func next(
        _ alarms: [Alarm], after now: Date, zone: TimeZone, daysOff: DaysOff, floor: (Int64) -> Date? = { _ in nil }
    ) -> Date? {
        var soonest: Date?
        for firing in firings(alarms, after: now, zone: zone, daysOff: daysOff, floor: floor) {
            guard let id = firing.alarmID else { continue }
            let at = firing.occurrence.instant
            for lead in leads where !given.contains(Key(alarmID: id, occurrence: at, lead: lead)) {
                let moment = at.addingTimeInterval(-TimeInterval(lead))
                if moment > now, soonest.map({ moment < $0 }) ?? true { soonest = moment }
            }
        }
        return soonest
    }
}
