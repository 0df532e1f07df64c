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

    /// The same answer for an episode; what was asked is the episode's file or address.
    public func check(episode: EpisodeAudio, device: DeviceStatus) async -> PreAlarmCheck.Result {
        answer.withLock { a in
            switch episode.origin {
            case .file(let path): a.asked.append([(try? StreamURL(parsing: "http://file.invalid" + path))].compactMap { $0 })
            case .stream(let url): a.asked.append([url])
            }
            return a.result
        }
    }
}
