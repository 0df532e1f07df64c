import AubadeCore
import Foundation

/// The daemon's two clocks, read together (house rule 3): the wall clock for alarm rules and a monotonic
/// clock for durations. With `fakeStart` (tests, `aubade run --fake-time`), the wall clock starts at that
/// instant and then advances with the monotonic clock, so an alarm "at 07:00" can ring seconds after start.
public struct DaemonClock: Sendable {
    private let origin = ContinuousClock.now
    private let wallAtOrigin: Date?

    /// The real clocks, or a wall clock starting at `fakeStart`.
    public init(fakeStart: Date? = nil) {
        wallAtOrigin = fakeStart
    }

    /// Now, on both clocks.
    public func now() -> SchedulerTime {
        let mono = ContinuousClock.now - origin
        let wall = wallAtOrigin.map { $0.addingTimeInterval(mono.inSeconds) } ?? Date()
        return SchedulerTime(wall: wall, mono: MonotonicInstant(mono))
    }

    /// The monotonic reading of a `ContinuousClock` instant (e.g. a button edge), on this clock's scale.
    public func monotonic(_ instant: ContinuousClock.Instant) -> MonotonicInstant {
        MonotonicInstant(instant - origin)
    }

    /// The `ContinuousClock` instant at which the wall clock should read `wall`, from `now`.
    public func instant(forWall wall: Date, now: SchedulerTime) -> ContinuousClock.Instant {
        origin + now.mono.sinceOrigin + .seconds(exactly: wall.timeIntervalSince(now.wall))
    }

    /// The `ContinuousClock` instant of a monotonic reading.
    public func instant(forMono mono: MonotonicInstant) -> ContinuousClock.Instant {
        origin + mono.sinceOrigin
    }
}
