import Glibc

/// Maps the 0–100 volume a user sets to a gain. The scale is logarithmic over 40 dB, as loudness is
/// perceived: 100 → 0 dB, 60 → −16 dB, 10 → −36 dB (quiet but audible); 0 is silence. The sound engine's
/// volume and the second waker's starting level both read it.
public enum VolumeCurve {
    public static let rangeDB = 40.0

    public static func decibels(_ volume: Int) -> Double {
        -rangeDB * (1 - Double(max(0, min(volume, 100))) / 100)
    }

    public static func gain(_ volume: Int) -> Double {
        volume <= 0 ? 0 : pow(10, decibels(volume) / 20)
    }
}
