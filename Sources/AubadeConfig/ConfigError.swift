/// A config file that cannot be used: one sentence naming the file, the key and the line.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
