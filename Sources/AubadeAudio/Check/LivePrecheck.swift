public import AubadeCore

/// The real pre-alarm check (`AubadeCore.PrecheckPort`): a second of each station decoded, the device as the
/// engine holds it (`PreAlarmCheck.run`).
public struct LivePrecheck: PrecheckPort {
    /// The HLS variant cap the alarm will play with (so the check decodes the variant the alarm rings).
    let hlsBandwidthCap: Int

    public init(hlsBandwidthCap: Int = HLSPlaylist.defaultBandwidthCap) {
        self.hlsBandwidthCap = hlsBandwidthCap
    }

    public func check(stations: [StreamURL], allowLoopback: Bool, device: DeviceStatus) async -> PreAlarmCheck.Result {
        await PreAlarmCheck.run(
            stations: stations, allowLoopback: allowLoopback, device: device, hlsBandwidthCap: hlsBandwidthCap)
    }

    public func check(episode: EpisodeAudio, device: DeviceStatus) async -> PreAlarmCheck.Result {
        await PreAlarmCheck.run(episode: episode, device: device)
    }
}
