import AubadeCore
import Foundation

/// A ring test sounding now (`aubade ring`, `POST /api/v1/ring`): it plays at alarm priority through the
/// whole fallback path, so it is shown and stopped as an alarm is — the kiosk shows Stop, the screen lights up,
/// a Stop or Snooze (button, kiosk, CLI) ends it — but it is not an alarm: nothing is recorded or snoozed.
struct RingTestSound: Sendable {
    let id: SoundID
    /// The alarm whose sound is tested, if one was named.
    let alarm: Int64?
    /// What it plays, as the reply to the test said.
    var source: String
    let startedAt: Date
    /// The sound reached the card.
    var audible = false
}

extension ClockState {
    /// The engine's report about the ring test's sound.
    mutating func ringTestEvent(_ event: SoundEvent) {
        switch event {
        case .audible(_, let source, _):
            ringTest?.audible = true
            ringTest?.source = source
        case .fallback(_, _, let to, _):
            ringTest?.source = to
        case .stopped:
            ringTest = nil
        default:
            break
        }
    }

    /// Stops the ring test, if one sounds: at once for the clock (the kiosk's Stop goes away, a second Stop
    /// finds nothing to stop); the engine's `stopped` report follows.
    @discardableResult
    mutating func stopRingTest() -> Bool {
        guard let test = ringTest else { return false }
        ringTest = nil
        context.effects.stop(test.id)
        return true
    }
}
