import AubadeCore
import Foundation

/// What the shell reads of the world once per input, before the clock decides it (`ClockState.reduce`): the two
/// clocks, the route, the sound device, whether the kernel's clock is synchronised, the system's zone — and, for the
/// inputs that ask for them, what the second waker's files, the token registry and the backlight's thread say.
/// Deciding reads nothing else: given the same state, input and reading, it decides the same.
struct WorldReading: Sendable {
    var now: SchedulerTime
    var network: NetworkSnapshot
    var device: DeviceStatus
    var synchronised: Bool
    var systemZone: TimeZone
    /// Random bits for the input (a pairing code is drawn from them).
    var entropy: UInt64
    /// What the backlight's thread said of its writes since the last input: nil nothing new, `.some(nil)` they
    /// work again, an error they fail.
    var backlight: BacklightError?? = nil
    /// The second waker's report as last read (the status shows it); nil without a waker.
    var waker: WakerReport? = nil
    /// On a turn: the waker's report if it changed since the last look, and the history's waker rings when the
    /// clock has not read them yet (nil: not read, the store did not answer in time).
    var wakerChanged: WakerReport? = nil
    var wakerHistory: [HistoryEvent]? = nil
    /// On a turn: the device tokens used since the last turn, by id.
    var tokenUses: [Int64: Date] = [:]
    /// On `status`: the history of the last day for the morning report (nil: the store did not answer in time).
    var recentEvents: [HistoryEvent]? = nil
}

/// What this clock was built with besides its options: which ports it has (the backup copy keeps no calendars,
/// feeds or logos; the directory may be off; in-process tests have no second waker).
struct ClockCapabilities: Sendable {
    var calendars: Bool
    var podcasts: Bool
    var directory: Bool
    var logos: Bool
    var waker: Bool
    /// The outputs this clock holds (a bed shaker, a lamp), in `OutputName` order.
    var outputs: [OutputName] = []
    /// Whether a microphone listens to the rings.
    var room = false
    /// Why the store keeps no calendars, feeds or logos (the backup copy), if so.
    var readOnlyReason: String?

    // The one sentence for each port this clock lacks, whichever side finds it missing.

    var noCalendars: ClockError { ClockError(.failed, readOnlyReason ?? "This clock's store keeps no calendars.") }
    var noPodcasts: ClockError { ClockError(.failed, readOnlyReason ?? "This clock reads no podcast feeds.") }
    var noLogos: ClockError { ClockError(.failed, readOnlyReason ?? "This clock's store keeps no station logos.") }
    static let directoryOff = ClockError(.off, "The station directory is off in the config ([directory] enabled = false).")
}

/// What every part of the clock decides with, during one input: the options and ports it was built with, the
/// world as read for the input, the catalogue it reads, and the warnings and effects it writes. A value, part of
/// `ClockState`; a part's method takes it `inout` beside its own state.
struct ClockContext {
    let options: ClockOptions
    let caps: ClockCapabilities
    var world: WorldReading
    var catalogue: Catalogue
    var board = StatusBoard()
    var effects = Effects()

    /// Sets (or clears, with nil) the standing warning under `key`; a new text is printed once, unless `announce`
    /// is false (its adapter already logged it).
    mutating func warn(_ key: String, _ text: String?, announce: Bool = true) {
        if board.set(key, text), announce, let text { effects.emit("warning", ["message": text]) }
    }

    var now: SchedulerTime { world.now }
}
