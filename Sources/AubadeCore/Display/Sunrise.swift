public import Foundation

/// One alarm's coming sunrise, as the face plan is told it: the alarm, the instant of its next occurrence that
/// will ring (`AlarmScheduler.sunrises`: a skipped occurrence or a day off it skips has none, a snooze is not an
/// occurrence), and how long before it the screen starts to brighten. The sunrise runs from `startsAt` up to, not
/// including, `alarmAt`; at `alarmAt` the alarm rings and the plan's ringing rule takes over.
public struct Sunrise: Hashable, Sendable, CustomStringConvertible {
    public var alarmID: Int64
    /// The instant of the occurrence the sunrise leads to.
    public var alarmAt: Date
    /// The lead, in seconds (at least 1).
    public var leadSeconds: Int

    /// How long after its alarm's time a sunrise holds the screen at full while the alarm has not been told
    /// ringing (a turn of the daemon's loop that comes a moment late): the face never drops back to the night
    /// just before the alarm lights it.
    public static let hold: TimeInterval = 60

    public init(alarmID: Int64, alarmAt: Date, leadSeconds: Int) {
        self.alarmID = alarmID
        self.alarmAt = alarmAt
        self.leadSeconds = max(leadSeconds, 1)
    }

    /// When the screen starts to brighten: `leadSeconds` of real time before the alarm (on a DST night too).
    public var startsAt: Date { alarmAt.addingTimeInterval(-TimeInterval(leadSeconds)) }

    /// How far the sunrise has come at `instant`, 0 at its start to 1 at the alarm, held to 0…1.
    public func progress(at instant: Date) -> Double {
        min(max(instant.timeIntervalSince(startsAt) / TimeInterval(leadSeconds), 0), 1)
    }

    /// "alarm 3 at 2026-01-15T07:00:00Z, 20m before".
    public var description: String {
        "alarm \(alarmID) at \(alarmAt.formatted(.iso8601)), \(DurationText.format(leadSeconds)) before"
    }
}

/// How the face looks at one moment of a sunrise: which alarm, how far it has come, and the page's colours. Part
/// of `FaceTarget`, so the live state carries it to the page and the home state to Home Assistant.
public struct SunriseLight: Hashable, Sendable, CustomStringConvertible {
    public var alarmID: Int64
    public var alarmAt: Date
    public var startsAt: Date
    /// Progress in thousandths (0…1000): whole numbers, so a target compares equal when nothing visible moved.
    public var permille: Int
    /// The page's background, "#rrggbb": the night face, deep red, orange, warm white.
    public var sky: String
    /// The clock's digits on that background, "#rrggbb".
    public var ink: String

    public init(sunrise: Sunrise, permille: Int) {
        alarmID = sunrise.alarmID
        alarmAt = sunrise.alarmAt
        startsAt = sunrise.startsAt
        self.permille = min(max(permille, 0), 1000)
        let p = Double(self.permille) / 1000
        sky = SunriseCurve.sky(at: p)
        ink = SunriseCurve.ink(at: p)
    }

    /// Progress, 0…1.
    public var progress: Double { Double(permille) / 1000 }

    public var description: String { "sunrise for alarm \(alarmID) at \(permille / 10)% (\(sky))" }
}

/// The sunrise's two curves, pure functions of its progress p (0…1).
///
/// Brightness rises on a perceptual curve: CIE 1976 lightness L* (what the eye reads as "how bright") goes in a
/// straight line from the night level's lightness to 100, and the backlight takes the luminance for that
/// lightness. A linear ramp of the backlight would look like a jump out of the dark followed by minutes in
/// which nothing seems to change; this one brightens evenly to the eye and reaches 100 % at p = 1.
///
/// The colours go from the night face (near black) through deep red and orange to warm white, in straight
/// lines between the stops in sRGB.
public enum SunriseCurve {
    /// The colour stops: (progress, red, green, blue).
    static let stops: [(p: Double, r: Double, g: Double, b: Double)] = [
        (0.00, 0x07, 0x05, 0x0A),  // the night face
        (0.30, 0x5C, 0x0A, 0x04),  // deep red
        (0.60, 0xE0, 0x5A, 0x12),  // orange
        (0.80, 0xFF, 0xB0, 0x5C),  // amber
        (1.00, 0xFF, 0xF1, 0xD8),  // warm white
    ]

    /// The backlight in percent (1…100) at progress `p` of a sunrise that starts at `fromPercent`: never below
    /// `fromPercent`, never above 100, never falling as p grows, and 100 at p = 1.
    public static func percent(at p: Double, from fromPercent: Int) -> Int {
        let start = Double(min(max(fromPercent, 1), 100)) / 100
        let q = min(max(p, 0), 1)
        let lightness = lightness(of: start) + (100 - lightness(of: start)) * q
        let value = Int((luminance(of: lightness) * 100).rounded())
        return min(max(value, min(max(fromPercent, 1), 100)), 100)
    }

    /// CIE L* (0…100) of relative luminance `y` (0…1).
    public static func lightness(of y: Double) -> Double {
        y > 216.0 / 24389.0 ? 116 * cbrt(y) - 16 : y * 24389.0 / 27.0
    }

    /// Relative luminance (0…1) of CIE L* `l` (0…100): the inverse of `lightness(of:)`.
    public static func luminance(of l: Double) -> Double {
        l > 8 ? pow((l + 16) / 116, 3) : l * 27.0 / 24389.0
    }

    /// The background at progress `p`, "#rrggbb".
    public static func sky(at p: Double) -> String {
        let q = min(max(p, 0), 1)
        let upper = stops.firstIndex { $0.p >= q } ?? stops.count - 1
        guard upper > 0 else { return hex(stops[0].r, stops[0].g, stops[0].b) }
        let a = stops[upper - 1], b = stops[upper]
        let t = (q - a.p) / (b.p - a.p)
        return hex(a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t)
    }

    /// The digits at progress `p`: light on the dark half of the sunrise, dark brown once the sky is bright.
    public static func ink(at p: Double) -> String {
        p < 0.7 ? "#FFD9B0" : "#3A1C06"
    }

    static func hex(_ r: Double, _ g: Double, _ b: Double) -> String {
        func byte(_ v: Double) -> String {
            let n = Int(min(max(v.rounded(), 0), 255))
            let digits = Array("0123456789ABCDEF")
            return String([digits[n / 16], digits[n % 16]])
        }
        return "#" + byte(r) + byte(g) + byte(b)
    }
}
