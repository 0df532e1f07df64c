/// Port: work the clock starts and does not wait for (a pre-check takes seconds). Implementations: `WorkService`
/// (AubadeApp: each job a child task of one service in the `ServiceGroup`, so it is cancelled at shutdown — no
/// unstructured tasks) and `ManualJobs` (AubadeTesting: held until a test runs them). Contract: `submit` returns
/// at once; the job reports back by calling the clock.
public protocol BackgroundJobs: Sendable {
    func submit(_ job: @escaping @Sendable () async -> Void)
}
