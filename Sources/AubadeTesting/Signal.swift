import Foundation

/// Signal measures for what reached a "sound card" (16-bit interleaved stereo PCM at 44.1 kHz, as the ALSA
/// `file` plugin captures it): levels, the strength of a frequency, and where in the recording something is
/// heard. A position in the recording is card time — frames the device consumed — which a loaded machine
/// does not stretch the way it stretches wall-clock time.
public enum Signal {
    public static let rate = 44_100

    public static func rmsDBFS(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return -200 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return 20 * log10(max(sqrt(sum / Double(samples.count)) / 32768, 1e-10))
    }

    /// Relative power at `frequency` (Goertzel) in a mono signal.
    public static func power(at frequency: Double, _ mono: [Double], rate: Double = 44_100) -> Double {
        let k = 2 * cos(2 * .pi * frequency / rate)
        var s1 = 0.0, s2 = 0.0
        for x in mono {
            let s = x + k * s1 - s2
            s2 = s1
            s1 = s
        }
        return (s1 * s1 + s2 * s2 - k * s1 * s2) / Double(mono.count * mono.count)
    }

    public static func left(_ stereo: [Int16]) -> [Double] {
        stride(from: 0, to: stereo.count, by: 2).map { Double(stereo[$0]) / 32768 }
    }

    /// Whether `frequency` carries at least 100 times the power of `other` in `stereo` and the level is
    /// audible (RMS above −40 dBFS, RELIABILITY.md's definition).
    public static func isTone(_ frequency: Double, over other: Double, in stereo: ArraySlice<Int16>) -> Bool {
        guard !stereo.isEmpty, rmsDBFS(stereo) > -40 else { return false }
        let mono = left(Array(stereo))
        return power(at: frequency, mono) > 100 * power(at: other, mono)
    }

    /// The recording cut into consecutive windows of `seconds` (the last partial one dropped), each with the
    /// card time in seconds at which it starts.
    public static func windows(_ stereo: [Int16], seconds: Double = 0.1) -> [(at: Double, samples: ArraySlice<Int16>)] {
        let size = 2 * Int(seconds * Double(rate))
        return stride(from: 0, to: stereo.count - size + 1, by: size).map { start in
            (Double(start / 2) / Double(rate), stereo[start..<(start + size)])
        }
    }

    /// Card time in seconds of the first window in which `frequency` dominates `other` audibly, if any.
    public static func firstHeard(_ frequency: Double, over other: Double, in stereo: [Int16], seconds: Double = 0.1) -> Double? {
        windows(stereo, seconds: seconds).first { isTone(frequency, over: other, in: $0.samples) }?.at
    }

    /// The longest run of windows below −40 dBFS (silence by RELIABILITY.md's measure), in seconds of card time.
    public static func longestSilence(_ stereo: [Int16], seconds: Double = 0.1) -> Double {
        var longest = 0.0, current = 0.0
        for w in windows(stereo, seconds: seconds) {
            current = rmsDBFS(w.samples) < -40 ? current + seconds : 0
            longest = max(longest, current)
        }
        return longest
    }

    /// Samples (a whole number of frames) before the first that is not exactly zero: the silence a device is primed
    /// with before an alarm's second, which a sound never contains (a station's first frames may, as decoded zeros).
    public static func leadingZeros(_ stereo: [Int16]) -> Int {
        let first = stereo.firstIndex { $0 != 0 } ?? stereo.count
        return first - first % 2
    }

    /// The 16-bit samples of a raw PCM file (empty when it does not exist).
    public static func samples(_ path: String) -> [Int16] {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Frames (stereo 16-bit) in a raw PCM file so far.
    public static func frames(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) / 4 : 0
    }
}
