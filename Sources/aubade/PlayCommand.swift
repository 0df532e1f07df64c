import ArgumentParser
import AubadeApp
import AubadeAudio
import AubadeConfig
import AubadeCore
import AubadeHardware
import AubadeStore
import Foundation

/// `aubade play`: listen now to a station, a stream URL or a built-in tone, printing titles as they change.
/// Through the running clock when there is one (its engine owns the device), else in this process.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Listen now: a saved station, an http(s) stream URL, a podcast's episode, or tone / tone:chime / tone:rising.")
    @OptionGroup var global: GlobalOptions
    @Argument(
        help:
            "A station name, an http(s) URL, podcast:<name> (its newest episode; podcast:<name>#2 the one before), or tone, tone:classic, tone:chime, tone:rising."
    ) var source: String
    @Option(name: .customLong("for"), help: "How long, e.g. 30s — wall time, audio or not (default: until Ctrl-C).")
    var duration: String?
    @Option(
        help:
            "Volume, 1-100 for listening (alarms take 10-100, so that they are always heard; default: the defaultVolume setting, toneVolume for tones)."
    )
    var volume: Int?
    @Flag(name: .customLong("allow-local"), help: "Allow stream addresses on this machine.") var allowLocal = false

    func run() async throws {
        let context = try global.context()
        let seconds = try duration.map { try DurationText.seconds(parsing: $0, field: "Duration", in: 1...(24 * 3600)) }
        if let volume, !(1...100).contains(volume) {
            throw CLIError.badInput("Volume \(volume) is out of range; use 1 to 100.")
        }
        let started: SoundSession.Started
        if let viaClock = try SoundSession.throughDaemon(
            .play(source: source, seconds: seconds, volume: volume), context: context)
        {
            started = viaClock
        } else {
            started = try playHere(context, seconds: seconds)
        }
        let signals = StopOnSignals(started.stop)
        defer { signals.cancel() }
        var printer = EventPrinter(json: context.json, label: started.label)
        var position: (byte: Int64, atEnd: Bool)?
        let failure = await started.listen { event in
            if case .position(_, let byte, let atEnd) = event { position = (byte, atEnd) }
            printer.print(event)
        }.failure
        // Played here (no clock running): where the episode got to is remembered as the clock would remember it.
        if let episode = started.episode, let position {
            let resume = position.atEnd ? nil : PodcastResume(episode: episode.id, byte: position.byte)
            _ = try? Edits.apply(.podcastPosition(name: episode.podcast, resume), context: context)
        }
        if let failure {
            if context.json { throw ExitCode(1) }
            throw CLIError.failed(failure)
        }
    }

    /// The sound in this process, on the config's device.
    private func playHere(_ context: CommandContext, seconds: Int?) throws -> SoundSession.Started {
        let store = try context.openStoreForReading(quietWhenEmpty: true)
        let settings = try store.settings()
        let audio = context.configuration.audio
        let limit = seconds.map { Duration.seconds($0) }
        let request: SoundRequest
        let label: String
        var episode: (String, String)?
        switch try ListenSource(userText: source, stationNamed: store.station(named:), podcastNamed: store.podcast(named:)) {
        case .tone(let tone):
            label = "tone:\(tone.rawValue)"
            request = .tone(tone, priority: .radio, volume: volume ?? settings.toneVolume, limit: limit)
        case .sound(let sound):
            let content: SoundRequest.Content
            switch sound {
            case .stream(let url):
                content = .stations([url])
                label = url.text
            case .station(let id):
                let station = try store.station(id: id)
                content = .stations(station.addresses)
                label = station.addresses[0].text
            case .podcast(let choice):
                guard let podcast = try store.podcast(named: choice.name), let found = podcast.listening(choice) else {
                    throw CLIError.badInput("Podcast \(choice.name) has no episode #\(choice.episode) with audio to play.")
                }
                content = .episode(found.audio)
                label = "\(choice.text): \(found.episode.title)"
                episode = (podcast.name, found.episode.id)
            case .tone: throw CLIError.badInput("Use 'tone' on its own to play the built-in tone.")
            }
            if content.streams,
                case .refuse(let reason) = NetworkPolicy.streaming(
                    wifiOnly: settings.isWifi, network: SysfsNetworkStatus().current())
            {
                throw CLIError.failed(reason)
            }
            request = SoundRequest(
                priority: .radio, content: content, volume: volume ?? settings.defaultVolume,
                limit: limit, allowLoopback: allowLocal || audio.allowLocalStreams)
        }
        var started = SoundSession.inProcess(request, label: label, engine: SoundSession.engine(context), prepare: false)
        started.episode = episode.map { (podcast: $0.0, id: $0.1) }
        return started
    }
}

/// Calls `stop` on SIGINT or SIGTERM (Ctrl-C), so a sound ends with a clean `stopped` event.
final class StopOnSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ stop: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { stop() }
            source.resume()
            return source
        }
    }

    func cancel() {
        for s in sources { s.cancel() }
    }
}

/// Prints a listening sound's events: a line of text each, or one JSON object per line
/// (`{"t": <unix seconds>, "event": "...", ...}`) — every line JSON with `--json`. In text, a failure that
/// ends the sound is left to the command's one closing sentence.
struct EventPrinter {
    let json: Bool
    let label: String
    private var heard = false

    init(json: Bool, label: String) {
        self.json = json
        self.label = label
    }

    mutating func print(_ event: SoundEvent) {
        guard let (name, fields, text) = describe(event) else { return }
        if json {
            var object: [String: JSONScalar] = ["t": .double(Date().timeIntervalSince1970), "event": .string(name)]
            for (k, v) in fields { object[k] = v }
            Output.json(object)
        } else if name == "error" {
            if case .bool(true) = fields["fatal"] {} else { Aubade.printError(text) }
        } else {
            Swift.print(text)
        }
    }

    private mutating func describe(_ e: SoundEvent) -> (String, [String: JSONScalar], String)? {
        switch e {
        case .stream(_, let note):
            switch note {
            case .connecting(let url): return ("connecting", ["url": .string(url)], "Connecting to \(url)…")
            case .stalled(let after):
                return ("stalled", ["afterSeconds": .int(Int(after / .seconds(1)))], "The stream stalled.")
            case .reconnecting(let attempt, let delay):
                return (
                    "reconnecting", ["attempt": .int(attempt), "delaySeconds": .int(Int(delay / .seconds(1)))],
                    "Reconnecting (attempt \(attempt))…"
                )
            case .error(let reason), .metadataOff(let reason):
                return ("error", ["reason": .string(reason), "fatal": .bool(false)], reason)
            case .failed(let reason):
                return ("error", ["reason": .string(reason), "fatal": .bool(true)], reason)
            case .title:
                return nil
            }
        case .audible(_, _, let after):
            guard !heard else { return nil }
            heard = true
            let ms = Int((after / .milliseconds(1)).rounded())
            return (
                "playing", ["source": .string(label), "firstAudioMs": .int(ms)], "Playing \(label) (first audio after \(ms) ms)."
            )
        case .title(_, let t):
            return ("title", ["title": .string(t)], "♪ \(t)")
        case .deviceFailed(let problem):
            return ("error", ["reason": .string(problem), "fatal": .bool(true)], problem)
        case .stopped(_, let end):
            return ("stopped", ["reason": .string(end.description)], "Stopped (\(end.description)).")
        case .deviceOpened, .ready, .fallback, .recovered, .mixer, .position, .onset:
            return nil
        }
    }
}
