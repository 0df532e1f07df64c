import ArgumentParser
import AubadeAudio
import AubadeConfig
import AubadeCore
import AubadeSystem
import Foundation

/// `aubade verify microphone`: plays a sound through the one sound engine and says whether the microphone heard it
/// in the room — what the clock does at each ring, and its daily self-test. In this process, on the config's sound
/// device (stop a running clock first: it holds the device).
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Check the parts that prove an alarm was heard.",
        subcommands: [VerifyMicrophone.self])
}

struct VerifyMicrophone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "microphone",
        abstract: "Play a sound and say whether the microphone heard it in the room (exit 0 heard, 1 not heard, 2 no microphone)."
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: "The ALSA capture device (default: the config's [verify] microphone).") var device: String?
    @Option(
        help: "chirp (the daily self-test's: a quiet chime), tone, tone:chime, tone:rising, or an http(s) stream URL.")
    var play = "chirp"
    @Option(help: "Volume 1-100 (default: 40 for the chirp, 90 for a tone, 60 for a stream).") var volume: Int?
    @Flag(name: .customLong("allow-local"), help: "Allow stream addresses on this machine.") var allowLocal = false

    func run() async throws {
        let context = try global.context()
        let microphone = device ?? context.configuration.verify.microphone
        guard !microphone.isEmpty else {
            throw CLIError.badInput("No microphone: set [verify] microphone in the config, or pass --device.")
        }
        let request = try soundRequest()
        let engine = SoundSession.engine(context)
        // The engine opens its device first, as in the clock, where it holds it for its whole life: a loopback
        // card's capture must follow its playback's format.
        for _ in 0..<50 where !engine.device.isOpen && engine.device.problem == nil {
            try? await Task.sleep(for: .milliseconds(100))
        }
        let check = RoomCheck(microphone: microphone, playback: engine.playback)
        check.arm()
        // The room's noise is what the microphone hears before the sound: 1.6 s of it.
        try? await Task.sleep(for: .milliseconds(1600))
        let since = MonotonicInstant(Monotonic.now())
        let id = engine.play(request)
        let outcome = await check.listen(since: since)
        engine.stop(id)
        check.shutdown()
        await engine.shutdown()
        report(outcome, microphone: microphone, json: context.json)
        switch outcome {
        case .verdict(let v) where v.heard == true: return
        case .verdict: throw ExitCode(1)
        case .unavailable, .superseded: throw ExitCode(2)
        }
    }

    private func soundRequest() throws -> SoundRequest {
        if let volume, !(1...100).contains(volume) { throw CLIError.badInput("Volume \(volume) is out of range; use 1 to 100.") }
        let limit = Duration.seconds(8)
        switch play {
        case "chirp": return volume.map { .roomChirp(volume: $0) } ?? .roomChirp()
        case "tone", "tone:classic": return .tone(.classic, priority: .radio, volume: volume ?? 90, limit: limit)
        case "tone:chime": return .tone(.chime, priority: .radio, volume: volume ?? 90, limit: limit)
        case "tone:rising": return .tone(.rising, priority: .radio, volume: volume ?? 90, limit: limit)
        default:
            let url = try StreamURL(parsing: play)
            return SoundRequest(
                priority: .radio, content: .stations([url]), volume: volume ?? 60, limit: .seconds(40), allowLoopback: allowLocal)
        }
    }

    private func report(_ outcome: RoomCheck.Outcome, microphone: String, json: Bool) {
        guard json else { return print(outcome.description) }
        var object: [String: Any] = [
            "t": Date().timeIntervalSince1970, "event": "room", "microphone": microphone, "sound": play,
        ]
        switch outcome {
        case .verdict(let v):
            object["heard"] = v.heard ?? false
            object["reason"] = v.description
            if let e = v.evidence {
                object["basis"] = e.basis.rawValue
                object["listened_s"] = e.listenedSeconds
                object["lost_s"] = e.lostSeconds
                if let c = e.correlation { object["correlation"] = c }
                if let l = e.lagSeconds { object["lag_s"] = l }
                if let d = e.aboveNoiseDB, d.isFinite { object["above_noise_db"] = d }
                object["tone_found"] = e.toneFound
                object["tone_blocks"] = e.toneBlocks
            }
        case .unavailable(let why):
            object["heard"] = NSNull()
            object["reason"] = "no microphone: \(why)"
        case .superseded:
            object["heard"] = NSNull()
        }
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
