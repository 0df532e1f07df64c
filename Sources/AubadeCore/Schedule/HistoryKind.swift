import Foundation

/// The `kind` words the alarm engine writes into the event history.
public enum HistoryKind: String, CaseIterable, Sendable {
    case rang
    /// Rang after a restart or a clock step, later than its time but within the catch-up window (R6).
    case rangLate = "rang-late"
    /// Rang again after a restart interrupted it (R9).
    case resumed
    case snoozed
    case snoozeRefused = "snooze-refused"
    case snoozeEnded = "snooze-ended"
    case dismissed
    case autoSilenced = "auto-silenced"
    /// Due longer ago than the catch-up window: reported, never rung (R6).
    case missed
    /// Passed over because of skip-next.
    case skipped
    /// Another alarm (or its own next occurrence) took over while it rang (R13).
    case superseded
    /// A pending ring or snooze was dropped by an edit, a disable or a removal (R10).
    case cancelled
    /// The wall clock stepped (R5); `detail` says by how much.
    case clockStep = "clock-step"
    case timeZoneChanged = "time-zone-changed"
}

extension HistoryEvent {
    /// An event of the alarm engine.
    public init(at: Date, alarmID: Int64?, kind: HistoryKind, detail: String = "") {
        self.init(at: at, alarmID: alarmID, kind: kind.rawValue, detail: detail)
    }
}
