public import Foundation

/// The kiosk's face: whether the page is dimmed, whether it shows a sunrise, and where the screen's backlight
/// should be — night dimming, the alarms' sunrises, ringing and a touch that wakes the face, as one pure state
/// machine (docs/HOUSE-RULES.md §4). The daemon feeds it events with the time it read (`SchedulerTime`: the wall
/// clock for the schedule and the sunrises, the monotonic clock for wake periods) and carries out the
/// `FaceDecision` each returns; nothing here reads a clock or touches the screen.
///
/// The rules, first match wins:
/// 1. While an alarm rings the page is bright and the backlight at 100 %, at once and whatever the
///    schedule, the level, a sunrise or a wake period: nothing can hide a ringing alarm.
/// 2. During an alarm's sunrise (`Sunrise`: from its lead before the occurrence up to the occurrence, and held
///    at full for `Sunrise.hold` after it until the alarm is told ringing) the face shows the sunrise's colours
///    and the backlight follows `SunriseCurve` from the night level to 100 %, in `sunriseSteps` steps — never
///    below what rules 3–5 would give, so a touch or the night's end only brighten it, and a sunrise that began
///    by day stays at 100 %. The sunrises come from the scheduler (`AlarmScheduler.sunrises`): a skipped
///    occurrence, a day off and a snooze have none, and a stopped alarm's next one is a day away.
/// 3. For `wakeDuration` after a touch on the kiosk — and after an alarm stops ringing, so whoever just
///    pressed Stop or Snooze sees what happened — the page is bright and the backlight at `awakePercent`
///    (or the night level, if that is higher): enough to read and use the page without glaring at 100 %
///    in a dark room. A touch during a wake period starts it again from that touch.
/// 4. Inside the dimming window (`DimmingWindow`, local time in `zone`, DST nights included) the page is
///    dimmed and the backlight at the user's level.
/// 5. Otherwise — by day, or with dimming off — the page is bright and the backlight at 100 %.
///
/// Every event method returns the decision for that moment; `changed` says whether the target moved since
/// the previous decision. Values are cheap to copy; the daemon keeps one on its clock's thread.
public struct FacePlan: Sendable {
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
    /// The coming sunrises, one per alarm that has one, as last told.
    public private(set) var sunrises: [Sunrise] = []
    /// The target of the previous decision, nil before the first.
    public private(set) var lastTarget: FaceTarget?

    /// A machine with `settings` in `zone`. `wakeDuration` below zero counts as zero; `awakePercent` is
    /// held to 1…100.
    public init(
        settings: NightDimmingSettings, zone: TimeZone,
        wakeDuration: Duration = FacePlan.defaultWakeDuration,
        awakePercent: Int = FacePlan.defaultAwakePercent
    ) {
        self.settings = settings
        self.zone = zone
        self.wakeDuration = max(wakeDuration, .zero)
        self.awakePercent = min(max(awakePercent, 1), 100)
    }

    /// The decision at `now` with nothing new: at start, at each turn of the daemon's loop, after a wall
    /// clock step, at a `recheckAt` or `wakeEndsAt` of an earlier decision.
    public mutating func tick(at now: SchedulerTime) -> FaceDecision {
        decide(at: now)
    }

    /// An alarm (or a ring test) started ringing: full brightness at once. Idempotent, so a second alarm
    /// joining the ringing group may call it again.
    public mutating func alarmStartedRinging(at now: SchedulerTime) -> FaceDecision {
        isRinging = true
        return decide(at: now)
    }

    /// The last ringing alarm stopped (stopped, snoozed, silenced after its duration): the screen stays
    /// awake for `wakeDuration`, then follows the schedule again. Does nothing special when nothing rang.
    public mutating func alarmStoppedRinging(at now: SchedulerTime) -> FaceDecision {
        if isRinging {
            isRinging = false
            wake(at: now)
        }
        return decide(at: now)
    }

    /// A touch on the kiosk: awake for `wakeDuration` from now.
    public mutating func touched(at now: SchedulerTime) -> FaceDecision {
        wake(at: now)
        return decide(at: now)
    }

    /// The user changed `dimFrom`, `dimUntil` or `dimLevel`: the new settings apply at once (a wake period
    /// in progress runs on).
    public mutating func settingsChanged(_ new: NightDimmingSettings, at now: SchedulerTime) -> FaceDecision {
        settings = new
        return decide(at: now)
    }

    /// The coming sunrises changed (after any event the daemon tells the scheduler's list again; an unchanged
    /// list changes nothing).
    public mutating func sunrisesChanged(_ new: [Sunrise], at now: SchedulerTime) -> FaceDecision {
        sunrises = new
        return decide(at: now)
    }

