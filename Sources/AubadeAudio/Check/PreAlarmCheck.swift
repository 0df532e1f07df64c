public import AubadeCore
import AubadeSystemAsync
import Foundation

/// The pre-alarm check (R20) for the sound side: resolve, connect and decode a second of each station
/// address (decoded only: nothing is played), and look at the sound device as the engine holds it. The
/// blocking work runs on a dedicated thread; callers await the result.
extension PreAlarmCheck {
    /// Checks the stations (the first that decodes a second is enough) and the device the engine holds.
    public static func run(
        stations: [StreamURL], allowLoopback: Bool, device: DeviceStatus?,
        timeout: Duration = .seconds(20), hlsBandwidthCap: Int = HLSPlaylist.defaultBandwidthCap
    ) async -> Result {
        var result = Result()
        if !stations.isEmpty {
            var problems: [String] = []
            for url in stations {
                guard
                    let problem = await decodeOneSecond(
                        url, allowLoopback: allowLoopback, timeout: timeout, hlsBandwidthCap: hlsBandwidthCap)
                else {
                    problems = []
                    break
                }
                problems.append(problem)
            }
            if let first = problems.first { result.stationProblem = "Pre-alarm check: \(first)" }
        }
        if let device, !device.isOpen {
            let why = device.problem.map { " (\($0))" } ?? ""
            result.deviceProblem = "Pre-alarm check: the sound device is not open\(why)."
        }
        return result
    }

    /// Checks a downloaded episode (a second of it decodes) and the device the engine holds.
    public static func run(episode: EpisodeAudio, device: DeviceStatus?, timeout: Duration = .seconds(20)) async -> Result {
        var result = Result()
        if let problem = await runBlocking(
            "aubade.precheck", { probe(.episode(episode), allowLoopback: false, timeout: timeout) })
        {
            result.stationProblem = "Pre-alarm check: the episode \(episode.title): \(problem)"
        }
        if let device, !device.isOpen {
            let why = device.problem.map { " (\($0))" } ?? ""
            result.deviceProblem = "Pre-alarm check: the sound device is not open\(why)."
        }
        return result
    }

    /// nil when a second of audio decoded within `timeout`; else the reason. A first failure is enough to
    /// know: the alarm should not count on a station that needs a reconnect.
    public static func decodeOneSecond(
        _ url: StreamURL, allowLoopback: Bool, timeout: Duration,
        hlsBandwidthCap: Int = HLSPlaylist.defaultBandwidthCap
    ) async -> String? {
        await runBlocking("aubade.precheck") {
            probe(.station(url), allowLoopback: allowLoopback, timeout: timeout, hlsBandwidthCap: hlsBandwidthCap)
        }
    }

    private static func probe(
        _ source: FeedSource, allowLoopback: Bool, timeout: Duration,
        hlsBandwidthCap: Int = HLSPlaylist.defaultBandwidthCap
    ) -> String? {
        let feed = StationFeed(
            source: source, rate: SoundEngine.rate, allowLoopback: allowLoopback, hlsBandwidthCap: hlsBandwidthCap
        ) { _ in }
        defer { feed.stop() }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var buffer = [Int16](repeating: 0, count: 2 * 4096)
        var decoded = 0
        while decoded < SoundEngine.rate {
            let n = buffer.withUnsafeMutableBufferPointer { feed.pull(frames: 4096, into: $0) }
            decoded += n
            guard n == 0 else { continue }
            // Nothing more to decode now: a failure the network reported is the answer (what had arrived before
            // it was decoded first), else wait for the network to bring bytes, end or fail — no polling.
            if let failure = feed.takeFailure() { return failure }
            if feed.playedToEnd { return "it holds less than a second of audio." }
            let now = clock.now
            guard now < deadline else {
                return "the station gave no audio within \(Int(timeout / .seconds(1))) s."
            }
            feed.waitForInput(atMost: deadline - now)
        }
        return nil
    }
}
