import AubadeHandoff
import AubadeTone
import Glibc

/// The tone the waker rings: AubadeTone's synthesis, the one the daemon's sound engine plays — the same three
/// tones, sample for sample — without Foundation or the daemon's audio engine (R17: no file, no curl, no
/// mpg123). Signed 16-bit interleaved stereo at 44.1 kHz into a caller's buffer; nothing is allocated. The level
/// rises: from the alarm's volume (on the daemon's 40-dB `VolumeCurve`) to full scale over `riseSeconds`, so a
/// sleeper the daemon failed is woken gently at first and then loudly.
struct ToneSynth {
    static let rate = 44_100
    static let peak = 0.7
    static let riseSeconds = 30.0

    private var synth = ToneSynthesizer(.classic, sampleRate: ToneSynth.rate)
    private var startDB = 0.0

    /// Starts `tone` from its beginning at `volume` (10…100), rising to full.
    mutating func reset(_ tone: HandoffTone, volume: Int) {
        let shape: ToneShape =
            switch tone {
            case .classic: .classic
            case .chime: .chime
            case .rising: .rising
            }
        synth = ToneSynthesizer(shape, sampleRate: ToneSynth.rate)
        startDB = VolumeCurve.decibels(max(10, volume))
    }

    /// The gain now, in dB (≤ 0).
    var currentDB: Double {
        let t = Double(synth.framesRendered) / Double(ToneSynth.rate)
        return startDB * max(0, 1 - t / ToneSynth.riseSeconds)
    }

    /// Renders `frames` stereo frames into `out` (room for 2 × frames samples).
    mutating func render(into out: UnsafeMutablePointer<Int16>, frames: Int) {
        synth.render(into: out, frames: frames, peak: ToneSynth.peak, level: pow(10, currentDB / 20))
    }
}
