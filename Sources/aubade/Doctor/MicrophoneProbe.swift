import AubadeAudio
import AubadeConfig
import Foundation

/// The "microphone" line: whether `[verify] microphone` is set, opens, and what the room sounds like now.
enum MicrophoneProbe {
    static let fix =
        "Plug the microphone in and set [verify] microphone to a capture device `arecord -L` lists (e.g. \"hw:1,0\"), or leave it empty; then restart the clock."

    /// Opens the device here and reads half a second (blocking: off the cooperative pool).
    static func check(_ verify: Configuration.Verify) -> DoctorCheck {
        guard !verify.microphone.isEmpty else {
            return .ok("microphone", "No microphone is set ([verify] microphone): alarms are not checked in the room.")
        }
        do throws(AudioError) {
            let capture = try AlsaCapture(device: verify.microphone)
            defer { capture.close() }
            var samples: [Float] = []
            try capture.read(frames: capture.rate / 2, into: &samples)
            let power = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))
            let level = power > 0 ? String(format: "%.0f dBFS", 10 * log10(power)) : "digital silence"
            let note =
                power > 0
                ? "" : " A microphone that hears nothing at all may be muted: check its capture control (alsamixer -V capture)."
            return .ok(
                "microphone",
                "The microphone \(verify.microphone) opens (\(capture.rate) Hz, \(capture.channels) channel(s)); the room's noise is \(level).\(note)"
            )
        } catch {
            return .warning("microphone", error.description + " Alarms ring without the room check.", fix: fix)
        }
    }
}
