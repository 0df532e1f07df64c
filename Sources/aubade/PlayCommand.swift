import ArgumentParser
import AubadeAudio
import AubadeConfig
import AubadeCore
import AubadeStore
import Foundation

/// `aubade play`: listen now. Today it plays the built-in tones; stations and URLs follow with the stream
/// source (issue 4).
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play", abstract: "Play a sound now: tone, tone:chime, tone:rising (stations and URLs: coming).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "What to play: tone, tone:classic, tone:chime or tone:rising.") var source: String
    @Option(name: .customLong("for"), help: "How long, e.g. 30s (default: until Ctrl-C).") var duration: String?
    @Option(help: "Volume, 1-100 (default: the toneVolume setting for tones).") var volume: Int?
    @Flag(name: .customLong("allow-local"), help: "Allow stream addresses on this machine.") var allowLocal = false

    func run() async throws {
        let context = try global.context()
        let tone = try Self.tone(source)
        let seconds = try duration.map { try DurationText.seconds(parsing: $0, field: "Duration", in: 1...(24 * 3600)) }
        if let volume, !(1...100).contains(volume) {
            throw CLIError.badInput("Volume \(volume) is out of range; use 1 to 100.")
        }
        let level = try volume ?? context.openStoreForReading().settings().toneVolume
        let audio = context.configuration.audio
        let playback = TonePlayer.start(tone, volume: level, duration: seconds.map { .seconds($0) },
                                        sink: SinkOptions(device: audio.device, alternate: audio.alternateDevice))
        let interrupt = StopOnSignals(playback)
        defer { interrupt.cancel() }
        let printer = EventPrinter(json: context.json)
        var failed = false
        for await event in playback.events {
            printer.print(event, source: "tone:\(tone.rawValue)")
            if case .stopped(.failed) = event { failed = true }
        }
        if failed { throw ExitCode(1) }
    }

    static func tone(_ text: String) throws -> ToneName {
        let t = text.lowercased()
        if t == "tone" { return .classic }
        if t.hasPrefix("tone:"), let tone = ToneName(rawValue: String(t.dropFirst(5))) { return tone }
        if t.hasPrefix("tone:") {
            throw CLIError.badInput("Unknown tone '\(text.dropFirst(5))'; use classic, chime or rising.")
        }
        throw CLIError.failed("Playing stations and URLs is not built yet; 'aubade play tone' plays the built-in tone.")
    }
}

/// Stops a playback on SIGINT or SIGTERM (Ctrl-C), so it ends with a clean `stopped` event.
final class StopOnSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ playback: Playback) {
        sources = [SIGINT, SIGTERM].map { sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { playback.stop() }
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
