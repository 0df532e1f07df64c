/// One thing in a config file that cannot be used as written: a value of the wrong type, out of range or not
/// one of the choices, a misspelt button in a press table, a section that is not a table — or the whole file,
/// when it cannot be read or is not TOML. It names the file, the key and its line, says why, and says what
/// is used instead. In `.lenient` mode the clock carries on with that fallback and shows `message` (R36); in
/// `.strict` mode the file is refused with `refusal`.
public struct ConfigProblem: Equatable, Sendable, CustomStringConvertible {
    /// The dotted key ("http.port", "buttons.short_press.snoze", "http" for a whole section); nil when the
    /// problem is the whole file.
    public let key: String?
    /// The 1-based line of the key (or of the syntax error); nil when it cannot be found (a missing file).
    public let line: Int?
    /// The sentence that reports the problem and what is used instead, for a clock that keeps running:
    /// "Config file t.toml: http.port at line 2 must be a whole number; the default 8080 is used."
    public let message: String
    /// The same sentence without the fallback, for a command that refuses the file:
    /// "Config file t.toml: http.port at line 2 must be a whole number."
    public let refusal: String

    /// A value or section that cannot be used: `reason` is the sentence's predicate ("must be a whole
    /// number"), `fallback` what happens instead ("the default 8080 is used").
    init(file: String, key: String, line: Int?, reason: String, fallback: String) {
        let statement = "Config file \(file): \(key)\(line.map { " at line \($0)" } ?? "") \(reason)"
        self.key = key
        self.line = line
        refusal = statement + "."
        message = statement + "; " + fallback + "."
    }

    /// The whole file cannot be used (`statement` is a sentence without its full stop); every key then
    /// uses its default.
    init(wholeFile statement: String, line: Int?) {
        key = nil
        self.line = line
        refusal = statement + "."
        message = statement + "; every key uses its default."
    }

    public var description: String { message }

    /// `problems` in the order of the file: by line, those without one last, ties in reading order.
    static func inFileOrder(_ problems: [ConfigProblem]) -> [ConfigProblem] {
        problems.enumerated().sorted { a, b in
            (a.element.line ?? .max, a.offset) < (b.element.line ?? .max, b.offset)
        }.map(\.element)
    }
}
