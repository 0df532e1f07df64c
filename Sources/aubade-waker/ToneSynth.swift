import AubadeHandoff
import Glibc

/// The built-in alarm tones, synthesised sample by sample — the same three as the daemon's `ToneGenerator`
/// (AubadeAudio), kept here so that the waker links neither Foundation nor the daemon's audio engine (R17:
/// no file, no curl, no mpg123). Signed 16-bit interleaved stereo at 44.1 kHz into a caller's buffer; nothing
/// is allocated. The level rises: from the alarm's volume (on the daemon's 40-dB curve) to full scale over
/// `riseSeconds`, so a sleeper the daemon failed is woken gently at first and then loudly.
struct ToneSynth {
    static let rate = 44_100
    static let peak = 0.7
    static let riseSeconds = 30.0

    private(set) var tone = HandoffTone.classic
    private var frame = 0
    private var phase = 0.0
    private var phase2 = 0.0
    private var startDB = 0.0

    /// Starts `tone` from its beginning at `volume` (0…100), rising to full.
    mutating func reset(_ tone: HandoffTone, volume: Int) {
        self.tone = tone
        frame = 0
        phase = 0
        phase2 = 0
        startDB = -40 * (1 - Double(max(10, min(volume, 100))) / 100)
    }

    /// The gain now, in dB (≤ 0).
    var currentDB: Double {
        let t = Double(frame) / Double(ToneSynth.rate)
        return startDB * max(0, 1 - t / ToneSynth.riseSeconds)
    }

    /// Renders `frames` stereo frames into `out` (room for 2 × frames samples).
    mutating func render(into out: UnsafeMutablePointer<Int16>, frames: Int) {
        let gain = ToneSynth.peak * pow(10, currentDB / 20) * 32_767
        for i in 0..<frames {
            let v = Int16((next() * gain).rounded())
            out[2 * i] = v
            out[2 * i + 1] = v
        }
    }

    private mutating func next() -> Double {
        let t = Double(frame) / Double(ToneSynth.rate)
        frame += 1
        switch tone {
        case .classic: return classic(t)
        case .chime: return chime(t)
        case .rising: return rising(t)
        }
    }

    /// Four 100 ms beeps (880 Hz with its octave) 100 ms apart, then 800 ms of quiet; 1.6 s period.
    private mutating func classic(_ t: Double) -> Double {
        let inPeriod = fmod(t, 1.6)
        advance(&phase, 880)
        advance(&phase2, 1760)
        guard inPeriod < 0.8 else { return 0 }
        let inBeep = fmod(inPeriod, 0.2)
        guard inBeep < 0.1 else { return 0 }
        return envelope(inBeep, length: 0.1) * (0.75 * sin(phase) + 0.25 * sin(phase2))
    }

    /// A rising E5–G5–C6 bell arpeggio every 2 s, each note decaying over about a second.
    private func chime(_ t: Double) -> Double {
        let inPeriod = fmod(t, 2.0)
        var sum = 0.0
        let notes: InlineArray<3, Double> = [659.25, 783.99, 1046.50]  // inline: no allocation per sample
        for i in 0..<3 {
            let f = notes[i]
            let start = Double(i) * 0.25
            guard inPeriod >= start else { continue }
            let age = inPeriod - start
            let attack = min(1, age / 0.005)
            sum += attack * exp(-age / 0.6) * sin(2 * Double.pi * f * age)
        }
        let fadeOut = inPeriod > 1.95 ? (2.0 - inPeriod) / 0.05 : 1
        return 0.45 * sum * fadeOut
    }

    /// A continuous sweep from 500 to 1000 Hz over 2 s, pulsing four times a second.
    private mutating func rising(_ t: Double) -> Double {
        let inSweep = fmod(t, 2.0)
        advance(&phase, 500 + 250 * inSweep)
        let pulse = 0.6 + 0.4 * sin(2 * Double.pi * 4 * t)
        return pulse * sin(phase)
    }

    private func advance(_ p: inout Double, _ frequency: Double) {
        p += 2 * Double.pi * frequency / Double(ToneSynth.rate)
        if p > 2 * Double.pi { p -= 2 * Double.pi }
    }

    private func envelope(_ x: Double, length: Double) -> Double {
        let ramp = 0.005
        if x < ramp { return 0.5 - 0.5 * cos(Double.pi * x / ramp) }
        if x > length - ramp { return 0.5 - 0.5 * cos(Double.pi * (length - x) / ramp) }
        return 1
    }
}
