/// The GPIO stand-in for a machine without GPIO (or with GPIO turned off): no chips, no lines, and a
/// `watch` that fails with one clear sentence, so callers fall back to "buttons off" (rule 8).
public struct NullGPIO: GPIOPort {
    public let reason: String

    public init(reason: String = "GPIO is not available on this machine") {
        self.reason = reason
    }

    public func chips() -> [GPIOChipInfo] { [] }

    public func status(of address: GPIOLineAddress) -> GPIOLineStatus {
        .missing(reason: reason)
    }

    public func watch(_ lines: [GPIOLineRequest]) async throws(GPIOError) -> GPIOWatchStart {
        let names = lines.map(\.name).joined(separator: ", ")
        throw GPIOError("GPIO line(s) \(names) cannot be watched: \(reason).")
    }
}
