/// How the kiosk's screen should look: the page dimmed or not, and the backlight in percent of its full
/// brightness (1…100 — never 0: night dimming never switches the screen off). The daemon carries it out:
/// `dimmed` is the LiveState's `dimmed` (the page dims itself), `backlightPercent` goes to the backlight.
public struct DisplayTarget: Hashable, Sendable, CustomStringConvertible {
    /// Whether the page shows its night (dim) face.
    public var dimmed: Bool
    /// The backlight, in percent of full brightness.
    public var backlightPercent: Int

    public init(dimmed: Bool, backlightPercent: Int) {
        self.dimmed = dimmed
        self.backlightPercent = backlightPercent
    }

    /// The page bright and the backlight at full brightness: by day, while a touch keeps the screen awake,
    /// and always while an alarm rings.
    public static let full = DisplayTarget(dimmed: false, backlightPercent: 100)

    /// "dimmed, backlight 10%" or "bright, backlight 100%", for logs and test failures.
    public var description: String {
        "\(dimmed ? "dimmed" : "bright"), backlight \(backlightPercent)%"
    }
}
