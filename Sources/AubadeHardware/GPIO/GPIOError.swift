/// A GPIO failure as one sentence that names the line or chip, the libgpiod call and the system's reason,
/// e.g. "GPIO line gpiochip0:17 (snooze) is not available: gpiod_chip_open_lookup(gpiochip0) failed:
/// No such file or directory."
public struct GPIOError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
