import AubadeCore
import Foundation

/// The kiosk's face: carries out `FacePlan`'s decisions — the page's face (`dimmed`, the state, a sunrise's
/// colours, sent in the live state) and the backlight's level, handed to its own thread (`BacklightWriter`), never
/// written on the clock's. It is told after every event whether an alarm rings and which sunrises are coming, so a
/// ringing alarm lights the screen in the same turn that starts it, whatever the schedule (nothing can hide a
/// ringing alarm). A backlight that fails is a standing warning and nothing more. A value, part of `ClockState`.
struct KioskDisplay {
    private var plan: FacePlan
    private var decision: FaceDecision?
    /// Whether this run has handed the backlight a level: with night dimming off the backlight is the user's
    /// until then.
    private var driven = false

    init(settings: NightDimmingSettings, zone: TimeZone) {
        plan = FacePlan(settings: settings, zone: zone)
    }

    /// Whether the page shows its night face now (as last decided).
    var dimmed: Bool { decision?.target.dimmed ?? false }

    /// The face's state now (as last decided).
    var face: FaceDecision.Reason { decision?.reason ?? .day }

    /// The sunrise the face shows now, if one runs.
    var sunrise: SunriseLight? { decision?.target.sunrise }

    /// The backlight's target now, in percent.
    var backlightPercent: Int { decision?.target.backlightPercent ?? 100 }

    /// After any event: follows the alarm's ringing, the coming sunrises, the settings and the zone, and the
    /// schedule at `now`; shows or clears the backlight's warning when its writes started or stopped failing.
    mutating func follow(
        ringing: Bool, sunrises: [Sunrise], settings: NightDimmingSettings, zone: TimeZone, _ now: SchedulerTime,
        _ c: inout ClockContext
    ) {
        // A ring first: the alarm that ends a sunrise also takes it off the list, and the face must go from the
        // sunrise to the ringing face, never through the night in between.
        if ringing, !plan.isRinging { carryOut(plan.alarmStartedRinging(at: now), &c) }
        if settings != plan.settings { carryOut(plan.settingsChanged(settings, at: now), &c) }
        if zone != plan.zone { carryOut(plan.zoneChanged(zone, at: now), &c) }
        if sunrises != plan.sunrises { carryOut(plan.sunrisesChanged(sunrises, at: now), &c) }
        if !ringing, plan.isRinging { carryOut(plan.alarmStoppedRinging(at: now), &c) }
        carryOut(plan.tick(at: now), &c)
        if let outcome = c.world.backlight {
            c.warn("backlight", outcome.map { "The screen's backlight cannot be dimmed or lit: \($0.message)" })
        }
    }

    /// A touch on the kiosk (`ClockCommand.displayWake`): bright for a while, even at night.
    mutating func touched(_ now: SchedulerTime, _ c: inout ClockContext) {
        carryOut(plan.touched(at: now), &c)
    }

    /// When the target may next change by itself (a dimming window's edge, a wake period's end, a sunrise's start
    /// or next step).
    func nextChange(_ now: SchedulerTime) -> MonotonicInstant? {
        decision?.delay(from: now).map { now.mono + $0 }
    }

    private mutating func carryOut(_ new: FaceDecision, _ c: inout ClockContext) {
        let old = decision
        decision = new
        // Each change of the face is a line — but not each step of a sunrise, which has its own two lines.
        let step = new.reason == .sunrise && old?.reason == .sunrise
        if new.changed, !step, old != nil || new.target != .full {
            c.effects.emit("display", ["state": new.target.description, "reason": new.reason.rawValue])
        }
        announceSunrise(from: old?.target.sunrise, to: new.target.sunrise, &c)
        // With dimming off the backlight is the user's, until this run has changed it (then it is put back to
        // full). With dimming on the clock owns it from the start — also to brighten a screen a crash left dim.
        guard driven || plan.settings.isOn || new.target.backlightPercent != 100 else { return }
        driven = true
        c.effects.append(.backlight(new.target.backlightPercent))
    }

    /// The `sunrise` line and event when a sunrise begins and when it ends (rung, stopped, skipped, edited away).
    private func announceSunrise(from old: SunriseLight?, to new: SunriseLight?, _ c: inout ClockContext) {
        if let old, old.alarmID != new?.alarmID || old.alarmAt != new?.alarmAt {
            c.effects.emit("sunrise", ["alarm": old.alarmID, "state": "ended"])
            c.effects.append(.tell(.sunrise(SunriseEvent(light: old, began: false))))
        }
        if let new, old?.alarmID != new.alarmID || old?.alarmAt != new.alarmAt {
            c.effects.emit(
                "sunrise",
                [
                    "alarm": new.alarmID, "state": "began", "at": new.alarmAt.formatted(.iso8601),
                    "lead_s": Int(new.alarmAt.timeIntervalSince(new.startsAt).rounded()),
                ])
            c.effects.append(.tell(.sunrise(SunriseEvent(light: new, began: true))))
        }
    }
}
