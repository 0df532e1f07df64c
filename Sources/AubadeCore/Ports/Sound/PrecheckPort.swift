/// Port: the pre-alarm check (R20) as the clock uses it — a second of each station decoded (nothing played), and
/// the sound device as the engine holds it. Implementations: `LivePrecheck` (AubadeAudio, whose
/// `PreAlarmCheck.run` does the blocking work on a thread of its own) and `FakePrecheck` (AubadeTesting).
/// Contract: `check` may take seconds; the clock runs it as a background job and never waits for it.
public protocol PrecheckPort: Sendable {
    func check(stations: [StreamURL], allowLoopback: Bool, device: DeviceStatus) async -> PreAlarmCheck.Result
    /// A second of a downloaded episode decoded, and the device.
    func check(episode: EpisodeAudio, device: DeviceStatus) async -> PreAlarmCheck.Result
}

/// The pre-alarm check (R20): its answer here, its work in the audio adapter (`PreAlarmCheck.run`).
public enum PreAlarmCheck {
    /// What went wrong, one sentence each; empty when everything works.
    public struct Result: Sendable, Hashable {
        public var stationProblem: String?
        public var deviceProblem: String?

        public init(stationProblem: String? = nil, deviceProblem: String? = nil) {
            self.stationProblem = stationProblem
            self.deviceProblem = deviceProblem
        }

        public var failure: String? {
            [stationProblem, deviceProblem].compactMap { $0 }.first
        }
    }
}
