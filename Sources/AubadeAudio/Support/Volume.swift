import AubadeTone
import Foundation

/// Software volume with smooth changes: the gain moves sample by sample (linear in dB) from where it is to a
/// target over a given number of frames, so a change of volume never clicks (R18's fade-in uses it too).
///
/// Cost matters (it runs on every sample for hours): a steady gain is one integer multiply per sample (Q15),
/// unity gain touches nothing, and a ramp multiplies the linear gain by a constant factor per frame (a
/// straight line in dB) instead of calling `pow` per frame.
public struct GainRamp: Sendable {
    public private(set) var currentDB: Double
    private var targetDB: Double
    /// The linear gain matching `currentDB` (0 when at or below −96 dB).
    private var linear: Double
    /// Per-frame factor of `linear` while ramping: 10^(stepDB / 20).
    private var factor = 1.0
    private var stepDB = 0.0
    private var framesLeft = 0
    private var muted: Bool

    static let silenceDB = -96.0

    /// Starts at `volume` with no ramp.
    public init(volume: Int) {
        currentDB = VolumeCurve.decibels(volume)
        targetDB = currentDB
        linear = GainRamp.linear(currentDB)
        muted = volume <= 0
    }

    private static func linear(_ db: Double) -> Double {
        db <= silenceDB ? 0 : pow(10, db / 20)
    }

    /// Moves to `volume` over `frames` frames (0: at once).
    public mutating func ramp(to volume: Int, over frames: Int) {
        targetDB = VolumeCurve.decibels(max(volume, 1))
        if volume <= 0 { targetDB = GainRamp.silenceDB }
        muted = false
        framesLeft = max(frames, 0)
        if framesLeft == 0 {
            currentDB = targetDB
            linear = GainRamp.linear(currentDB)
            muted = volume <= 0
        } else {
            // From silence (linear 0) a geometric ramp cannot start: begin it at −96 dB's tiny gain.
            linear = pow(10, max(currentDB, GainRamp.silenceDB) / 20)
            stepDB = (targetDB - currentDB) / Double(framesLeft)
            factor = pow(10, stepDB / 20)
        }
    }

    public var isRamping: Bool { framesLeft > 0 }

    /// Applies the gain in place to interleaved 16-bit samples with `channels` channels.
    public mutating func apply(to samples: UnsafeMutableBufferPointer<Int16>, channels: Int) {
        if muted {
            samples.update(repeating: 0)
            return
        }
        let channels = max(channels, 1)
        let frames = samples.count / channels
        var f = 0
        while framesLeft > 0 && f < frames {
            currentDB += stepDB
            linear *= factor
            framesLeft -= 1
            if framesLeft == 0 {
                currentDB = targetDB
                linear = GainRamp.linear(targetDB)
            }
            let g = currentDB <= GainRamp.silenceDB ? 0 : linear
            for i in (f * channels)..<((f + 1) * channels) {
                let v = Double(samples[i]) * g
                samples[i] = Int16(max(-32768, min(32767, v < 0 ? v - 0.5 : v + 0.5)))
            }
            f += 1
        }
        guard f < frames else { return }
        Self.scale(UnsafeMutableBufferPointer(rebasing: samples[(f * channels)..<(frames * channels)]), by: linear)
    }

    /// A steady gain: unity leaves the samples alone; otherwise a Q15 multiply with rounding.
    ///
    /// With q in 0…32768 the result always fits in Int16 — (32767 × 32768 + 16384) >> 15 = 32767 and
    /// (−32768 × 32768 + 16384) >> 15 = −32768 — so there is nothing to clamp, and without the clamp's branches the
    /// loop is vectorised (it runs on every sample the radio plays; with the clamp it was 2.5% of the audio thread).
    static func scale(_ samples: UnsafeMutableBufferPointer<Int16>, by gain: Double) {
        guard gain != 1, let base = samples.baseAddress else { return }
        let q = Int32((min(max(gain, 0), 1) * 32768).rounded())  // 0…32768: the product fits in Int32
        for i in 0..<samples.count {
            base[i] = Int16(truncatingIfNeeded: (Int32(base[i]) &* q &+ 16384) >> 15)
        }
    }
}
