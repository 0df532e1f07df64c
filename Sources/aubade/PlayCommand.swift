import ArgumentParser
import AubadeAudio
import AubadeConfig
import AubadeCore
import AubadeHardware
import AubadeStore
import Foundation

/// `aubade play`: listen now to a station, a stream URL or a built-in tone, printing titles as they change.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play", abstract: "Listen now: a saved station, an http(s) stream URL, or tone / tone:chime / tone:rising.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A station name, an http(s) URL, or tone, tone:classic, tone:chime, tone:rising.") var source: String
    @Option(name: .customLong("for"), help: "How long, e.g. 30s (default: until Ctrl-C).") var duration: String?
    @Option(help: "Volume, 1-100 (default: the defaultVolume setting; toneVolume for tones).") var volume: Int?
    @Flag(name: .customLong("allow-local"), help: "Allow stream addresses on this machine.") var allowLocal = false

    func run() async throws {
        let context = try global.context()
        let seconds = try duration.map { try DurationText.seconds(parsing: $0, field: "Duration", in: 1...(24 * 3600)) }
        if let volume, !(1...100).contains(volume) {
            throw CLIError.badInput("Volume \(volume) is out of range; use 1 to 100.")
        }
        let store = try context.openStoreForReading()
        let settings = try store.settings()
        let audio = context.configuration.audio
        let sink = SinkOptions(device: audio.device, alternate: audio.alternateDevice)
        let length = seconds.map { Duration.seconds($0) }
        let playback: Playback
        let label: String
        if source.lowercased().hasPrefix("tone") {
            let tone = try Self.tone(source)
            label = "tone:\(tone.rawValue)"
            playback = TonePlayer.start(tone, volume: volume ?? settings.toneVolume, duration: length, sink: sink)
        } else {
            let url = try Self.streamURL(source, store: store)
            if case .refuse(let reason) = NetworkPolicy.streaming(wifiOnly: settings.isWifi, network: SysfsNetworkStatus().current()) {
                throw CLIError.failed(reason)
            }
            label = url.text
            let options = StreamPlayer.Options(volume: volume ?? settings.defaultVolume, duration: length,
                                               allowLoopback: allowLocal || audio.allowLocalStreams)
            playback = StreamPlayer.start(url, options: options, sink: sink)
        }
        let interrupt = StopOnSignals(playback)
        defer { interrupt.cancel() }
        let printer = EventPrinter(json: context.json)
        var failed = false
        for await event in playback.events {
            printer.print(event, source: label)
            if case .stopped(.failed) = event { failed = true }
        }
        if failed { throw ExitCode(1) }
    }

    /// A URL as given, or a saved station's address.
    static func streamURL(_ text: String, store: Store) throws -> StreamURL {
        switch try SoundSource(userText: text, stationNamed: store.station(named:)) {
        case .stream(let url): return url
        case .station(let id): return try store.station(id: id).url
        case .tone: throw CLIError.badInput("Use 'tone' on its own to play the built-in tone.")
        }
    }

    static func tone(_ text: String) throws -> ToneName {
        let t = text.lowercased()
        if t == "tone" { return .classic }
        if t.hasPrefix("tone:"), let tone = ToneName(rawValue: String(t.dropFirst(5))) { return tone }
        throw CLIError.badInput("Unknown tone '\(text.dropFirst(5))'; use tone, tone:classic, tone:chime or tone:rising.")
    }
}

/// Stops a playback on SIGINT or SIGTERM (Ctrl-C), so it ends with a clean `stopped` event.
final class StopOnSignals {
    private let sources: [any DispatchSourceSignal]

    convenience init(_ playback: Playback) {
        self.init { playback.stop() }
    }

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

/// Prints player events: a line of text each, or one JSON object per line
/// (`{"t": <unix seconds>, "event": "...", ...}`).
struct EventPrinter {
    let json: Bool

    func print(_ event: PlayerEvent, source: String) {
        let (name, fields, text) = describe(event, source)
        if json {
            var object: [String: JSONScalar] = ["t": .double(Date().timeIntervalSince1970), "event": .string(name)]
            for (k, v) in fields { object[k] = v }
            Output.json(object)
        } else if case .error = event {
            Aubade.printError(text)
        } else {
            Swift.print(text)
        }
    }

    private func describe(_ e: PlayerEvent, _ source: String) -> (String, [String: JSONScalar], String) {
        switch e {
        case .connecting(let url): return ("connecting", ["url": .string(url)], "Connecting to \(url)…")
        case .playing(let after):
            let ms = Int((after / .milliseconds(1)).rounded())
            return ("playing", ["source": .string(source), "firstAudioMs": .int(ms)], "Playing \(source) (first audio after \(ms) ms).")
        case .title(let t): return ("title", ["title": .string(t)], "♪ \(t)")
        case .stalled(let after):
            return ("stalled", ["afterSeconds": .int(Int(after / .seconds(1)))], "The stream stalled.")
        case .reconnecting(let attempt, let delay):
            return ("reconnecting", ["attempt": .int(attempt), "delaySeconds": .int(Int(delay / .seconds(1)))],
                    "Reconnecting (attempt \(attempt))…")
        case .error(let reason, let fatal):
            return ("error", ["reason": .string(reason), "fatal": .bool(fatal)], reason)
        case .stopped(let reason): return ("stopped", ["reason": .string(reason.rawValue)], "Stopped (\(reason.rawValue)).")
        }
    }
}
