public import AubadeCore
import Foundation

/// The built-in alarm sounds, synthesised sample by sample (R17): no file, no curl, no mpg123 — only this
/// code and the ALSA sink stand between the alarm and the speaker.
///
/// Output is signed 16-bit interleaved stereo. Every note starts and ends on a 5 ms raised-cosine envelope
/// and the oscillator phase is continuous, so there are no clicks. `peak` is the largest amplitude (0…1).
public struct ToneGenerator: Sendable {
    public let tone: ToneName
    public let sampleRate: Int
    public let peak: Double
    private var frame = 0
    private var phase = 0.0
    private var phase2 = 0.0

    public init(tone: ToneName, sampleRate: Int = 44_100, peak: Double = 0.7) {
        self.tone = tone
        self.sampleRate = sampleRate
        self.peak = max(0, min(peak, 1))
    }

    /// Renders the next `frames` stereo frames into `buffer` (which holds at least `2 * frames` samples).
    public mutating func render(into buffer: UnsafeMutableBufferPointer<Int16>, frames: Int) {
        for i in 0..<frames {
            let v = Int16((nextSample() * peak * 32767).rounded())
            buffer[2 * i] = v
            buffer[2 * i + 1] = v
        }
    }

    public mutating func render(frames: Int) -> [Int16] {
        var out = [Int16](repeating: 0, count: 2 * frames)
        out.withUnsafeMutableBufferPointer { render(into: $0, frames: frames) }
        return out
    }

    private mutating func nextSample() -> Double {
        let t = Double(frame) / Double(sampleRate)
        frame += 1
        switch tone {
        case .classic: return classic(t)
        case .chime: return chime(t)
        case .rising: return rising(t)
        }
    }

    /// Four 100 ms beeps (880 Hz with its octave) 100 ms apart, then 800 ms of quiet; 1.6 s period.
    private mutating func classic(_ t: Double) -> Double {
        let inPeriod = t.truncatingRemainder(dividingBy: 1.6)
        advance(&phase, 880)
        advance(&phase2, 1760)
        guard inPeriod < 0.8 else { return 0 }
        let inBeep = inPeriod.truncatingRemainder(dividingBy: 0.2)
        guard inBeep < 0.1 else { return 0 }
        return envelope(inBeep, length: 0.1) * (0.75 * sin(phase) + 0.25 * sin(phase2))
    }

    /// A rising E5–G5–C6 bell arpeggio every 2 s, each note decaying over about a second.
    private func chime(_ t: Double) -> Double {
        let inPeriod = t.truncatingRemainder(dividingBy: 2.0)
        var sum = 0.0
        for (i, f) in [659.25, 783.99, 1046.50].enumerated() {
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

    /// A continuous sweep from 500 to 1000 Hz over 2 s, pulsing four times a second.
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
