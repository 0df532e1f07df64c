import AubadeCore
import AubadeHomeAssistant
import Foundation
import Testing

@testable import AubadeApp

/// The words Home Assistant sees: the states a `HomeState` makes, the events, and what each command message asks of
/// the clock — or why it is ignored.
@Suite("Home Assistant topics and commands")
struct HomeAssistantTopicsTests {
    static let topics = HomeAssistantTopics(
        HomeAssistantDiscovery(node: "aubade-t", name: "Aubade", topicPrefix: "aubade/t", version: "1.0"))

    static func state(activity: HomeState.Activity = .idle, radioOn: Bool = false, next: HomeState.Next? = nil) -> HomeState {
        HomeState(
            activity: activity, ringing: activity == .ringing, next: next, nextScheduled: next?.alarmID, zone: "Europe/Paris",
            alarms: [
                HomeState.AlarmEntry(
                    id: 3, name: "Work", enabled: true, time: "07:00", days: "mon,tue,wed,thu,fri", source: "FIP", volume: 70,
                    scheduledToday: true)
            ],
            stations: ["FIP"], volume: radioOn ? 25 : 60, radioOn: radioOn, station: radioOn ? "FIP" : nil,
            sleepMinutesLeft: radioOn ? 14 : 0, nowPlaying: radioOn ? "FIP — Blue in Green" : nil)
    }

    @Test func theStatesAreTheHomeStateInHomeAssistantsWords() throws {
        let at = try Date("2026-01-05T06:00:00Z", strategy: .iso8601)
        let idle = Self.topics.states(Self.state(next: HomeState.Next(alarmID: 3, name: "Work", at: at, snooze: false)))
        #expect(idle["aubade/t/next_alarm"] == "2026-01-05T07:00:00+01:00")
        #expect(idle["aubade/t/next_alarm/name"] == "Work")
        #expect(idle["aubade/t/state"] == "idle" && idle["aubade/t/ringing"] == "OFF")
        #expect(idle["aubade/t/station"] == "off" && idle["aubade/t/now_playing"] == "None" && idle["aubade/t/sleep"] == "0")
        #expect(idle["aubade/t/alarm/3/enabled"] == "ON" && idle["aubade/t/alarm/3/time"] == "07:00")
        let text = idle["aubade/t/alarm/3/attributes"] ?? ""
        let attributes = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(attributes?["scheduled_today"] as? Bool == true && attributes?["source"] as? String == "FIP")
        let none = Self.topics.states(Self.state())
        #expect(none["aubade/t/next_alarm"] == "None" && none["aubade/t/next_alarm/name"] == "None")
        let playing = Self.topics.states(Self.state(activity: .sleep, radioOn: true))
        #expect(playing["aubade/t/state"] == "sleep" && playing["aubade/t/station"] == "FIP")
        #expect(playing["aubade/t/volume"] == "25" && playing["aubade/t/sleep"] == "14")
        #expect(playing["aubade/t/now_playing"] == "FIP — Blue in Green")
        #expect(Set(HomeState.Activity.allCases.map(\.rawValue)) == Set(HomeAssistantDiscovery.states))
        #expect(idle.keys.allSatisfy { !$0.contains("/output/") }, "no output, no output's state")
        var withOutputs = Self.state()
        withOutputs.outputs = [HomeState.OutputState(name: .shaker, on: true), HomeState.OutputState(name: .lamp, on: false)]
        let outputs = Self.topics.states(withOutputs)
        #expect(outputs["aubade/t/output/shaker"] == "ON" && outputs["aubade/t/output/lamp"] == "OFF")
    }

