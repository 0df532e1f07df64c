import Foundation

/// Collects what one event of `AlarmScheduler` decided and hands it out in the order `SchedulerAction`
/// promises: persists and alarm saves first (R9), then history, then sound changes, then the wake-up.
struct ActionBatch {
    private var persists: [AlarmRunState] = []
    private var alarmSaves: [Alarm] = []
    private var records: [HistoryEvent] = []
    private var afterRingActions: [SchedulerAction] = []
    /// Ring requests of alarms still ringing, in the order they were made; only the last one is sounded.
    private var ringRequests: [RingRequest] = []
    private var stops: [(id: Int64, reason: StopReason, by: DismissInput?)] = []
    private var refusals: [Int64] = []
    /// The alarm the player's sound counted for when the batch began.
    private let soundingBefore: Int64?

    /// A batch for an event that found the player sounding for `soundingBefore` (nil: silent).
    init(soundingBefore: Int64?) {
        self.soundingBefore = soundingBefore
    }

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

    /// Sound `request`; cancels a stop of the same alarm queued earlier in this batch.
    mutating func ring(_ request: RingRequest) {
        stops.removeAll { $0.id == request.alarmID }
        ringRequests.removeAll { $0.alarmID == request.alarmID }
        ringRequests.append(request)
    }

    /// Alarm `id` stops ringing; cancels a ring request for it made earlier in this batch.
    mutating func stop(_ id: Int64, _ reason: StopReason, by input: DismissInput? = nil) {
        ringRequests.removeAll { $0.alarmID == id }
        stops.removeAll { $0.id == id }
        stops.append((id, reason, input))
    }

    /// A ladder's step or outputs (`.climb`, `.outputs`) or a wake-up check's question (`.wakeCheck`), carried out
    /// after the ring of this batch, in order.
    mutating func afterRing(_ action: SchedulerAction) {
        afterRingActions.append(action)
    }

    mutating func refuseSnooze(_ id: Int64) {
        refusals.append(id)
    }

    /// Drops what was queued for a removed alarm that can no longer be stored.
    mutating func forget(_ id: Int64) {
        persists.removeAll { $0.alarmID == id }
        alarmSaves.removeAll { $0.id == id }
    }

    /// The actions in contract order, ending with `.wakeMe(wake)`. `ringing` is the ringing group after
    /// the batch: each stop names the members still ringing once it is carried out (those, and the ones later
    /// stops end), so that only the last stop of a batch that leaves nothing ringing silences the player.
    func actions(wake: WakeUp, ringing: [Int64]) -> [SchedulerAction] {
        var out: [SchedulerAction] = persists.map { .persist($0) }
        out += alarmSaves.map { .saveAlarm($0) }
        out += records.map { .record($0) }
        if var request = ringRequests.last {
            request.replacing = soundingBefore == request.alarmID ? nil : soundingBefore
            out.append(.ring(request))
        }
        out += afterRingActions
        for (index, stop) in stops.enumerated() {
            let later = stops[(index + 1)...].map(\.id)
            let others = Set(ringing + later).subtracting([stop.id]).sorted()
            out.append(
                .stopRinging(
                    StopRinging(
                        alarmID: stop.id, reason: stop.reason, by: stop.by,
                        othersStillRinging: others)))
        }
        out += refusals.map { .snoozeRefused(alarmID: $0) }
        out.append(.wakeMe(wake))
        return out
    }
}
