import AubadeSystem
import CGPIOD  // gpiod.h includes <time.h>: in a release (whole-module) build, timespec resolves to this module
import Glibc

/// The kernel's `CLOCK_MONOTONIC`, the clock of libgpiod v1 event timestamps (Linux ≥ 5.7) and of evdev
/// events once `EVIOCSCLOCKID` is set. Services that tick the pure input state machines
/// (`ButtonPanel.tick`) read it here so that their times compare with the events'; the daemon's
/// `DaemonClock` reads the same clock, so the alarm engine compares a press with an alarm's start directly.
public enum MonotonicClock {
    /// Now, as a duration since the clock's origin (boot).
    public static func now() -> Duration { Monotonic.now() }

    static func duration(_ ts: timespec) -> Duration { Monotonic.duration(ts) }

    static func toTimespec(_ d: Duration) -> timespec {
        let (seconds, attoseconds) = d.components
        return timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    }

    /// Blocks the calling (dedicated) thread until `deadline` on this clock. Never call from the
    /// cooperative pool.
    static func sleep(until deadline: Duration) {
        var ts = toTimespec(deadline)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}
