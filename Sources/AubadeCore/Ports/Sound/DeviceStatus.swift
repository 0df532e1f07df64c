/// The sound device as the engine holds it.
public struct DeviceStatus: Sendable, Equatable {
    public var isOpen: Bool
    /// The device in use (the alternate when the first failed).
    public var name: String?
    /// Why it is not open (or failed last), one sentence.
    public var problem: String?
    /// How many times it was opened: 1 while it never failed.
    public var opens: Int

    public init(isOpen: Bool, name: String?, problem: String?, opens: Int) {
        self.isOpen = isOpen
        self.name = name
        self.problem = problem
        self.opens = opens
    }
}
