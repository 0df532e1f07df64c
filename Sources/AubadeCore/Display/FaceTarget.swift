/// How the kiosk's screen should look: the page dimmed or not, the backlight in percent of its full brightness
/// (1…100 — never 0: the face plan never switches the screen off), and, during a sunrise, its colours. The daemon
/// carries it out: `dimmed` and `sunrise` go to the page in the live state, `backlightPercent` to the backlight.
public struct FaceTarget: Hashable, Sendable, CustomStringConvertible {
    /// Whether the page shows its night (dim) face.
    public var dimmed: Bool
    /// The backlight, in percent of full brightness.
    public var backlightPercent: Int
    /// The sunrise the face shows, if one runs.
    public var sunrise: SunriseLight?

    public init(dimmed: Bool, backlightPercent: Int, sunrise: SunriseLight? = nil) {
        self.dimmed = dimmed
        self.backlightPercent = backlightPercent
        self.sunrise = sunrise
    }

    /// The page bright and the backlight at full brightness: by day, while a touch keeps the screen awake,
    /// and always while an alarm rings.
    public static let full = FaceTarget(dimmed: false, backlightPercent: 100)

    /// "dimmed, backlight 10%", "bright, backlight 100%" or "sunrise 35%, backlight 22%", for logs and test failures.
    public var description: String {
        if let sunrise { return "sunrise \(sunrise.permille / 10)%, backlight \(backlightPercent)%" }
        return "\(dimmed ? "dimmed" : "bright"), backlight \(backlightPercent)%"
    }
}
