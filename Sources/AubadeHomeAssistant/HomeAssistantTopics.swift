public import AubadeApp
import AubadeCore
public import Foundation

/// The clock's topics and payloads for Home Assistant: the retained states a `HomeState` makes, the event a
/// `ClockEvent` makes, and the clock command a message on a command topic asks for. Pure, so the words Home
/// Assistant sees are tested without a broker; `HomeAssistantService` carries them.
public struct HomeAssistantTopics: Sendable {
    public let discovery: HomeAssistantDiscovery
    private var prefix: String { discovery.topicPrefix }

    public init(_ discovery: HomeAssistantDiscovery) {
        self.discovery = discovery
    }

    /// The payload of a sensor with no value (Home Assistant shows it as unknown).
    public static let none = "None"

    /// The event topic (never retained).
    public var event: String { "\(prefix)/event" }

    /// Where Home Assistant says it (re)started: `online` there means every retained state is sent again.
    public var homeAssistantStatus: String { "\(discovery.discoveryPrefix)/status" }

    /// The topics the clock subscribes to: its commands, and Home Assistant's status.
    public var subscriptions: [String] {
        [
            discovery.commands, "\(prefix)/alarm/+/enabled/set", "\(prefix)/alarm/+/time/set", "\(prefix)/alarm/+/days/set",
            "\(prefix)/volume/set", "\(prefix)/station/set", "\(prefix)/sleep/set", "\(prefix)/output/+/set",
            homeAssistantStatus,
        ]
    }

    /// Every state topic and its payload for `state` (the alarms' topics included).
    public func states(_ state: HomeState) -> [String: String] {
        let zone = TimeZone(identifier: state.zone) ?? .gmt
        var topics: [String: String] = [
            "\(prefix)/next_alarm": state.next.map { HomeAssistantTopics.timestamp($0.at, zone) } ?? HomeAssistantTopics.none,
            "\(prefix)/next_alarm/name": state.next?.name ?? HomeAssistantTopics.none,
            "\(prefix)/state": state.activity.rawValue,
            "\(prefix)/ringing": state.ringing ? "ON" : "OFF",
            "\(prefix)/volume": String(state.volume),
            "\(prefix)/station":
                state.station ?? (state.radioOn ? HomeAssistantTopics.none : HomeAssistantDiscovery.stationOff),
            "\(prefix)/sleep": String(state.sleepMinutesLeft),
            "\(prefix)/now_playing": state.nowPlaying ?? HomeAssistantTopics.none,
            "\(prefix)/sunrise": state.sunrise.map { String($0.progressPercent) } ?? HomeAssistantTopics.none,
            "\(prefix)/sunrise/attributes": HomeAssistantTopics.json(
                state.sunrise.map { s in
                    [
                        "alarm": s.alarmID, "at": HomeAssistantTopics.timestamp(s.at, zone),
                        "backlight": s.backlightPercent, "color": s.color,
                    ]
                } ?? [:]),
        ]
        for output in state.outputs {
            topics["\(prefix)/output/\(output.name)"] = output.on ? "ON" : "OFF"
        }
        for alarm in state.alarms {
            let base = "\(prefix)/alarm/\(alarm.id)"
            topics["\(base)/enabled"] = alarm.enabled ? "ON" : "OFF"
            topics["\(base)/time"] = alarm.time
            topics["\(base)/days"] = alarm.days
            topics["\(base)/attributes"] = HomeAssistantTopics.json([
                "time": alarm.time, "days": alarm.days, "source": alarm.source, "volume": alarm.volume,
                "scheduled_today": alarm.scheduledToday,
            ])
        }
        return topics
    }

    /// The state topics of alarm `id` (cleared when it is removed).
    public func alarmTopics(_ id: Int64) -> [String] {
        ["enabled", "time", "days", "attributes"].map { "\(prefix)/alarm/\(id)/\($0)" }
    }

    /// The discovery document for `state`'s alarms and stations.
    public func document(_ state: HomeState, removed: Set<Int64>) -> Data {
        discovery.document(
            alarms: state.alarms.map { ($0.id, $0.name) }, stations: state.stations, outputs: state.outputs.map(\.name),
            removed: removed)
    }

