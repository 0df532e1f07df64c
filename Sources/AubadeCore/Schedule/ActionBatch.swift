import Foundation

/// Collects what one event of `AlarmScheduler` decided and hands it out in the order `SchedulerAction`
/// promises: persists and alarm saves first (R9), then history, then sound changes, then the wake-up.
struct ActionBatch {
    private var persists: [AlarmRunState] = []
    private var alarmSaves: [Alarm] = []
    private var records: [HistoryEvent] = []
    private var ringRequest: RingRequest?
    private var stops: [(id: Int64, reason: StopReason)] = []
    private var refusals: [Int64] = []

    /// Commit `state`; a later state of the same alarm in this batch replaces it.
    mutating func persist(_ state: AlarmRunState) {
        persists.removeAll { $0.alarmID == state.alarmID }
        persists.append(state)
    }

    mutating func saveAlarm(_ alarm: Alarm) {
        alarmSaves.removeAll { $0.id == alarm.id }
        alarmSaves.append(alarm)
    }

    mutating func record(_ event: HistoryEvent) {
        records.append(event)
    }

    /// Sound `request`; only the last request of a batch is sounding when it ends, so only it is kept.
    mutating func ring(_ request: RingRequest) {
        stops.removeAll { $0.id == request.alarmID }
        ringRequest = request
    }

    /// Alarm `id` stops sounding; cancels a ring request for it made earlier in this batch.
    mutating func stop(_ id: Int64, _ reason: StopReason) {
        if ringRequest?.alarmID == id { ringRequest = nil }
        stops.removeAll { $0.id == id }
        stops.append((id, reason))
    }

    mutating func refuseSnooze(_ id: Int64) {
        refusals.append(id)
    }

    /// Drops what was queued for a removed alarm that can no longer be stored.
    mutating func forget(_ id: Int64) {
        persists.removeAll { $0.alarmID == id }
        alarmSaves.removeAll { $0.id == id }
    }

    /// The actions in contract order, ending with `.wakeMe(wake)`.
    func actions(wake: WakeUp) -> [SchedulerAction] {
        var out: [SchedulerAction] = persists.map { .persist($0) }
        out += alarmSaves.map { .saveAlarm($0) }
        out += records.map { .record($0) }
        if let ringRequest { out.append(.ring(ringRequest)) }
        out += stops.map { .stopRinging(alarmID: $0.id, reason: $0.reason) }
        out += refusals.map { .snoozeRefused(alarmID: $0) }
        out.append(.wakeMe(wake))
        return out
    }
}
