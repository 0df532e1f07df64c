import AubadeCore
import Foundation

/// The event history (the morning report's source): each step is committed to the store and printed. A
/// store that cannot write becomes a warning; it never stops an alarm. Not Sendable: the clock actor owns it.
final class HistoryLog {
    let store: any ClockStore
    let output: DaemonOutput
    let board: StatusBoard

    init(store: any ClockStore, output: DaemonOutput, board: StatusBoard) {
        self.store = store
        self.output = output
        self.board = board
    }

    /// Records `event` and prints it with `fields` (the event's alarm and detail by default).
    func record(_ event: HistoryEvent, fields: KeyValuePairs<String, (any Sendable)?>? = nil) {
        do throws(StoreError) { try store.record(event) } catch {
            board.set("history", "The event history could not be written (\(error.description)).")
        }
        output.emit(event.kind, fields ?? ["alarm": event.alarmID, "detail": event.detail.isEmpty ? nil : event.detail])
    }

    func record(_ kind: HistoryKind, at wall: Date, alarm: Int64? = nil, _ detail: String = "") {
        record(HistoryEvent(at: wall, alarmID: alarm, kind: kind.rawValue, detail: detail))
    }
}
