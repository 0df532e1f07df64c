import Foundation

extension AlarmScheduler {
    /// The user asked to snooze (button, web page, API). Applies to `alarmID`, else to the sounding alarm.
    /// Only a ringing alarm snoozes; after `maxSnoozes` snoozes it keeps ringing and `.snoozeRefused`
    /// tells the user that only stop works. A press whose edge (`pressedAt`, monotonic) came before the
    /// alarm started ringing is ignored: a button held down across the start does nothing (R15).
    public mutating func snoozePressed(at now: SchedulerTime, alarmID: Int64? = nil,
                                       pressedAt: MonotonicInstant? = nil) -> [SchedulerAction] {
        var batch = ActionBatch()
        prepare(now, &batch)
        if let id = alarmID ?? ringingAlarmID, let alarm = alarms[id], state(of: id).phase == .ringing,
           isFresh(pressedAt, for: id) {
            if state(of: id).snoozeCount < alarm.maxSnoozes {
                snooze(id, now, &batch)
            } else {
                batch.record(HistoryEvent(at: now.wall, alarmID: id, kind: .snoozeRefused,
                                          detail: "all \(alarm.maxSnoozes) snoozes used"))
                batch.refuseSnooze(id)
            }
        }
        return batch.actions(wake: wakeUp(now))
    }

    /// The user asked to stop. Without `alarmID` it dismisses the sounding alarm only (a stray press during
    /// a snooze does nothing, R15); with `alarmID` it also dismisses that alarm's pending snooze. A press
    /// whose edge came before the alarm started ringing is ignored (R15). `input`, when given, is named in
    /// the recorded detail ("by=button") for the morning report.
    public mutating func stopPressed(at now: SchedulerTime, alarmID: Int64? = nil,
                                     pressedAt: MonotonicInstant? = nil,
                                     by input: DismissInput? = nil) -> [SchedulerAction] {
        var batch = ActionBatch()
        prepare(now, &batch)
        let by = input.map(HistoryDetail.dismissed(by:))
        if let id = alarmID ?? ringingAlarmID {
            switch state(of: id).phase {
            case .ringing where isFresh(pressedAt, for: id):
                end(id, kind: .dismissed, stop: .dismissed, now, &batch, detail: by ?? "")
            case .snoozed where alarmID != nil:
                end(id, kind: .dismissed, stop: nil, now, &batch,
                    detail: "during its snooze" + (by.map { ", " + $0 } ?? ""))
            default:
                break
            }
        }
        return batch.actions(wake: wakeUp(now))
    }

    /// A sustained shake was detected (see `ShakeDetector`): dismisses the sounding alarm if it allows
    /// shake-to-stop; otherwise does nothing.
    public mutating func shakeDetected(at now: SchedulerTime) -> [SchedulerAction] {
        var batch = ActionBatch()
        prepare(now, &batch)
        if let id = ringingAlarmID, alarms[id]?.shakeToStop == true {
            end(id, kind: .dismissed, stop: .dismissed, now, &batch, detail: "shake")
        }
        return batch.actions(wake: wakeUp(now))
    }

    private func isFresh(_ pressedAt: MonotonicInstant?, for id: Int64) -> Bool {
        guard let pressedAt, let start = ringStarts[id] else { return true }
        return pressedAt >= start
    }
}
