public import AubadeCore
import AubadeSystem
public import Foundation

/// The machine's clocks. The monotonic reading is the kernel's `CLOCK_MONOTONIC` — the clock of libgpiod's
/// and evdev's event timestamps — so a button edge and the scheduler compare on one time base (R15 lives
/// in the scheduler alone). With `fakeStart` (tests, `aubade run --fake-time`), the wall clock starts at that
/// instant and then advances with the monotonic clock, so an alarm "at 07:00" can ring seconds after start.
public struct DaemonClock: ClockTime {
    private let monoAtStart: Duration
    private let wallAtStart: Date?

    /// The real clocks, or a wall clock starting at `fakeStart`.
    public init(fakeStart: Date? = nil) {
        monoAtStart = DaemonClock.monotonic()
        wallAtStart = fakeStart
    }

    public func now() -> SchedulerTime {
        let mono = DaemonClock.monotonic()
        let wall = wallAtStart.map { $0.addingTimeInterval((mono - monoAtStart).inSeconds) } ?? Date()
        return SchedulerTime(wall: wall, mono: MonotonicInstant(mono))
    }

    /// `CLOCK_MONOTONIC` now, as time since boot.
    public static func monotonic() -> Duration { Monotonic.now() }
}
