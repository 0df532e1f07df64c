import AubadeAudio
import AubadeCore
import Foundation

/// What an alarm will sound, decided the same way by the daemon and by `aubade ring`: the station's addresses
/// (none for the tone, or for a station that no longer exists), the levels from the settings, and the reason to
/// start on the tone — Wi-Fi-only refusing to stream (R16 with issue 5's policy), else a known failure such as
/// a failed pre-check (R20).
public enum AlarmPlanning {
    /// The plan and a short description of the source ("tone", "station FIP", the URL). `network` is read
    /// only when there is something to stream.
    public static func plan(sound: SoundSource, station: (Int64) -> Station?, settings: AppSettings,
                            network: () -> NetworkSnapshot, volume: Int, fadeInSeconds: Int, allowLoopback: Bool,
                            knownFailure: String? = nil, duration: Duration? = nil) -> (plan: AlarmSoundPlan, description: String) {
        var urls: [StreamURL] = []
        var description = "tone"
        var preselected: String?
        switch sound {
        case .tone:
            break
        case .station(let id):
            if let found = station(id) {
                urls = found.addresses
                description = "station \(found.name)"
            } else {
                preselected = "The alarm's station (id \(id)) no longer exists."
                description = "station \(id) (missing)"
            }
        case .stream(let url):
            urls = [url]
            description = url.text
        }
        if !urls.isEmpty {
            if case .refuse(let reason) = NetworkPolicy.streaming(wifiOnly: settings.isWifi, network: network()) {
                preselected = reason
            } else if let knownFailure {
                preselected = knownFailure
            }
        }
        let plan = AlarmSoundPlan(stations: urls, tone: settings.fallbackTone, volume: volume,
                                  fadeIn: .seconds(fadeInSeconds), toneVolume: settings.toneVolume,
                                  allowLoopback: allowLoopback, preselectedFallback: preselected, duration: duration)
        return (plan, description)
    }
}
