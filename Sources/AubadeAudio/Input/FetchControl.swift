import AubadeCore

/// How a fetch thread learns that it should stop, and where it reports (house rule 1: `isStopped` and
/// `report` are called on the fetch thread and must not block).
struct FetchControl: Sendable {
    let isStopped: @Sendable () -> Bool
    let report: @Sendable (StreamEvent) -> Void
}
