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