    /// The event entity's payload for `event` (nil: not an event Home Assistant is told of). `names` gives an
    /// alarm's name by id.
    public func payload(_ event: ClockEvent, names: [Int64: String], zone: TimeZone) -> String? {
        var fields: [String: Any]
        var alarm: Int64?
        switch event {
        case .preAlarm(let notice):
            alarm = notice.alarmID
            fields = [
                "event_type": "pre_alarm", "at": HomeAssistantTopics.timestamp(notice.occurrence, zone),
                "lead_minutes": notice.leadSeconds / 60, "will_ring": notice.willRing,
            ]
            if let why = notice.why { fields["why"] = why }
            fields["name"] = notice.name
        case .sunrise(let sunrise):
            alarm = sunrise.alarmID
            fields = [
                "event_type": "sunrise", "state": sunrise.began ? "began" : "ended",
                "at": HomeAssistantTopics.timestamp(sunrise.alarmAt, zone), "lead_minutes": sunrise.leadSeconds / 60,
            ]
        case .recorded(let line):
            alarm = line.alarmID
            guard let kind = HistoryKind(rawValue: line.kind) else { return nil }
            switch kind {
            case .rang, .rangLate, .resumed, .snoozeEnded:
                fields = ["event_type": "ringing", "cause": kind.rawValue]
            case .audible:
                fields = ["event_type": "audible"]
            case .fallback:
                let fallback = HistoryDetail.fallback(in: line.detail)
                fields = ["event_type": "fallback", "reason": fallback.reason]
                if let target = fallback.target { fields["to"] = target }
            case .snoozed:
                fields = ["event_type": "snoozed"]
            case .dismissed:
                // "page" for the web page, the kiosk and the JSON API (the history's "api").
                let how = HistoryDetail.dismissInput(in: line.detail).map { $0 == .api ? "page" : $0.rawValue }
                fields = ["event_type": "dismissed", "how": how ?? "unknown"]
            case .autoSilenced:
                fields = ["event_type": "dismissed", "how": "auto-silence"]
            case .escalated:
                // The top of its ladder rang unanswered: an automation can call a phone.
                fields = ["event_type": "unanswered", "round": HistoryDetail.round(in: line.detail).map(String.init) ?? ""]
            case .unanswered:
                fields = ["event_type": "dismissed", "how": "unanswered"]
            case .notHeard:
                // The microphone did not hear it in the room (an amplifier off, a speaker unplugged).
                fields = ["event_type": "not_heard", "reason": line.detail]
            case .selfTestHeard, .selfTestNotHeard:
                // The microphone's daily self-test (no alarm): a dead amplifier is known the day before.
                fields = ["event_type": "self_test", "heard": kind == .selfTestHeard, "reason": line.detail]
            case .wakeCheck:
                fields = ["event_type": "wake_check", "answer": "asked"]
            case .woke:
                fields = ["event_type": "wake_check", "answer": "woke"]
            case .fellBackAsleep:
                // Nobody answered "Are you up?": it rings again.
                fields = ["event_type": "wake_check", "answer": "fell_back_asleep"]
            case .skipped:
                let reason: SkipReason = HistoryDetail.dayOff(in: line.detail).map(SkipReason.dayOff) ?? .skipNext
                fields = ["event_type": "skipped", "why": PreAlarms.why(reason)]
            case .missed:
                fields = ["event_type": "missed"]
            default:
                return nil
            }
        }
        if let alarm {
            fields["alarm"] = alarm
            if fields["name"] == nil { fields["name"] = names[alarm] ?? "" }
        }
        return HomeAssistantTopics.json(fields)
    }

