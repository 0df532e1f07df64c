/// Port: the screen's own backlight, which the face plan (`FacePlan`) turns down at night (a dim page on a full
/// backlight still lights the bedroom) and raises through an alarm's sunrise. Implementations: `SysfsBacklight` (AubadeHardware: /sys/class/backlight), `NullBacklight`
/// (a machine without one: the page dims alone), `FakeBacklight` (AubadeTesting).
///
/// Contract:
/// - Levels are percentages of the device's full brightness. `set(percent:)` takes 1…100 (anything below
///   1 counts as 1, above 100 as 100) and never writes 0, however coarse the device: brightness 0 switches
///   many panels off. Only `switchOff()` writes 0, and only when asked.
/// - Nothing crashes and nothing is retried behind the caller's back: each failure — the device gone, no
///   permission, a read-only /sys — is a `BacklightError`, one sentence naming the device and the system's
///   reason, which the daemon logs (once) and reports as a warning. A failing backlight never stops or
///   delays anything else.
/// - Blocking: each call reads or writes one or two small sysfs files on the calling thread (a backlight
///   behind I2C or the Pi's firmware mailbox may take milliseconds). The daemon calls it from a thread of its
///   own (`BacklightWriter`, "aubade.backlight"); never from the clock's thread or the cooperative pool.
/// - Thread-safe: calls may come from any thread, though the daemon makes them from one.
public protocol Backlight: Sendable {
    /// What is being driven, for messages: "backlight rpi_backlight (/sys/class/backlight/rpi_backlight, 0…255)".
    var description: String { get }
    /// The device's brightness now, its range and its power state.
    func read() throws(BacklightError) -> BacklightReading
    /// Sets the brightness to `percent` (held to 1…100) of full, never 0, and powers the light on if it
    /// was blanked (`bl_power`): a screen the clock lights must really light up.
    func set(percent: Int) throws(BacklightError)
    /// Writes brightness 0: dark on most panels. Night dimming never calls this.
    func switchOff() throws(BacklightError)
    /// Puts back the brightness (and power state) found when the device was opened — 0 too, if the screen
    /// was found dark: at the daemon's graceful end, so a stopped clock leaves the screen as it found it.
    func restore() throws(BacklightError)
}

/// One reading of a backlight: its raw brightness, its maximum, and its power state when it has one.
public struct BacklightReading: Hashable, Sendable, CustomStringConvertible {
    /// `brightness`, 0…`maxBrightness`.
    public var brightness: Int
    /// `max_brightness`, at least 1.
    public var maxBrightness: Int
    /// `bl_power` (0 = on, 4 = powered down), nil when the device has none.
    public var power: Int?

    public init(brightness: Int, maxBrightness: Int, power: Int? = nil) {
        self.brightness = brightness
        self.maxBrightness = maxBrightness
        self.power = power
    }

    /// The brightness in percent of the maximum, rounded.
    public var percent: Int {
        maxBrightness > 0 ? (brightness * 100 + maxBrightness / 2) / maxBrightness : 0
    }

    /// Whether the light is powered (no `bl_power`, or `bl_power` 0).
    public var isPoweredOn: Bool { (power ?? 0) == 0 }

    /// "25/255 (10%)", with ", powered down" when `bl_power` is not 0.
    public var description: String {
        "\(brightness)/\(maxBrightness) (\(percent)%)" + (isPoweredOn ? "" : ", powered down (bl_power \(power ?? 0))")
    }

    /// The raw brightness for `percent` (held to 1…100) of `maxBrightness`, rounded, and never below 1:
    /// 1 % of 255 is 3, 1 % of 4095 is 41, and every level of an on/off backlight (max 1) is 1.
    public static func raw(percent: Int, maxBrightness: Int) -> Int {
        let p = min(max(percent, 1), 100)
        return max((p * maxBrightness + 50) / 100, 1)
    }
}

/// A backlight failure as one sentence naming the device and the system's reason, e.g. "The clock may not
/// change the backlight rpi_backlight: /sys/class/backlight/rpi_backlight/brightness: Permission denied; …".
public struct BacklightError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// No backlight to drive (none found, none allowed, or a machine without a screen): reading fails with the
/// reason, and setting, switching off and restoring do nothing and succeed — there is no light to change,
/// and the page still dims itself.
public struct NullBacklight: Backlight {
    public let reason: String

    public init(reason: String = "No screen backlight is available on this machine.") {
        self.reason = reason
    }

    public var description: String { "no backlight" }

    public func read() throws(BacklightError) -> BacklightReading {
        throw BacklightError(reason)
    }

    public func set(percent: Int) throws(BacklightError) {}

    public func switchOff() throws(BacklightError) {}

    public func restore() throws(BacklightError) {}
}
