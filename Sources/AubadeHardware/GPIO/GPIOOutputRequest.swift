public import AubadeCore

/// One output line to drive: which output it is, where the line is, its polarity and its pattern.
public struct GPIOOutputRequest: Hashable, Sendable {
    public var output: OutputName
    public var address: GPIOLineAddress
    /// On pulls the line low: the kernel inverts the level, so "inactive" is high.
    public var activeLow: Bool
    public var pattern: OutputPattern

    public init(output: OutputName, address: GPIOLineAddress, activeLow: Bool = false, pattern: OutputPattern = .steady) {
        self.output = output
        self.address = address
        self.activeLow = activeLow
        self.pattern = pattern
    }

    /// "GPIO16 (shaker)", as messages name a line.
    public var name: String { "\(address) (\(output))" }
}
