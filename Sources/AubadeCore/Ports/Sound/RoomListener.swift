/// The microphone that proves the room heard an alarm (`[verify] microphone`): a way to climb sooner, never a
/// condition to ring. The running clock tells it when a ring is near (`arm`: the room's noise is measured before
/// the ring), when a sound begins (`listen`: its verdict comes back as a clock input within seconds) and when nothing
/// is left to hear (`disarm`). Every call returns at once: the capture, the decision and any failure live on the
/// microphone's own thread.
public protocol RoomListener: Sendable {
    func arm()
    /// Listens for the sound that began at `since` (the ring's start, or a step of its ladder); `report` is called
    /// once, on the microphone's thread, with what it found.
    func listen(since: MonotonicInstant, report: @escaping @Sendable (RoomReport) -> Void)
    func disarm()
}

/// What a room check found: heard or not (nil: it could not tell — no microphone, nothing played, a newer listen),
/// and one sentence of why.
public struct RoomReport: Sendable, Hashable {
    public var heard: Bool?
    public var reason: String

    public init(heard: Bool?, reason: String) {
        self.heard = heard
        self.reason = reason
    }
}