    /// The clock's time zone changed: the window is read on the new zone's wall clock from now on.
    public mutating func zoneChanged(_ new: TimeZone, at now: SchedulerTime) -> FaceDecision {
        zone = new
        return decide(at: now)
    }

    /// What the screen should look like at `now`, without recording a decision (for a status request).
    public func target(at now: SchedulerTime) -> FaceTarget {
        evaluate(at: now).target
    }

    private mutating func wake(at now: SchedulerTime) {
        let until = now.mono + wakeDuration
        awakeUntil = max(awakeUntil ?? until, until)
    }

    private mutating func decide(at now: SchedulerTime) -> FaceDecision {
        if let end = awakeUntil, now.mono >= end { awakeUntil = nil }
        var decision = evaluate(at: now)
        decision.changed = decision.target != lastTarget
        lastTarget = decision.target
        return decision
    }

    private func evaluate(at now: SchedulerTime) -> FaceDecision {
        if isRinging {
            // Nothing but the alarm's end changes this; the daemon's loop keeps ticking anyway.
            return FaceDecision(target: .full, reason: .ringing, changed: true, recheckAt: nil, wakeEndsAt: nil)
        }
        var base = evaluateSchedule(at: now)
        let nextStart = sunrises.map(\.startsAt).filter { $0 > now.wall }.min()
        base.recheckAt = [base.recheckAt, nextStart].compactMap { $0 }.min()
        guard let sunrise = activeSunrise(at: now.wall) else { return base }
        let steps = FacePlan.sunriseSteps(sunrise)
        let elapsed = now.wall.timeIntervalSince(sunrise.startsAt)
        let step = min(Int((elapsed / TimeInterval(sunrise.leadSeconds) * Double(steps)).rounded(.down)), steps - 1)
        let light = SunriseLight(sunrise: sunrise, permille: (step + 1) * 1000 / steps)
        let stepLength = TimeInterval(sunrise.leadSeconds) / Double(steps)
        var stepEnd = sunrise.startsAt.addingTimeInterval(stepLength * Double(step + 1))
        // A reading that rounds onto the boundary looks one step further, never past the sunrise's next move.
        if stepEnd <= now.wall, step < steps - 1 { stepEnd = sunrise.startsAt.addingTimeInterval(stepLength * Double(step + 2)) }
        let held = sunrise.alarmAt.addingTimeInterval(Sunrise.hold)
        let byDay = !(settings.window?.contains(sunrise.startsAt, in: zone) ?? false)
        let night = settings.isOn ? settings.level : 100
        let curve = byDay ? 100 : SunriseCurve.percent(at: light.progress, from: night)
        let target = FaceTarget(
            dimmed: false, backlightPercent: max(curve, base.target.backlightPercent), sunrise: light)
        let recheck = [base.recheckAt, stepEnd > now.wall ? stepEnd : held].compactMap { $0 }.min()
        return FaceDecision(target: target, reason: .sunrise, changed: true, recheckAt: recheck, wakeEndsAt: base.wakeEndsAt)
    }

    /// The number of steps a sunrise takes: one a second, at most 200 (a 20-minute sunrise moves every 6 s).
    public static func sunriseSteps(_ sunrise: Sunrise) -> Int {
        min(max(sunrise.leadSeconds, 1), 200)
    }

    /// The sunrise running at `instant` (held for `Sunrise.hold` after its alarm's time); of two, the one that
    /// has come further (then the earlier alarm).
    func activeSunrise(at instant: Date) -> Sunrise? {
        sunrises.filter { instant >= $0.startsAt && instant < $0.alarmAt.addingTimeInterval(Sunrise.hold) }
            .min { a, b in
                let pa = a.progress(at: instant), pb = b.progress(at: instant)
                return pa != pb ? pa > pb : a.alarmAt < b.alarmAt
            }
    }

    /// Rules 3–5: the wake period, the night, the day.
    private func evaluateSchedule(at now: SchedulerTime) -> FaceDecision {
        guard let window = settings.window else {
            return FaceDecision(target: .full, reason: .off, changed: true, recheckAt: nil, wakeEndsAt: nil)
        }
        let next = window.nextBoundary(after: now.wall, in: zone)
        let awake = awakeUntil.flatMap { now.mono < $0 ? $0 : nil }
        guard window.contains(now.wall, in: zone) else {
            return FaceDecision(target: .full, reason: .day, changed: true, recheckAt: next, wakeEndsAt: awake)
        }
        if let awake {
            let target = FaceTarget(dimmed: false, backlightPercent: max(awakePercent, settings.level))
            return FaceDecision(target: target, reason: .awake, changed: true, recheckAt: next, wakeEndsAt: awake)
        }
        let target = FaceTarget(dimmed: true, backlightPercent: settings.level)
        return FaceDecision(target: target, reason: .night, changed: true, recheckAt: next, wakeEndsAt: nil)
    }
}