    /// What a message on a command topic asks of the clock, or why it is ignored (one sentence for the log);
    /// nil when `topic` is not one of the clock's command topics.
    public func command(topic: String, payload: String, state: HomeState?) -> Result<ClockCommand, Refusal>? {
        let text = payload.trimmingCharacters(in: .whitespacesAndNewlines)
        if topic == discovery.commands {
            switch text.lowercased() {
            case "stop":
                // Nothing rings but an alarm is snoozed: Stop ends its snooze (the button has no other meaning then).
                if let next = state?.next, next.snooze, state?.ringing == false {
                    return .success(.stop(alarm: next.alarmID, by: .mqtt))
                }
                return .success(.stop(alarm: nil, by: .mqtt))
            case "snooze": return .success(.snooze(alarm: nil, by: .mqtt))
            case "skip_next":
                guard let id = state?.nextScheduled else {
                    return .failure(Refusal("No alarm is due to ring, so none is skipped."))
                }
                return .success(.edit(.skipNext(id: id, undo: false)))
            default:
                return .failure(Refusal("\(Self.quoted(text)) on \(topic) is not a command; use stop, snooze or skip_next."))
            }
        }
        guard topic.hasPrefix(prefix + "/"), topic.hasSuffix("/set") else { return nil }
        let parts = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count {
        case 2 where parts[0] == "volume":
            guard let level = HomeAssistantTopics.number(text), (1...100).contains(level) else {
                return .failure(Refusal("Volume \(Self.quoted(text)) is not a number from 1 to 100."))
            }
            if state?.radioOn == true { return .success(.radioVolume(level)) }
            return .success(.edit(.setSettings([SettingChange(key: SettingKey.defaultVolume.rawValue, value: .number(level))])))
        case 2 where parts[0] == "station":
            if text.lowercased() == HomeAssistantDiscovery.stationOff { return .success(.stopRadio) }
            // A saved station only: a message on the broker never makes the clock fetch an address of its choosing.
            guard state?.stations.contains(text) == true else {
                return .failure(Refusal("\(Self.quoted(text)) on \(topic) is not a saved station."))
            }
            return .success(.play(source: text, seconds: nil, volume: nil))
        case 2 where parts[0] == "sleep":
            guard let minutes = HomeAssistantTopics.number(text), (0...720).contains(minutes) else {
                return .failure(Refusal("Sleep timer \(Self.quoted(text)) is not a number of minutes from 0 to 720."))
            }
            if minutes == 0 { return .success(.sleepCancel) }
            return .success(.sleep(seconds: minutes * 60, source: state?.station))
        case 3 where parts[0] == "output":
            guard let name = OutputName(rawValue: String(parts[1])) else {
                return .failure(Refusal("\(Self.quoted(String(parts[1]))) in \(Self.quoted(topic)) is not an output."))
            }
            switch text.uppercased() {
            case "ON": return .success(.output(name, on: true))
            case "OFF": return .success(.output(name, on: false))
            default: return .failure(Refusal("\(Self.quoted(text)) on \(topic) is neither ON nor OFF."))
            }
        case 4 where parts[0] == "alarm":
            guard let id = Int64(parts[1]) else {
                return .failure(Refusal("\(Self.quoted(String(parts[1]))) in \(Self.quoted(topic)) is not an alarm's id."))
            }
            switch parts[2] {
            case "enabled":
                switch text.uppercased() {
                case "ON": return .success(.edit(.editAlarm(id: id, AlarmPatch(enabled: true))))
                case "OFF": return .success(.edit(.editAlarm(id: id, AlarmPatch(enabled: false))))
                default: return .failure(Refusal("\(Self.quoted(text)) on \(topic) is neither ON nor OFF."))
                }
            case "time": return .success(.edit(.editAlarm(id: id, AlarmPatch(time: text))))
            case "days": return .success(.edit(.editAlarm(id: id, AlarmPatch(days: text))))
            default: return nil
            }
        default:
            return nil
        }
    }

    /// `text` from a message (a payload, a topic) in quotes for a sentence: at most 80 characters, then "…". It is
    /// quoted as it came: the log escapes what it must (`HomeAssistantLink.log`).
    static func quoted(_ text: String) -> String {
        "'" + String(text.prefix(80)) + (text.count > 80 ? "…" : "") + "'"
    }

    /// A command message that is ignored, and why.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// A whole number written as Home Assistant's number entity writes it ("30", "30.0").
    static func number(_ text: String) -> Int? {
        if let n = Int(text) { return n }
        guard let d = Double(text), d.isFinite, d == d.rounded(), abs(d) < 1e9 else { return nil }
        return Int(d)
    }

    /// "2026-01-05T08:00:00+01:00": the instant with the zone's offset then (Home Assistant's timestamp form).
    static func timestamp(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime, .withColonSeparatorInTimeZone]
        return formatter.string(from: date)
    }

    /// Compact JSON with sorted keys.
    static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
