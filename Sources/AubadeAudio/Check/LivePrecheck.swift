public import AubadeCore

/// The real pre-alarm check (`AubadeCore.PrecheckPort`): a second of each station decoded, the device as the
/// engine holds it (`PreAlarmCheck.run`).
public struct LivePrecheck: PrecheckPort {
    public init() {}

    public func check(stations: [StreamURL], allowLoopback: Bool, device: DeviceStatus) async -> PreAlarmCheck.Result {
        await PreAlarmCheck.run(stations: stations, allowLoopback: allowLoopback, device: device)
    }

    public func check(episode: EpisodeAudio, device: DeviceStatus) async -> PreAlarmCheck.Result {
        await PreAlarmCheck.run(episode: episode, device: device)
    }
}
