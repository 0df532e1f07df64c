import AubadeCore
import Foundation

/// The kiosk's screen at night: carries out `NightDimming`'s decisions — the page's `dimmed` (sent in the
/// live state) and the backlight's level (written here, on the clock's own thread: one small sysfs write).
/// It is told after every event whether an alarm rings, so a ringing alarm lights the screen in the same turn
/// that starts it, whatever the schedule (night dimming can never hide a ringing alarm). A backlight that
/// fails is a standing warning and nothing more. Not Sendable: the clock actor owns it.
final class KioskDisplay {
    private var dimming: NightDimming
    private let backlight: any Backlight
    private let board: StatusBoard
    private let effects: Effects
    private var decision: DisplayDecision?
    /// The backlight level last written (nil before the first write, or after a failure: tried again at the
    /// next event).
    private var written: Int?

    init(
        settings: NightDimmingSettings, zone: TimeZone, backlight: any Backlight, board: StatusBoard,
        effects: Effects
    ) {
        dimming = NightDimming(settings: settings, zone: zone)
        self.backlight = backlight
        self.board = board
        self.effects = effects
    }

    /// Whether the page shows its night face now (as last decided).
    var dimmed: Bool { decision?.target.dimmed ?? false }

    /// After any event: follows the alarm's ringing, the settings and the zone, and the schedule at `now`.
    func follow(ringing: Bool, settings: NightDimmingSettings, zone: TimeZone, _ now: SchedulerTime) {
        if settings != dimming.settings { carryOut(dimming.settingsChanged(settings, at: now)) }
        if zone != dimming.zone { carryOut(dimming.zoneChanged(zone, at: now)) }
        if ringing != dimming.isRinging {
            carryOut(ringing ? dimming.alarmStartedRinging(at: now) : dimming.alarmStoppedRinging(at: now))
        }
        carryOut(dimming.tick(at: now))
    }

    /// A touch on the kiosk (`ClockCommand.displayWake`): bright for a while, even at night.
    func touched(_ now: SchedulerTime) {
        carryOut(dimming.touched(at: now))
    }

    /// When the target may next change by itself (a dimming window's edge, a wake period's end).
    func nextChange(_ now: SchedulerTime) -> MonotonicInstant? {
        decision?.delay(from: now).map { now.mono + $0 }
    }

    /// Puts the backlight back as it was found (the daemon's graceful end).
    func restore() {
        try? backlight.restore()
    }

    private func carryOut(_ new: DisplayDecision) {
        let old = decision
        decision = new
        if new.changed, old != nil || new.target != .full {
            effects.emit("display", ["state": new.target.description, "reason": new.reason.rawValue])
        }
        guard written != new.target.backlightPercent else { return }
        // With dimming off the backlight is the user's, until this run has changed it (then it is put back to
        // full). With dimming on the clock owns it from the start — also to brighten a screen a crash left dim.
        if written == nil, !dimming.settings.isOn { return }
        do throws(BacklightError) {
            try backlight.set(percent: new.target.backlightPercent)
            written = new.target.backlightPercent
            board.set("backlight", nil)
        } catch {
            written = nil
            board.set("backlight", "The screen's backlight cannot be dimmed or lit: \(error.message)")
        }
    }
}
