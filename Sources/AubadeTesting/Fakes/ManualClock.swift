public import AubadeCore
public import Foundation
import Synchronization

/// A clock that moves only when a test moves it (`ClockTime`, like Hummingbird's `MockClock`). Thread-safe.
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
