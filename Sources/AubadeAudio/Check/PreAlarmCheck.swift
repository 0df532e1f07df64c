import AubadeCore
import Foundation
import Logging

/// The pre-alarm check (R20) for the sound side: resolve, connect and decode a second of each station
/// address (into the `null` device, unpaced, so it takes well under a second once data flows), and open the
/// sound device. Blocking work runs on the players' own threads; callers await the result.
public enum PreAlarmCheck {
    /// What went wrong, one sentence each; empty when everything works.
    public struct Result: Sendable, Hashable {
        public var stationProblem: String?
        public var deviceProblem: String?

        public var failure: String? {
            [stationProblem, deviceProblem].compactMap { $0 }.first
        }
    }

    /// Checks the stations (the first that decodes a second is enough) and, when `checkDevice`, the device.
    public static func run(stations: [StreamURL], allowLoopback: Bool, sink: SinkOptions, checkDevice: Bool,
                           timeout: Duration = .seconds(20)) async -> Result {
        var result = Result()
        if !stations.isEmpty {
            var problems: [String] = []
            for url in stations {
                guard let problem = await decodeOneSecond(url, allowLoopback: allowLoopback, timeout: timeout) else {
                    problems = []
                    break
                }
                problems.append(problem)
            }
            if let first = problems.first { result.stationProblem = "Pre-alarm check: \(first)" }
        }
        if checkDevice, let problem = AudioLibraries.probePlayback(device: sink.device) {
            if let alternate = sink.alternate, !alternate.isEmpty, AudioLibraries.probePlayback(device: alternate) == nil {
                return result
            }
            result.deviceProblem = "Pre-alarm check: the sound device \(sink.device) does not open (\(problem))."
        }
        return result
    }

    /// nil when a second of audio decoded; else the reason.
    static func decodeOneSecond(_ url: StreamURL, allowLoopback: Bool, timeout: Duration) async -> String? {
        let playback = StreamPlayer.start(url, options: StreamPlayer.Options(volume: 0, duration: .seconds(1),
                                                                              allowLoopback: allowLoopback),
                                          sink: SinkOptions(device: "null", paced: false))
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            playback.stop()
        }
        defer { watchdog.cancel() }
        var lastError: String?
        for await event in playback.events {
            switch event {
            case .error(let reason, _): lastError = reason
            case .reconnecting:
                // A first attempt that failed is enough to know: the alarm should not count on it.
                playback.stop()
            case .stopped(let reason):
                if reason == .finished { return nil }
                return lastError ?? "the station gave no audio within \(Int(timeout.inSeconds)) s."
            default: break
            }
        }
        return lastError ?? "the station check ended early."
    }
}
