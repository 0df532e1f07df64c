public import AubadeCore

/// The room check as the running clock's `RoomListener` port: the same `RoomCheck` that `aubade verify microphone`
/// uses, its outcome in the clock's words (heard, not heard, or could not tell, with the evidence — or why there is
/// none — as the reason).
public struct RoomCheckListener: RoomListener {
    public let check: RoomCheck

    public init(_ check: RoomCheck) {
        self.check = check
    }

    public func arm() { check.arm() }
    public func disarm() { check.disarm() }

    public func listen(since: MonotonicInstant, report: @escaping @Sendable (RoomReport) -> Void) {
        check.listen(since: since) { outcome in
            switch outcome {
            // The evidence alone: the clock says "not heard in the room: …" in its own words.
            case .verdict(let v): report(RoomReport(heard: v.heard, reason: v.evidence?.description ?? v.description))
            case .unavailable, .superseded: report(RoomReport(heard: nil, reason: outcome.description))
            }
        }
    }
}
