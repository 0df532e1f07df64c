import AubadeCore

/// How a fetch thread learns that it should stop, and where it reports (docs/HOUSE-RULES.md §1: `isStopped`,
/// `waitForStop` and `report` are called on the fetch thread; only `waitForStop` blocks, and only as long as asked).
struct FetchControl: Sendable {
    let isStopped: @Sendable () -> Bool
    /// Waits until stopped or `duration` has passed (the backoff between reconnects); whether stopped.
    let waitForStop: @Sendable (Duration) -> Bool
    let report: @Sendable (StreamEvent) -> Void
}
