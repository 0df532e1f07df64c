public import Glibc

/// The kernel's `CLOCK_MONOTONIC`, as time since boot: the clock of the daemon's scheduler, of GPIO and evdev
/// event timestamps and of the sound device's timestamps, so an alarm's second, a button press and the moment a
/// frame reached the card compare directly.
public enum Monotonic {
    /// Now, as time since boot.
    public static func now() -> Duration {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)  // cannot fail for CLOCK_MONOTONIC with a valid pointer
        return duration(ts)
    }

    /// How far the wall clock (`CLOCK_REALTIME`) is ahead of this one now: it changes only when the wall clock is
    /// set (a step) or slewed (at most 0.5 ms a second).
    public static func wallOffset() -> Duration {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return duration(ts) - now()
    }

    /// A `timespec` of this clock as a duration.
    public static func duration(_ ts: timespec) -> Duration {
        .seconds(Int64(ts.tv_sec)) + .nanoseconds(Int64(ts.tv_nsec))
    }
}
