import CLinuxEvents
import Glibc

/// The waker's clocks (docs/HOUSE-RULES.md §3): the wall clock, in Unix ms, for the alarm instants the daemon
/// writes, and `CLOCK_MONOTONIC` for pacing and retries. With `fakeStart` (`--fake-time`), the wall clock
/// starts at that instant and then advances with the monotonic clock — exactly as `aubade run --fake-time`,
/// so both processes of a test run on one clock.
struct WakerClock {
    let fakeStart: Int64?
    private let monoAtStart: Int64

    init(fakeStart: Int64?) {
        self.fakeStart = fakeStart
        monoAtStart = WakerClock.monotonicNanos()
    }

    /// Wall-clock now, Unix ms.
    func now() -> Int64 {
        if let fakeStart { return fakeStart + (WakerClock.monotonicNanos() - monoAtStart) / 1_000_000 }
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    static func monotonicNanos() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// The one alarm timer: a timerfd that fires at a wall-clock instant. On the real clock it is
    /// `CLOCK_REALTIME` with `TFD_TIMER_CANCEL_ON_SET`, so a step of the wall clock (NTP after boot, a manual
    /// set) wakes the waker at once to re-arm (R5); on a fake clock it is the matching monotonic instant.
    func makeTimer() -> Int32 {
        timerfd_create(fakeStart == nil ? CLOCK_REALTIME : CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
    }

    /// Arms `fd` for the wall instant `at` (Unix ms); nil disarms it.
    func arm(_ fd: Int32, at: Int64?) {
        var spec = itimerspec()
        var flags: Int32 = 0
        if let at {
            var target = at
            flags = Int32(TFD_TIMER_ABSTIME)
            if let fakeStart {
                target = (monoAtStart / 1_000_000) + (at - fakeStart)
            } else {
                flags |= Int32(TFD_TIMER_CANCEL_ON_SET)
            }
            target = max(target, 1)
            spec.it_value = timespec(tv_sec: Int(target / 1000), tv_nsec: Int(target % 1000) * 1_000_000)
        }
        timerfd_settime(fd, flags, &spec, nil)
    }
}