    @Test func eventsNameWhatHappenedAndHow() throws {
        let names: [Int64: String] = [3: "Work"]
        let utc = TimeZone(identifier: "UTC")!
        func event(_ kind: HistoryKind, _ detail: String = "") throws -> [String: Any] {
            let payload = try #require(
                Self.topics.payload(
                    .recorded(HistoryEvent(at: Date(), alarmID: 3, kind: kind.rawValue, detail: detail)), names: names, zone: utc)
            )
            return try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
        }
        #expect(try event(.rang)["event_type"] as? String == "ringing")
        #expect(try event(.snoozeEnded)["event_type"] as? String == "ringing")
        #expect(try event(.dismissed, HistoryDetail.dismissed(by: .shake))["how"] as? String == "shake")
        #expect(try event(.dismissed, HistoryDetail.dismissed(by: .api))["how"] as? String == "page")
        #expect(try event(.autoSilenced)["how"] as? String == "auto-silence")
        let top = try event(.escalated, "round=1")
        #expect(
            top["event_type"] as? String == "unanswered" && top["round"] as? String == "1" && top["name"] as? String == "Work")
        #expect(try event(.unanswered, "after 4 round(s) of its ladder")["how"] as? String == "unanswered")
        #expect(HomeAssistantDiscovery.eventTypes.contains("unanswered"))
        // The wake-up check after a Stop: asked, then woke or fell back asleep (it rings again).
        #expect(try event(.wakeCheck, "are you up?")["event_type"] as? String == "wake_check")
        #expect(try event(.wakeCheck, "are you up?")["answer"] as? String == "asked")
        #expect(try event(.woke, "by=button")["answer"] as? String == "woke")
        #expect(try event(.fellBackAsleep, "due 2026-11-24T07:00:00Z")["answer"] as? String == "fell_back_asleep")
        #expect(HomeAssistantDiscovery.eventTypes.contains("wake_check"))
        // Not heard in the room (the microphone): the reason, for an automation to act on.
        let unheard = try event(.notHeard, "not heard in the room: nothing above the room's noise")
        #expect(unheard["event_type"] as? String == "not_heard")
        #expect(unheard["reason"] as? String == "not heard in the room: nothing above the room's noise")
        #expect(HomeAssistantDiscovery.eventTypes.contains("not_heard"))
        // The microphone's daily self-test: heard or not, with the room check's reason.
        let selfTest = try event(.selfTestNotHeard, "no microphone: the device is gone")
        #expect(selfTest["event_type"] as? String == "self_test" && selfTest["heard"] as? Bool == false)
        #expect(selfTest["reason"] as? String == "no microphone: the device is gone")
        #expect(try event(.selfTestHeard, "heard in the room: x")["heard"] as? Bool == true)
        #expect(HomeAssistantDiscovery.eventTypes.contains("self_test"))
        let fallback = try event(.fallback, HistoryDetail.fallback(to: .tone, reason: "The station did not answer."))
        #expect(fallback["reason"] as? String == "The station did not answer." && fallback["to"] as? String == "tone")
        #expect(try event(.skipped, HistoryDetail.dayOff("Holiday"))["why"] as? String == "day off: Holiday")
        #expect(try event(.missed)["name"] as? String == "Work")
        #expect(
            Self.topics.payload(
                .recorded(HistoryEvent(at: Date(), alarmID: nil, kind: HistoryKind.clockStep.rawValue)), names: names,
                zone: utc) == nil)
        let notice = PreAlarmNotice(
            alarmID: 3, name: "Work", occurrence: Date(timeIntervalSince1970: 0), leadSeconds: 900, willRing: false,
            why: "day off: Holiday")
        let pre = try #require(Self.topics.payload(.preAlarm(notice), names: names, zone: utc))
        #expect(
            pre
                == #"{"alarm":3,"at":"1970-01-01T00:00:00Z","event_type":"pre_alarm","lead_minutes":15,"name":"Work","why":"day off: Holiday","will_ring":false}"#
        )
    }

    @Test func theSunriseIsAStateWithItsAttributesAndAnEventAtItsStartAndEnd() throws {
        let utc = TimeZone(identifier: "UTC")!
        let at = try Date("2026-01-05T06:00:00Z", strategy: .iso8601)
        var state = Self.state()
        #expect(Self.topics.states(state)["aubade/t/sunrise"] == "None")
        #expect(Self.topics.states(state)["aubade/t/sunrise/attributes"] == "{}")
        state.sunrise = HomeState.Sunrise(alarmID: 3, at: at, progressPercent: 35, backlightPercent: 22, color: "#7A0C05")
        let states = Self.topics.states(state)
        #expect(states["aubade/t/sunrise"] == "35")
        #expect(
            states["aubade/t/sunrise/attributes"]
                == ##"{"alarm":3,"at":"2026-01-05T07:00:00+01:00","backlight":22,"color":"#7A0C05"}"##)
        let began = Self.topics.payload(
            .sunrise(SunriseEvent(alarmID: 3, alarmAt: at, leadSeconds: 1200, began: true)), names: [3: "Work"], zone: utc)
        #expect(
            began
                == #"{"alarm":3,"at":"2026-01-05T06:00:00Z","event_type":"sunrise","lead_minutes":20,"name":"Work","state":"began"}"#
        )
        let ended = Self.topics.payload(
            .sunrise(SunriseEvent(alarmID: 3, alarmAt: at, leadSeconds: 1200, began: false)), names: [3: "Work"], zone: utc)
        #expect(ended?.contains(#""state":"ended""#) == true)
        #expect(HomeAssistantDiscovery.eventTypes.contains("sunrise"))
    }

    @Test func commandsBecomeClockCommandsAndBadOnesAreRefusedInASentence() throws {
        let t = Self.topics
        let at = Date()
        let ringing = Self.state(activity: .ringing, next: HomeState.Next(alarmID: 3, name: "Work", at: at, snooze: false))
        #expect(try t.command(topic: "aubade/t/cmd", payload: "stop", state: ringing)?.get() == .stop(alarm: nil, by: .mqtt))
        #expect(
            try t.command(topic: "aubade/t/cmd", payload: " Snooze\n", state: ringing)?.get() == .snooze(alarm: nil, by: .mqtt))
        // Nothing rings and an alarm is snoozed: Stop ends the snooze.
        var snoozed = Self.state(activity: .snoozed, next: HomeState.Next(alarmID: 3, name: "Work", at: at, snooze: true))
        snoozed.ringing = false
        #expect(try t.command(topic: "aubade/t/cmd", payload: "stop", state: snoozed)?.get() == .stop(alarm: 3, by: .mqtt))
        #expect(
            try t.command(topic: "aubade/t/cmd", payload: "skip_next", state: ringing)?.get()
                == .edit(.skipNext(id: 3, undo: false)))
        #expect(t.command(topic: "aubade/t/cmd", payload: "skip_next", state: Self.state())?.isFailure == true)
        #expect(t.command(topic: "aubade/t/cmd", payload: "dance", state: nil)?.isFailure == true)
        #expect(
            try t.command(topic: "aubade/t/alarm/3/enabled/set", payload: "OFF", state: nil)?.get()
                == .edit(.editAlarm(id: 3, AlarmPatch(enabled: false))))
        #expect(
            try t.command(topic: "aubade/t/alarm/3/time/set", payload: "06:30", state: nil)?.get()
                == .edit(.editAlarm(id: 3, AlarmPatch(time: "06:30"))))
        #expect(t.command(topic: "aubade/t/alarm/x/time/set", payload: "06:30", state: nil)?.isFailure == true)
        #expect(t.command(topic: "aubade/t/alarm/3/enabled/set", payload: "maybe", state: nil)?.isFailure == true)
        // Volume: the radio's while it plays ("30.0" as Home Assistant's number writes it), else the default setting.
        #expect(
            try t.command(topic: "aubade/t/volume/set", payload: "30.0", state: Self.state(radioOn: true))?.get()
                == .radioVolume(30))
        #expect(
            try t.command(topic: "aubade/t/volume/set", payload: "40", state: Self.state())?.get()
                == .edit(.setSettings([SettingChange(key: "defaultVolume", value: .number(40))])))
        #expect(t.command(topic: "aubade/t/volume/set", payload: "101", state: nil)?.isFailure == true)
        #expect(try t.command(topic: "aubade/t/station/set", payload: "off", state: nil)?.get() == .stopRadio)
        #expect(
            try t.command(topic: "aubade/t/station/set", payload: "FIP", state: Self.state())?.get()
                == .play(source: "FIP", seconds: nil, volume: nil))
        // Only a saved station: never an address sent over MQTT.
        #expect(
            t.command(topic: "aubade/t/station/set", payload: "http://evil.example/x", state: Self.state())?.isFailure == true)
        #expect(try t.command(topic: "aubade/t/sleep/set", payload: "0", state: nil)?.get() == .sleepCancel)
        #expect(
            try t.command(topic: "aubade/t/sleep/set", payload: "30", state: Self.state(radioOn: true))?.get()
                == .sleep(seconds: 1800, source: "FIP"))
        #expect(t.command(topic: "aubade/t/sleep/set", payload: "-5", state: nil)?.isFailure == true)
        #expect(
            try t.command(topic: "aubade/t/output/shaker/set", payload: "ON", state: nil)?.get() == .output(.shaker, on: true))
        #expect(try t.command(topic: "aubade/t/output/lamp/set", payload: "off", state: nil)?.get() == .output(.lamp, on: false))
        #expect(t.command(topic: "aubade/t/output/fan/set", payload: "ON", state: nil)?.isFailure == true)
        #expect(t.command(topic: "aubade/t/output/lamp/set", payload: "bright", state: nil)?.isFailure == true)
        #expect(Self.topics.subscriptions.contains("aubade/t/output/+/set"))
        // Not the clock's command topics: nothing.
        #expect(t.command(topic: "aubade/t/next_alarm", payload: "x", state: nil) == nil)
        #expect(t.command(topic: "aubade/other/cmd", payload: "stop", state: nil) == nil)
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
