import ArgumentParser
import AubadeApp
import AubadeAudio
import AubadeConfig
import AubadeCore
import AubadeHardware
import AubadeStore
import Foundation

/// `aubade ring [<alarm-id> | --source <url|station|tone>] [--for 30s]`: the whole alarm path, now — Wi-Fi-only
/// policy, pre-roll (it begins when the sound is `ready`), supervision on what the card consumed, fallback to
/// the tone — printing `ringing`, `audible`, `fallback`, `stopped` with timestamps. Through the running clock
/// when there is one; always ends at `--for`, heard or not (exit 1 when nothing was audible).
struct RingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ring", abstract: "Ring an alarm now, with its full fallback path, to test the setup.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The alarm to ring (see 'aubade alarm list').") var id: Int64?
    @Option(help: "Ring this instead: tone, a saved station's name, or a stream URL.") var source: String?
    @Option(name: .customLong("for"), help: "How long, e.g. 30s (default 30s); it always ends then.") var length = "30s"
    @Option(help: "Volume, 10-100 (default: the alarm's, else the defaultVolume setting).") var volume: Int?
    @Flag(name: .customLong("allow-local"), help: "Allow stream addresses on this machine (127.0.0.1, ::1).")
    var allowLocal = false

    func run() async throws {
        let context = try global.context()
        guard (id == nil) != (source == nil) else {
            throw CLIError.badInput("Give an alarm id or --source, not both and not neither.")
        }
        let seconds = try DurationText.seconds(parsing: length, field: "Ring length")
        guard RingTest.secondsRange.contains(seconds) else {
            throw CLIError.badInput("Ring length '\(length)' must be between 1s and 1h.")
        }
        if let volume, !Alarm.volumeRange.contains(volume) {
            throw CLIError.badInput(
                "Volume \(volume) is out of range; use \(Alarm.volumeRange.lowerBound)-\(Alarm.volumeRange.upperBound).")
        }
        let test = RingTest(alarm: id, source: source, seconds: seconds, volume: volume)
        let started = try SoundSession.throughDaemon(.ring(test), context: context) ?? ringHere(test, context: context)
        let signals = StopOnSignals(started.stop)
        defer { signals.cancel() }
        let output = DaemonOutput(json: context.json, wall: { Date() })
        output.emit("ringing", ["source": started.label, "volume": volume, "alarm": id])
        var heard = false
        for await event in started.events {
            started.onEvent(event)
            switch event {
            case .audible(_, let source, let after):
                heard = true
                output.emit("audible", ["source": source, "after_ms": Int((after / .milliseconds(1)).rounded())])
            case .fallback(_, let from, let to, let reason):
                output.emit("fallback", ["from": from, "to": to, "reason": reason])
            case .recovered(_, let to): output.emit("recovered", ["to": to])
            case .title(_, let title): output.emit("title", ["title": title])
            case .stream(_, let note): if let text = note.noteText { output.emit("stream", ["message": text]) }
            case .mixer(_, let note): output.emit("mixer", ["message": note])
            case .deviceFailed(let message): output.emit("error", ["reason": message])
            case .deviceOpened(let device): output.emit("device", ["name": device])
            case .onset(_, let late, let timing):
                output.emit("onset", ["late_ms": Double(late / .microseconds(1)) / 1000, "by": timing.rawValue])
            case .ready, .position: break
            case .stopped(_, let end):
                output.emit("stopped", ["audible": heard, "reason": end.description])
            }
            if case .stopped(started.id, _) = event { break }
        }
        if !heard { throw ExitCode(1) }
    }

    /// The alarm's sound in this process: planned as the daemon plans it (`AlarmPlanning`), prepared, and begun
    /// when the engine says it is ready.
    private func ringHere(_ test: RingTest, context: CommandContext) throws -> SoundSession.Started {
        let config = context.configuration
        let store = try context.openStoreForReading(quietWhenEmpty: true)
        let alarm = try test.alarm.map { id in try store.alarm(id: id) }
        let source = try test.source.map { text in
            try SoundSource(userText: text, stationNamed: store.station(named:), podcastNamed: store.podcast(named:))
        }
        let plan = try test.plan(
            alarm: alarm, source: source, settings: try store.settings(), station: { try? store.station(id: $0) },
            podcast: { name in (try? store.podcast(named: name)) ?? nil }, network: { SysfsNetworkStatus().current() },
            allowLoopback: allowLocal || config.audio.allowLocalStreams)
        return SoundSession.inProcess(plan.request, label: plan.description, engine: SoundSession.engine(context), prepare: true)
    }
}
