/// Port: GPIO input lines with both-edge events. Implementations: `LibGPIOD` (libgpiod v1 on
/// /dev/gpiochipN), `NullGPIO` (a machine without GPIO), `FakeGPIO` (tests).
///
/// Contract:
/// - `chips()` and `status(of:)` open the chip devices briefly and return at once; they never throw and
///   may be called from any thread that is allowed to block for a few milliseconds (a CLI, a dedicated
///   thread — not a hot path on the cooperative pool).
/// - `watch(_:)` requests every line as an input with both-edge events on a dedicated thread and returns
///   once the requests are done. Lines that cannot be requested are left out and described in
///   `GPIOWatchStart.failures`; it throws a `GPIOError` only when no line at all could be requested.
/// - The returned watch delivers, in order, one initial event per requested line (its level right after the
///   request) and then every edge with the kernel's timestamp. Events are never dropped silently: the
///   stream buffers the newest 256. It ends after `stop()` (the thread releases the lines within one
///   wait timeout, 200 ms), when the stream is terminated (its iterating task cancelled or the stream
///   released), or when the device fails (`failure` tells
///   why).
public protocol GPIOPort: Sendable {
    func chips() -> [GPIOChipInfo]
    func status(of address: GPIOLineAddress) -> GPIOLineStatus
    func watch(_ lines: [GPIOLineRequest]) async throws(GPIOError) -> GPIOWatchStart
}

/// A running watch: its events and a way to end it. See `GPIOPort` for the contract.
public protocol GPIOWatch: Sendable {
    var events: AsyncStream<GPIOLineEvent> { get }
    /// Why the events ended on their own (the device failed); nil while running or after `stop()`.
    var failure: GPIOError? { get }
    /// Asks the watch to release its lines; returns at once. Idempotent.
    func stop()
}

/// What `GPIOPort.watch` started, and the lines it had to leave out (by index, with the reason).
public struct GPIOWatchStart: Sendable {
    public let watch: any GPIOWatch
    public let failures: [Int: GPIOError]

    public init(watch: any GPIOWatch, failures: [Int: GPIOError]) {
        self.watch = watch
        self.failures = failures
    }
}

/// One GPIO chip: "gpiochip0", its label ("pinctrl-bcm2711"), and how many lines it has — or why it
/// could not be opened (`problem`, e.g. permission denied without the `gpio` group).
public struct GPIOChipInfo: Hashable, Sendable, Codable {
    public var name: String
    public var label: String
    public var lineCount: Int
    public var problem: String?

    public init(name: String, label: String, lineCount: Int, problem: String? = nil) {
        self.name = name
        self.label = label
        self.lineCount = lineCount
        self.problem = problem
    }
}

/// Where a configured line is, and whether someone already holds it.
public enum GPIOLineStatus: Hashable, Sendable {
    /// `consumer` is the holder's name when the line is in use, nil when it is free.
    case found(chip: String, offset: Int, consumer: String?)
    /// A sentence saying why it cannot be found.
    case missing(reason: String)
}
