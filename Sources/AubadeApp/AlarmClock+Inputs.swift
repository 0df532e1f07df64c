import AubadeAudio
import AubadeCore
import Foundation

extension AlarmClock {
    /// A classified button press (debounced by `ButtonPanel`, which already ignores presses that began
    /// before the alarm, R15).
    public func button(_ command: ButtonPanel.Command) {
        output.emit("button", ["role": command.role.rawValue, "press": command.kind == .long ? "long" : "short",
                               "action": command.action.name])
        switch command.action {
        case .none:
            break
        case .snooze:
            snooze(by: .button)
        case .stop:
            if sounding != nil || !scheduler.ringingAlarmIDs.isEmpty {
                stop(by: .button)
            } else {
                cancelRadio(reason: "stop button")
            }
        case .playPause:
            if sounding != nil { return }  // an alarm is not paused by accident
            if !cancelRadio(reason: "play/pause button") { _ = try? startSleep(duration: nil, source: nil) }
        case .sleep(let minutes):
            if sounding == nil { extendSleep(minutes: minutes) }
        case .sleepCancel:
            cancelRadio(reason: "sleep-cancel button")
        case .volumeUp, .volumeDown:
            adjustRadioVolume(up: command.action == .volumeUp)
        }
    }

    /// A sustained shake (`ShakeDetector`): each ringing alarm does what the configured response says —
    /// stops a shake-to-stop alarm, snoozes another (configurable).
    public func shake() {
        output.emit("shake")
        guard !scheduler.ringingAlarmIDs.isEmpty else { return }
        perform(scheduler.shakeDetected(at: clock.now(), response: options.shakeResponse))
        wakeLoop()
    }

    /// Snoozes every ringing alarm (or `alarmID` only).
    @discardableResult
    public func snooze(by cause: DismissInput, alarmID: Int64? = nil) -> Bool {
        let actions = scheduler.snoozePressed(at: clock.now(), alarmID: alarmID, by: cause)
        perform(actions)
        wakeLoop()
        return actions.contains { if case .stopRinging = $0 { true } else { false } }
    }

    /// Dismisses every ringing alarm (or `alarmID` only, including its pending snooze).
    @discardableResult
    public func stop(by cause: DismissInput, alarmID: Int64? = nil) -> Bool {
        let actions = scheduler.stopPressed(at: clock.now(), alarmID: alarmID, by: cause)
        perform(actions)
        wakeLoop()
        return actions.contains { if case .persist = $0 { true } else { false } }
    }

    /// Volume buttons move the radio's level in steps of 10; an alarm keeps its own level (R14, R18).
    func adjustRadioVolume(up: Bool) {
        guard let radio, sounding == nil else { return }
        var level = radio.lastVolume ?? settings.sleepVolume
        level = max(5, min(100, level + (up ? 10 : -10)))
        if case .sleep(var timer) = radio.kind {
            timer.setVolume(level)
            radio.kind = .sleep(timer)
        }
        radio.lastVolume = level
        radio.playback?.setVolume(level)
        output.emit("volume", ["level": level])
    }
}
