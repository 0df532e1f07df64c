/// A config file that a `.strict` load refuses: one sentence per problem, each naming the file, the key and
/// the line, one problem per line of `message`.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// Every problem found, in file order; empty when the error was made from a message alone.
    public let problems: [ConfigProblem]

    public init(_ message: String) {
        self.message = message
        problems = []
    }

    /// Refuses a file for `problems` (at least one): their `refusal` sentences, one per line.
    public init(problems: [ConfigProblem]) {
        self.problems = problems
        message = problems.map(\.refusal).joined(separator: "\n")
    }

    public var description: String { message }
}
