import AubadeCore
import Foundation
import Glibc
import Synchronization

/// The clock's two clocks, read together (docs/HOUSE-RULES.md §3): the wall clock for alarm rules and the
/// monotonic clock for durations. Contract: thread-safe, never blocks.
public protocol ClockTime: Sendable {
    func now() -> SchedulerTime
}

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
    public static func monotonic() -> Duration {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return .seconds(Int64(ts.tv_sec)) + .nanoseconds(Int64(ts.tv_nsec))
    }
}

/// A clock that moves only when a test moves it (docs/HOUSE-RULES.md §3; Hummingbird's `MockClock`).
/// Thread-safe.
public final class ManualClock: ClockTime {
    private let current: Mutex<SchedulerTime>

    /// Starts at `wall`, with the monotonic reading at `mono`.
    public init(wall: Date, mono: MonotonicInstant = MonotonicInstant(.seconds(1000))) {
        current = Mutex(SchedulerTime(wall: wall, mono: mono))
    }

    public func now() -> SchedulerTime { current.withLock { $0 } }

    /// Both clocks move on by `d`.
    public func advance(by d: Duration) {
        current.withLock { $0 = SchedulerTime(wall: $0.wall.addingTimeInterval(d.inSeconds), mono: $0.mono + d) }
    }

    /// Both clocks move on to the wall instant `wall` (which must not be earlier).
    public func advance(to wall: Date) {
        advance(by: .seconds(exactly: max(0, wall.timeIntervalSince(now().wall))))
    }

    /// The wall clock steps by `d` (NTP, a manual set); the monotonic clock does not (R5).
    public func stepWall(by d: TimeInterval) {
        current.withLock { $0 = SchedulerTime(wall: $0.wall.addingTimeInterval(d), mono: $0.mono) }
    }
}
