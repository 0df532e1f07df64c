import Foundation

/// Maps the 0–100 volume a user sets to a gain. The scale is logarithmic over 40 dB, as loudness is
/// perceived: 100 → 0 dB, 60 → −16 dB, 10 → −36 dB (quiet but audible); 0 is silence.
public enum VolumeCurve {
    public static let rangeDB = 40.0

    public static func decibels(_ volume: Int) -> Double {
        -rangeDB * (1 - Double(max(0, min(volume, 100))) / 100)
    }

    public static func gain(_ volume: Int) -> Double {
        volume <= 0 ? 0 : pow(10, decibels(volume) / 20)
    }
}

/// Software volume with smooth changes: the gain moves sample by sample (linear in dB) from where it is to a
/// target over a given number of frames, so a change of volume never clicks (R18's fade-in uses it too).
public struct GainRamp: Sendable {
    public private(set) var currentDB: Double
    private var targetDB: Double
    private var stepDB = 0.0
    private var framesLeft = 0
    private var muted: Bool

    /// Starts at `volume` with no ramp.
    public init(volume: Int) {
        currentDB = VolumeCurve.decibels(volume)
        targetDB = currentDB
        muted = volume <= 0
    }

    /// Moves to `volume` over `frames` frames (0: at once).
    public mutating func ramp(to volume: Int, over frames: Int) {
        targetDB = VolumeCurve.decibels(max(volume, 1))
        if volume <= 0 { targetDB = -96 }
        muted = false
        framesLeft = max(frames, 0)
        if framesLeft == 0 {
            currentDB = targetDB
            muted = volume <= 0
        } else {
            stepDB = (targetDB - currentDB) / Double(framesLeft)
        }
    }

    public var isRamping: Bool { framesLeft > 0 }

    /// Applies the gain in place to interleaved 16-bit samples with `channels` channels.
    public mutating func apply(to samples: UnsafeMutableBufferPointer<Int16>, channels: Int) {
        if muted {
            for i in samples.indices { samples[i] = 0 }
            return
        }
        let frames = samples.count / max(channels, 1)
        for f in 0..<frames {
            if framesLeft > 0 {
                currentDB += stepDB
                framesLeft -= 1
                if framesLeft == 0 { currentDB = targetDB }
            }
            let g = currentDB <= -96 ? 0 : pow(10, currentDB / 20)
            for c in 0..<channels {
                let i = f * channels + c
                samples[i] = Int16(max(-32768, min(32767, (Double(samples[i]) * g).rounded())))
            }
        }
    }
}
