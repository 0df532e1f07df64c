import AubadeApp
import AubadeAudio
import AubadeConfig
import AubadeCore
import Foundation

/// The sound checks: the device opens (or the running clock holds it open), the card's own control is not
/// muted, and with `--play` the built-in tone reaches the card.
enum SoundProbe {
    static let deviceFix =
        "Plug in the sound card or DAC, or set [audio] device to a device `aplay -L` lists (hardware/README.md names those of common boards), then restart the clock."

    /// The "sound" line. With a clock running, what it reports of the device it holds; otherwise the device
    /// is opened here and closed again (blocking, up to a few ms: off the cooperative pool).
    static func device(_ audio: Configuration.Audio, daemon: DaemonProbe) -> DoctorCheck {
        if let status = daemon.status {
            let name = status.sound.device ?? audio.device
            if status.sound.open { return .ok("sound", "The running clock holds the sound device \(name) open.") }
            return .problem(
                "sound", "The running clock cannot use the sound device \(name): \(status.sound.problem ?? "it is not open.")",
                fix: deviceFix)
        }
        if daemon.mayHoldDevice {
            return .warning(
                "sound",
                "The sound device \(audio.device) was not opened: a clock may be holding it, and doctor could not ask it.",
                fix: "Run doctor as root or as the clock's user: sudo -u aubade aubade doctor.")
        }
        do throws(AudioError) {
            let sink = try AlsaSink(
                device: audio.device, alternate: audio.alternateDevice.isEmpty ? nil : audio.alternateDevice,
                retryFor: .zero)
            defer { sink.close() }
            try sink.configure(rate: SoundEngine.rate, channels: 2)
            if sink.device != audio.device {
                return .warning(
                    "sound",
                    "The sound device \(audio.device) cannot be opened; the alternate \(sink.device) opens, and alarms would play there.",
                    fix: deviceFix)
            }
            return .ok("sound", "The sound device \(audio.device) opens (16-bit stereo, \(SoundEngine.rate) Hz).")
        } catch {
            let busy =
                error.description.contains("busy")
                ? " Another program holds it (fuser -v /dev/snd/* names it): stop that program." : ""
            return .problem("sound", error.description + busy, fix: deviceFix)
        }
    }

    /// The "mixer" line: the card's playback control as it is now (reading it does not need the PCM).
    static func mixer(_ audio: Configuration.Audio) -> DoctorCheck {
        guard let state = MixerState.read(forDevice: audio.device) else {
            return .ok("mixer", "\(audio.device) has no mixer control that could mute it.")
        }
        let name = "The sound card's \(state.elementName) control (\(state.cardName))"
        let fix = "Unmute and raise it: amixer -D \(state.cardName) sset '\(state.elementName)' unmute 100% (or alsamixer)."
        if state.on == false {
            return .warning(
                "mixer",
                "\(name) is muted. Alarms unmute it and turn it up (R18), but the radio and the sleep timer would be silent.",
                fix: fix)
        }
        if let percent = state.percent, percent < 20 {
            return .warning(
                "mixer",
                "\(name) is at \(percent) %. Alarms turn it up (R18), but the radio and the sleep timer play at this level.",
                fix: fix)
        }
        return .ok("mixer", "\(name) is on\(state.percent.map { " at \($0) %" } ?? "").")
    }

    /// The "play" line (`--play`): 3 s of the built-in tone, through the running clock when there is one (its
    /// engine owns the device), else through an engine of doctor's own. Heard = the card took the audio.
    static func play(_ context: CommandContext, daemon: DaemonProbe, volume: Int) async -> DoctorCheck {
        if let ringing = daemon.status?.ringing {
            return .ok("play", "Alarm \(ringing.name) is ringing now, so the tone was not played over it.")
        }
        let started: SoundSession.Started
        do {
            if daemon.status != nil,
                let viaClock = try SoundSession.throughDaemon(.play(source: "tone", seconds: 3, volume: nil), context: context)
            {
                started = viaClock
            } else {
                let request = SoundRequest.tone(.classic, priority: .radio, volume: volume, limit: .seconds(3))
                started = SoundSession.inProcess(request, label: "tone", engine: SoundSession.engine(context), prepare: false)
            }
        } catch let error as CLIError {
            return .problem("play", "The tone could not be played: \(error.message)", fix: deviceFix)
        } catch {
            return .problem("play", "The tone could not be played: \(error)", fix: deviceFix)
        }
        let outcome = await started.listen()
        if let heardAfter = outcome.heardAfter {
            let ms = Int((heardAfter / .milliseconds(1)).rounded())
            return .ok(
                "play",
                "The tone played for 3 s\(daemon.status != nil ? " through the running clock" : ""): the card took its audio (first after \(ms) ms)."
            )
        }
        return .problem(
            "play", "The tone was not heard: \(outcome.failure ?? "the card took no audio within 3 s.")", fix: deviceFix)
    }
}
