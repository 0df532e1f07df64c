/// A user-facing refusal: one sentence that says what was wrong and what is accepted.
///
/// Thrown by every parser and validator in this module. The CLI prints `message` on stderr and exits 2;
/// the HTTP API answers 400 with it — or 422 when the value has the form the API's document allows and a rule
/// the document can only state in words refuses it (`unprocessable`: a time zone this machine does not know,
/// a station that is not saved). Nothing is written when one is thrown.
public struct ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The value does not have the form it must have (the document's schema refuses it too).
        case malformed
        /// The value has the right form, but names something that is not there or cannot be used here.
        case unprocessable
    }

    public let message: String
    public let kind: Kind

    public init(_ message: String, kind: Kind = .malformed) {
        self.message = message
        self.kind = kind
    }

    public var description: String { message }
}
