public import Foundation

/// "Now", as the daemon read it for one event: the wall clock (for alarm rules) and the monotonic clock
/// (for durations), taken together. The engine never reads a clock itself (docs/HOUSE-RULES.md §3).
public struct SchedulerTime: Hashable, Sendable, CustomStringConvertible {
    public var wall: Date
    public var mono: MonotonicInstant

    /// Both clocks as read together for one event.
    public init(wall: Date, mono: MonotonicInstant) {
        self.wall = wall
        self.mono = mono
    }

    /// The same moment `seconds` later on both clocks (no step in between).
    public func advanced(by seconds: Double) -> SchedulerTime {
        SchedulerTime(wall: wall.addingTimeInterval(seconds), mono: mono + .seconds(exactly: seconds))
    }

    /// The wall instant in ISO-8601 and the monotonic reading, for logs and test failures.
    public var description: String { "\(wall.formatted(.iso8601)) (\(mono))" }
}
