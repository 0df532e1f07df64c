public import AubadeCore
import Synchronization

/// A backlight for tests of the daemon (`Backlight`): keeps a raw brightness and power state in memory, records
/// every percentage it was set to in order, and fails each call with `failure` while one is set.
public final class FakeBacklight: Backlight {
    private struct State {
        var reading: BacklightReading
        var found: BacklightReading
        var percents: [Int] = []
        var failure: String?
    }

    private let state: Mutex<State>

    /// A fake at `brightness` of `maxBrightness` (held to at least 1), powered on unless `power` says so.
    public init(brightness: Int = 255, maxBrightness: Int = 255, power: Int? = nil) {
        let reading = BacklightReading(brightness: brightness, maxBrightness: max(maxBrightness, 1), power: power)
        state = Mutex(State(reading: reading, found: reading))
    }

    public var description: String { "fake backlight" }

    /// Every `set(percent:)` that succeeded, with the percentage as given.
    public var percents: [Int] { state.withLock { $0.percents } }

    /// The brightness and power now.
    public var current: BacklightReading { state.withLock { $0.reading } }

    /// Makes every later call fail with `message` (nil: succeed again).
    public func fail(with message: String?) {
        state.withLock { $0.failure = message }
    }

    public func read() throws(BacklightError) -> BacklightReading {
        try state.withLock { s throws(BacklightError) in
            if let failure = s.failure { throw BacklightError(failure) }
            return s.reading
        }
    }

    public func set(percent: Int) throws(BacklightError) {
        try state.withLock { s throws(BacklightError) in
            if let failure = s.failure { throw BacklightError(failure) }
            s.reading.brightness = BacklightReading.raw(percent: percent, maxBrightness: s.reading.maxBrightness)
            if s.reading.power != nil { s.reading.power = 0 }
            s.percents.append(percent)
        }
    }

    public func switchOff() throws(BacklightError) {
        try state.withLock { s throws(BacklightError) in
            if let failure = s.failure { throw BacklightError(failure) }
            s.reading.brightness = 0
        }
    }

    public func restore() throws(BacklightError) {
        try state.withLock { s throws(BacklightError) in
            if let failure = s.failure { throw BacklightError(failure) }
            s.reading = s.found
        }
    }
}
