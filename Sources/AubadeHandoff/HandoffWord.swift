/// A small enum whose cases the hand-off files write as words ("audible", "stop", "chime"). The same `word`
/// is written and read back, so the two cannot drift apart. Cases are numbered 0, 1, 2… by their `UInt8` raw
/// values and read by walking them, which allocates nothing (`allCases` would build an array).
public protocol HandoffWord: RawRepresentable where RawValue == UInt8 {
    var word: StaticString { get }
}

extension HandoffWord {
    /// The case field `i` of `line` names; nil for another word or a missing field.
    public init?(field line: HandoffLine, _ i: Int) {
        var raw: UInt8 = 0
        while let candidate = Self(rawValue: raw) {
            if line.fieldIs(i, candidate.word) {
                self = candidate
                return
            }
            raw += 1
        }
        return nil
    }
}
