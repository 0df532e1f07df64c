public import AubadeCore
import Synchronization

/// A pre-alarm check whose answer a test sets (`PrecheckPort`). Thread-safe.
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
