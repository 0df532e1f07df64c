import Glibc

/// The built-in alarm tones (R17: no file, no curl, no mpg123 — only this code and the sound device stand
/// between the alarm and the speaker), for the daemon's sound engine and the second waker alike (R35): one
/// synthesis, so both wake with the same sound.
public enum ToneShape: UInt8, Sendable, CaseIterable {
    /// Four 100 ms beeps (880 Hz with its octave) 100 ms apart, then 800 ms of quiet; 1.6 s period.
    case classic
    /// A rising E5–G5–C6 bell arpeggio every 2 s, each note decaying over about a second.
    case chime
    /// A continuous sweep from 500 to 1000 Hz over 2 s, pulsing four times a second.
    case rising
}

/// Synthesises a tone sample by sample into a caller's buffer: signed 16-bit interleaved stereo, both channels
/// alike. Every note starts and ends on a 5 ms raised-cosine envelope and the oscillator phase is continuous,
/// so there are no clicks. Plain data: rendering allocates nothing, so the second waker may ring with it after
/// its start (this module is Foundation-free and built optimised in every configuration, as the waker is).
public struct ToneSynthesizer: Sendable {
    public let shape: ToneShape
    public let sampleRate: Int
    private var frame = 0
    private var phase = 0.0
    private var phase2 = 0.0

    public init(_ shape: ToneShape, sampleRate: Int = 44_100) {
        self.shape = shape
        self.sampleRate = sampleRate
    }

    /// Frames rendered since the start.
    public var framesRendered: Int { frame }

    /// Renders the next `frames` stereo frames into `out` (room for `2 * frames` samples). Each sample is the
    /// tone (−1…1) × `peak` × 32767 × `level`, rounded: `peak` is the largest amplitude (0…1), `level` a gain on
    /// top (1: none).
    public mutating func render(into out: UnsafeMutablePointer<Int16>, frames: Int, peak: Double, level: Double = 1) {
        for i in 0..<frames {
            let v = Int16((nextSample() * peak * 32767 * level).rounded())
            out[2 * i] = v
            out[2 * i + 1] = v
        }
    }

    /// The frequencies sounding at `frame` (up to three; 0 where there is none), for a listener that looks for the
    /// tone: the classic's 880 Hz and its octave while a beep sounds (none between its beeps), the chime's notes
    /// begun in its period, the rising sweep's pitch.
    public func partials(atFrame frame: Int) -> (Double, Double, Double) {
        let t = Double(max(0, frame)) / Double(sampleRate)
        switch shape {
        case .classic:
            let inPeriod = t.truncatingRemainder(dividingBy: 1.6)
            guard inPeriod < 0.8, inPeriod.truncatingRemainder(dividingBy: 0.2) < 0.1 else { return (0, 0, 0) }
            return (880, 1760, 0)
        case .chime:
            let inPeriod = t.truncatingRemainder(dividingBy: 2.0)
            return (659.25, inPeriod >= 0.25 ? 783.99 : 0, inPeriod >= 0.5 ? 1046.50 : 0)
        case .rising:
            return (500 + 250 * t.truncatingRemainder(dividingBy: 2.0), 0, 0)
        }
    }

    /// The next sample of the tone, −1…1.
    public mutating func nextSample() -> Double {
        let t = Double(frame) / Double(sampleRate)
        frame += 1
        switch shape {
        case .classic: return classic(t)
        case .chime: return chime(t)
        case .rising: return rising(t)
        }
    }

    private mutating func classic(_ t: Double) -> Double {
        let inPeriod = t.truncatingRemainder(dividingBy: 1.6)
        advance(&phase, 880)
        advance(&phase2, 1760)
        guard inPeriod < 0.8 else { return 0 }
        let inBeep = inPeriod.truncatingRemainder(dividingBy: 0.2)
        guard inBeep < 0.1 else { return 0 }
        return envelope(inBeep, length: 0.1) * (0.75 * sin(phase) + 0.25 * sin(phase2))
    }

    private func chime(_ t: Double) -> Double {
        let inPeriod = t.truncatingRemainder(dividingBy: 2.0)
        var sum = 0.0
        let notes: InlineArray<3, Double> = [659.25, 783.99, 1046.50]  // inline: no allocation per sample
        for i in 0..<3 {
            let f = notes[i]
            let start = Double(i) * 0.25
            guard inPeriod >= start else { continue }
            let age = inPeriod - start
            let attack = min(1, age / 0.005)
            let noteTime = t - (t - inPeriod) - start  // time since the note began, phase-continuous per period
            sum += attack * exp(-age / 0.6) * sin(2 * .pi * f * noteTime)
        }
        let fadeOut = inPeriod > 1.95 ? (2.0 - inPeriod) / 0.05 : 1
        return 0.45 * sum * fadeOut
    }

    private mutating func rising(_ t: Double) -> Double {
        let inSweep = t.truncatingRemainder(dividingBy: 2.0)
        advance(&phase, 500 + 250 * inSweep)
        let pulse = 0.6 + 0.4 * sin(2 * .pi * 4 * t)
        return pulse * sin(phase)
    }

    private func advance(_ p: inout Double, _ frequency: Double) {
        p += 2 * .pi * frequency / Double(sampleRate)
        if p > 2 * .pi { p -= 2 * .pi }
    }

    private func envelope(_ x: Double, length: Double) -> Double {
        let ramp = 0.005
        if x < ramp { return 0.5 - 0.5 * cos(.pi * x / ramp) }
        if x > length - ramp { return 0.5 - 0.5 * cos(.pi * (length - x) / ramp) }
        return 1
    }
}
