/// The outputs a clock can have (`[outputs.shaker]`, `[outputs.lamp]`): a bed shaker under the pillow (the channel
/// that still works when the sound card does not, and for a sleeper who cannot hear) and a lamp or strobe. Two
/// fixed names, not any name: an alarm says what each one does (`--shaker`, `--lamp`), the second waker drives
/// them, and Home Assistant shows one switch each.
public enum OutputName: String, Hashable, Sendable, CaseIterable, Comparable, Codable, CustomStringConvertible {
    case shaker
    case lamp

    public static func < (a: OutputName, b: OutputName) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    public var description: String { rawValue }
}
