import AubadeAudio
import AubadeCore
import Synchronization

/// Work the clock starts and does not wait for (a pre-alarm check takes seconds): it runs as a child task
/// of one service in the `ServiceGroup` (`WorkService`), so it is cancelled at shutdown — no unstructured
/// tasks. Contract: `submit` returns at once; the job reports back by calling the clock.
public protocol BackgroundJobs: Sendable {
    func submit(_ job: @escaping @Sendable () async -> Void)
}

/// Jobs held until a test runs them, so a test decides when a pre-check "finishes". Thread-safe.
public final class ManualJobs: BackgroundJobs {
    private let pending = Mutex<[@Sendable () async -> Void]>([])

    public init() {}

    public func submit(_ job: @escaping @Sendable () async -> Void) { pending.withLock { $0.append(job) } }

    public var count: Int { pending.withLock { $0.count } }

    /// Runs every job submitted so far (and those they submit), in order.
    public func runAll() async {
        while let job = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { await job() }
    }
}

/// The pre-alarm check (R20) as the clock uses it.
public protocol PrecheckPort: Sendable {
    func check(stations: [StreamURL], allowLoopback: Bool, device: DeviceStatus) async -> PreAlarmCheck.Result
}

/// The real check: a second of each station decoded, the device as the engine holds it.
public struct LivePrecheck: PrecheckPort {
    public init() {}

    public func check(stations: [StreamURL], allowLoopback: Bool, device: DeviceStatus) async -> PreAlarmCheck.Result {
        await PreAlarmCheck.run(stations: stations, allowLoopback: allowLoopback, device: device)
    }
}

/// A check whose answer a test sets. Thread-safe.
public final class FakePrecheck: PrecheckPort {
    private let answer = Mutex<(result: PreAlarmCheck.Result, asked: [[StreamURL]])>((PreAlarmCheck.Result(), []))

    public init(_ result: PreAlarmCheck.Result = PreAlarmCheck.Result()) { answer.withLock { $0.result = result } }

    public func set(_ result: PreAlarmCheck.Result) { answer.withLock { $0.result = result } }
    public var asked: [[StreamURL]] { answer.withLock { $0.asked } }

    public func check(stations: [StreamURL], allowLoopback: Bool, device: DeviceStatus) async -> PreAlarmCheck.Result {
        answer.withLock { a in
            a.asked.append(stations)
            return a.result
        }
    }
}
