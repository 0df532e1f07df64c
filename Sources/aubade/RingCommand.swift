import ArgumentParser
import AubadeApp
import AubadeAudio
import AubadeConfig
import AubadeCore
import AubadeHardware
import AubadeStore
import Foundation

/// `aubade ring [<alarm-id> | --source <url|station|tone>] [--for 30s]`: the whole alarm path, now — Wi-Fi-only
/// policy, pre-roll, supervision on what the card consumed, fallback to the tone — printing `ringing`,
/// `audible`, `fallback`, `stopped` with timestamps. For users testing their setup, and for tests.
struct RingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ring", abstract: "Ring an alarm now, with its full fallback path, to test the setup.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The alarm to ring (see 'aubade alarm list').") var id: Int64?
    @Option(help: "Ring this instead: tone, a saved station's name, or a stream URL.") var source: String?
    @Option(name: .customLong("for"), help: "How long, e.g. 30s (default 30s).") var length = "30s"
    @Option(help: "Volume, 10-100 (default: the alarm's, else the defaultVolume setting).") var volume: Int?
    @Flag(name: .customLong("allow-local"), help: "Allow stream addresses on this machine (127.0.0.1, ::1).")
    var allowLocal = false

    func run() async throws {
        let context = try global.context()
        let config = context.configuration
        guard (id == nil) != (source == nil) else {
            throw CLIError.badInput("Give an alarm id or --source, not both and not neither.")
        }
        let seconds = try DurationText.seconds(parsing: length, field: "Ring length")
        guard (1...3600).contains(seconds) else { throw CLIError.badInput("Ring length '\(length)' must be between 1s and 1h.") }
        let store = try context.openStoreForReading()
        let settings = try store.settings()
        var sound: SoundSource
        var level = volume ?? settings.defaultVolume
        var fade = settings.fadeInSeconds
        if let id {
            let alarm = try store.alarm(id: id)
            sound = alarm.sound
            level = volume ?? alarm.volume
            fade = alarm.fadeInSeconds
        } else {
            sound = try SoundSource(userText: source!, stationNamed: store.station(named:))
        }
        guard Alarm.volumeRange.contains(level) else {
            throw CLIError.badInput("Volume \(level) is out of range; use \(Alarm.volumeRange.lowerBound)-\(Alarm.volumeRange.upperBound).")
        }
        if case .station(let sid) = sound { _ = try store.station(id: sid) }  // a missing one is bad input here
        let (plan, label) = AlarmPlanning.plan(
            sound: sound, station: { try? store.station(id: $0) }, settings: settings,
            network: { SysfsNetworkStatus().current() }, volume: level, fadeInSeconds: fade,
            allowLoopback: allowLocal || config.audio.allowLocalStreams, duration: .seconds(seconds))
        let sink = SinkOptions(device: config.audio.device,
                               alternate: config.audio.alternateDevice.isEmpty ? nil : config.audio.alternateDevice)
        let output = DaemonOutput(json: context.json, wall: { Date() })
        let alarmSound = AlarmSound.prepare(plan, sink: sink)
        try await Task.sleep(for: .milliseconds(plan.stations.isEmpty ? 50 : 1500))  // pre-roll: connect and buffer first
        let signals = StopOnSignals { alarmSound.stop() }
        defer { withExtendedLifetime(signals) {} }
        alarmSound.begin()
        output.emit("ringing", ["source": label, "volume": level, "alarm": id])
        var heard = false
        for await event in alarmSound.events {
            switch event {
            case .audible(let source, let after):
                heard = true
                output.emit("audible", ["source": source, "after_ms": Int((after / .milliseconds(1)).rounded())])
            case .fallback(let from, let to, let reason):
                output.emit("fallback", ["from": from, "to": to, "reason": reason])
            case .recovered(let to): output.emit("recovered", ["to": to])
            case .title(let title): output.emit("title", ["title": title])
            case .streamNote(let note): output.emit("stream", ["message": note])
            case .mixer(let note): output.emit("mixer", ["message": note])
            case .deviceError(let message): output.emit("error", ["reason": message])
            case .deviceReady(let device): output.emit("device", ["name": device])
            case .stopped: output.emit("stopped", ["audible": heard])
            }
        }
        if !heard { throw ExitCode(1) }
    }
}
