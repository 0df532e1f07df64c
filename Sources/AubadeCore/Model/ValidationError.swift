/// A user-facing refusal: one sentence that says what was wrong and what is accepted.
///
/// Thrown by every parser and validator in this module. The CLI prints `message` on stderr and exits 2;
/// the HTTP API answers 400 with it. Nothing is written when one is thrown.
public struct ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
