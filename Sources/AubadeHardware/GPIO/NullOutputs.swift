public import AubadeCore

/// The outputs of a machine without GPIO, or with no output configured: none available, each configured one
/// named in `problems` with the reason (rule 8: the clock rings without them).
public struct NullOutputs: OutputSwitches {
    public let problems: [OutputName: String]

    public init(configured: [OutputName] = [], reason: String = "GPIO is not available on this machine") {
        problems = Dictionary(uniqueKeysWithValues: configured.map { ($0, reason) })
    }

    public var available: [OutputName] { [] }
    public func set(_ name: OutputName, on: Bool) {}
    public func isOn(_ name: OutputName) -> Bool { false }
    public func shutdown() async {}
}
