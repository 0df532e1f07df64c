public import Foundation

/// What `FacePlan` decided at one event: the target to carry out, the face's state (why the screen looks so),
/// whether the target differs from the previous decision's, and when to ask again.
public struct FaceDecision: Hashable, Sendable, CustomStringConvertible {
    /// The face's state: why the screen looks as it does (the live state's and the home state's `face`).
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// An alarm rings: full brightness, whatever the schedule.
        case ringing
        /// An alarm's sunrise runs: the face fades from night to warm white and the backlight rises to full.
        case sunrise
        /// A touch (or the end of a ringing alarm) keeps the screen awake for a while inside the night.
        case awake
        /// Inside the dimming window.
        case night
        /// Outside the dimming window.
        case day
        /// Night dimming is off.
        case off
    }

    public var target: FaceTarget
    public var reason: Reason
    /// Whether `target` differs from the previous decision's (always true for the first one): the daemon
    /// pushes a LiveState change and writes the backlight when it is.
    public var changed: Bool
    /// The next moment on the wall clock at which the target can change by itself: a start or end of the
    /// dimming window, a sunrise's start, its next step or its end.
    public var recheckAt: Date?
    /// When the screen's wake period ends on the monotonic clock, if one runs and matters.
    public var wakeEndsAt: MonotonicInstant?

    public init(target: FaceTarget, reason: Reason, changed: Bool, recheckAt: Date?, wakeEndsAt: MonotonicInstant?) {
        self.target = target
        self.reason = reason
        self.changed = changed
        self.recheckAt = recheckAt
        self.wakeEndsAt = wakeEndsAt
    }

    /// How long from `now` until the target may change without another event (the earlier of the two
    /// times, never negative), or nil when only an event can change it. A wall-clock step is an event:
    /// the daemon calls `FacePlan.tick` again on every turn of its loop, so a step is caught within it.
    public func delay(from now: SchedulerTime) -> Duration? {
        let wall = recheckAt.map { Duration.seconds(exactly: max($0.timeIntervalSince(now.wall), 0)) }
        let mono = wakeEndsAt.map { max($0 - now.mono, .zero) }
        switch (wall, mono) {
        case let (w?, m?): return min(w, m)
        case let (w?, nil): return w
        case let (nil, m?): return m
        case (nil, nil): return nil
        }
    }

    public var description: String {
        var text = "\(target) (\(reason.rawValue))"
        if let recheckAt { text += ", recheck at \(recheckAt.formatted(.iso8601))" }
        if let wakeEndsAt { text += ", awake until \(wakeEndsAt)" }
        return text
    }
}
