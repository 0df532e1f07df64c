public import AubadeCore
import Foundation

/// What an alarm will sound, decided the same way for every alarm (the daemon's and a ring test's): the
/// station's addresses (none for the tone, or for a station that no longer exists), the levels from the
/// settings, and the reason to start on the tone — Wi-Fi-only refusing to stream, else a known failure such
/// as a failed pre-check (R16, R20).
public enum AlarmPlanning {
    public struct Plan: Sendable, Hashable {
        public var request: SoundRequest
        /// "tone", "station FIP", or the URL.
        public var description: String
        public var stations: [StreamURL] {
            if case .stations(let urls) = request.content { return urls }
            return []
        }
    }

    /// The plan of `sound`. `network` is read only when there is something to stream (Wi-Fi-only reads the
    /// route as it is when the stream would start). `episode` gives what a `podcast:` sound plays — an alarm's
    /// episode downloaded before it (a local file: Wi-Fi-only has nothing to refuse), or the episode's address
    /// for a ring test — nil when there is none to play (the reason is then `knownFailure`, or that it was not
    /// downloaded).
    public static func plan(
        sound: SoundSource, station: (Int64) -> Station?, settings: AppSettings,
        network: () -> NetworkSnapshot, volume: Int, fadeInSeconds: Int, allowLoopback: Bool,
        knownFailure: String? = nil, limit: Duration? = nil, episode: (PodcastChoice) -> EpisodeAudio? = { _ in nil }
    ) -> Plan {
        var content: SoundRequest.Content?
        var description = "tone"
        var preselected: String?
        switch sound {
        case .tone:
            break
        case .station(let id):
            if let found = station(id) {
                content = found.addresses.isEmpty ? nil : .stations(found.addresses)
                description = "station \(found.name)"
            } else {
                preselected = "The alarm's station (id \(id)) no longer exists."
                description = "station \(id) (missing)"
            }
        case .stream(let url):
            content = .stations([url])
            description = url.text
        case .podcast(let choice):
            description = choice.text
            if let audio = episode(choice) {
                content = .episode(audio)
                description = "\(choice.text) (\(Names.cut(audio.title, to: 80)))"
            } else {
                preselected = knownFailure ?? "The episode of \(choice.text) was not downloaded before the alarm."
            }
        }
        if let content {
            if content.streams,
                case .refuse(let reason) = NetworkPolicy.streaming(wifiOnly: settings.isWifi, network: network())
            {
                preselected = reason
            } else if let knownFailure {
                preselected = knownFailure
            }
        }
        let fallback = SoundRequest.Fallback(
            tone: settings.fallbackTone, toneVolume: settings.toneVolume,
            preselected: preselected)
        let request = SoundRequest(
            priority: .alarm, content: content ?? .tone(settings.fallbackTone), volume: volume,
            fadeIn: .seconds(fadeInSeconds), fallback: fallback, limit: limit, allowLoopback: allowLoopback)
        return Plan(request: request, description: description)
    }
}

extension RingTest {
    /// The plan of this ring test, the same whether the running clock rings it or `aubade ring` does without a
    /// daemon: an alarm's sound at its volume and fade-in (`alarm`), or `source` at the default volume; a volume
    /// out of range or a station that does not exist is refused in one sentence.
    public func plan(
        alarm: Alarm?, source: SoundSource?, settings: AppSettings, station: (Int64) -> Station?,
        podcast: (String) -> Podcast?, network: () -> NetworkSnapshot, allowLoopback: Bool
    ) throws(ClockError) -> AlarmPlanning.Plan {
        guard let sound = alarm?.sound ?? source else {
            throw ClockError(.invalid, "Give an alarm id or --source, not both and not neither.")
        }
        let level = volume ?? alarm?.volume ?? settings.defaultVolume
        guard Alarm.volumeRange.contains(level) else {
            throw ClockError(
                .invalid, "Volume \(level) is out of range; use \(Alarm.volumeRange.lowerBound)-\(Alarm.volumeRange.upperBound).")
        }
        if case .station(let id) = sound, station(id) == nil { throw ClockError(.notFound, "Station \(id) does not exist.") }
        if case .podcast(let choice) = sound {
            guard let found = podcast(choice.name) else {
                throw ClockError(.notFound, "No podcast is named '\(choice.name)'; see 'aubade podcast list'.")
            }
            guard found.listening(choice) != nil else {
                throw ClockError(.notFound, "Podcast \(found.name) has no episode #\(choice.episode) with audio to play.")
            }
        }
        // A ring test streams the episode from its start: it tries what the alarm would play, not where the radio
        // stopped.
        return AlarmPlanning.plan(
            sound: sound, station: station, settings: settings, network: network, volume: level,
            fadeInSeconds: alarm?.fadeInSeconds ?? settings.fadeInSeconds, allowLoopback: allowLoopback,
            limit: .seconds(seconds),
            episode: { choice in
                podcast(choice.name)?.listening(choice).map { found in
                    var audio = found.audio
                    audio.fromByte = 0
                    return audio
                }
            })
    }
}
