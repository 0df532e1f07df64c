public import Foundation

/// Night dimming of the kiosk: whether the page is dimmed and where the screen's backlight should be, as a
/// pure state machine (docs/HOUSE-RULES.md §4). The daemon feeds it events with the time it read (`SchedulerTime`:
/// the wall clock for the schedule, the monotonic clock for wake periods) and carries out the
/// `DisplayDecision` each returns; nothing here reads a clock or touches the screen.
///
/// The rules, first match wins:
/// 1. While an alarm rings the page is bright and the backlight at 100 %, at once and whatever the
///    schedule, the level or a wake period: night dimming can never hide a ringing alarm.
/// 2. For `wakeDuration` after a touch on the kiosk — and after an alarm stops ringing, so whoever just
///    pressed Stop or Snooze sees what happened — the page is bright and the backlight at `awakePercent`
///    (or the night level, if that is higher): enough to read and use the page without glaring at 100 %
///    in a dark room. A touch during a wake period starts it again from that touch.
/// 3. Inside the dimming window (`DimmingWindow`, local time in `zone`, DST nights included) the page is
///    dimmed and the backlight at the user's level.
/// 4. Otherwise — by day, or with dimming off — the page is bright and the backlight at 100 %.
///
/// Every event method returns the decision for that moment; `changed` says whether the target moved since
/// the previous decision. Values are cheap to copy; the daemon keeps one on its clock's thread.
public struct NightDimming: Sendable {
    /// A new clock's wake period after a touch.
    public static let defaultWakeDuration: Duration = .seconds(30)
    /// A new clock's backlight while awake at night, in percent.
    public static let defaultAwakePercent = 50

    public private(set) var settings: NightDimmingSettings
    public private(set) var zone: TimeZone
    /// How long a touch (or the end of a ringing alarm) keeps the screen awake at night.
    public let wakeDuration: Duration
    /// The backlight while awake at night (at least the night level), in percent.
    public let awakePercent: Int
    /// Whether an alarm is ringing, as last told.
    public private(set) var isRinging = false
    /// The monotonic reading at which the current wake period ends, if one was started.
    public private(set) var awakeUntil: MonotonicInstant?
    /// The target of the previous decision, nil before the first.
    public private(set) var lastTarget: DisplayTarget?

    /// A machine with `settings` in `zone`. `wakeDuration` below zero counts as zero; `awakePercent` is
    /// held to 1…100.
    public init(
        settings: NightDimmingSettings, zone: TimeZone,
        wakeDuration: Duration = NightDimming.defaultWakeDuration,
        awakePercent: Int = NightDimming.defaultAwakePercent
    ) {
        self.settings = settings
        self.zone = zone
        self.wakeDuration = max(wakeDuration, .zero)
        self.awakePercent = min(max(awakePercent, 1), 100)
    }

    /// The decision at `now` with nothing new: at start, at each turn of the daemon's loop, after a wall
    /// clock step, at a `recheckAt` or `wakeEndsAt` of an earlier decision.
    public mutating func tick(at now: SchedulerTime) -> DisplayDecision {
        decide(at: now)
    }

    /// An alarm (or a ring test) started ringing: full brightness at once. Idempotent, so a second alarm
    /// joining the ringing group may call it again.
    public mutating func alarmStartedRinging(at now: SchedulerTime) -> DisplayDecision {
        isRinging = true
        return decide(at: now)
    }

    /// The last ringing alarm stopped (stopped, snoozed, silenced after its duration): the screen stays
    /// awake for `wakeDuration`, then follows the schedule again. Does nothing special when nothing rang.
    public mutating func alarmStoppedRinging(at now: SchedulerTime) -> DisplayDecision {
        if isRinging {
            isRinging = false
            wake(at: now)
        }
        return decide(at: now)
    }

    /// A touch on the kiosk: awake for `wakeDuration` from now.
    public mutating func touched(at now: SchedulerTime) -> DisplayDecision {
        wake(at: now)
        return decide(at: now)
    }

    /// The user changed `dimFrom`, `dimUntil` or `dimLevel`: the new settings apply at once (a wake period
    /// in progress runs on).
    public mutating func settingsChanged(_ new: NightDimmingSettings, at now: SchedulerTime) -> DisplayDecision {
        settings = new
        return decide(at: now)
    }

    /// The clock's time zone changed: the window is read on the new zone's wall clock from now on.
    public mutating func zoneChanged(_ new: TimeZone, at now: SchedulerTime) -> DisplayDecision {
        zone = new
        return decide(at: now)
    }

    /// What the screen should look like at `now`, without recording a decision (for a status request).
    public func target(at now: SchedulerTime) -> DisplayTarget {
        evaluate(at: now).target
    }

    private mutating func wake(at now: SchedulerTime) {
        let until = now.mono + wakeDuration
        awakeUntil = max(awakeUntil ?? until, until)
    }

    private mutating func decide(at now: SchedulerTime) -> DisplayDecision {
        if let end = awakeUntil, now.mono >= end { awakeUntil = nil }
        var decision = evaluate(at: now)
        decision.changed = decision.target != lastTarget
        lastTarget = decision.target
        return decision
    }

    private func evaluate(at now: SchedulerTime) -> DisplayDecision {
        if isRinging {
            // Nothing but the alarm's end changes this; the daemon's loop keeps ticking anyway.
            return DisplayDecision(target: .full, reason: .ringing, changed: true, recheckAt: nil, wakeEndsAt: nil)
        }
        guard let window = settings.window else {
            return DisplayDecision(target: .full, reason: .off, changed: true, recheckAt: nil, wakeEndsAt: nil)
        }
        let next = window.nextBoundary(after: now.wall, in: zone)
        let awake = awakeUntil.flatMap { now.mono < $0 ? $0 : nil }
        guard window.contains(now.wall, in: zone) else {
            return DisplayDecision(target: .full, reason: .day, changed: true, recheckAt: next, wakeEndsAt: awake)
        }
        if let awake {
            let target = DisplayTarget(dimmed: false, backlightPercent: max(awakePercent, settings.level))
            return DisplayDecision(target: target, reason: .awake, changed: true, recheckAt: next, wakeEndsAt: awake)
        }
        let target = DisplayTarget(dimmed: true, backlightPercent: settings.level)
        return DisplayDecision(target: target, reason: .night, changed: true, recheckAt: next, wakeEndsAt: nil)
    }
}
