public import AubadeCore
public import Foundation

/// The clock as one Home Assistant device over MQTT discovery (device-based, Home Assistant 2024.11 and later):
/// one retained document on `<discovery>/device/<node>/config` naming every component with its platform, a
/// stable `unique_id` and the topics it reads and writes under the clock's own prefix. Pure: the same clock
/// gives the same bytes (keys sorted), so the service republishes it only when it changed — an alarm added or
/// removed, a station renamed. An alarm removed is first sent as its components with their platform alone, as
/// Home Assistant asks, so that its entities go (`removed`).
public struct HomeAssistantDiscovery: Sendable, Hashable {
    /// This clock's id among others on one broker ("aubade_3f9c2a": letters, digits, `_` and `-` only), the
    /// root of every `unique_id` and of the default entity ids.
    public var node: String
    /// The device's name in Home Assistant ("Bedside Aubade").
    public var name: String
    /// Where the clock's states and commands live ("aubade/bedroom").
    public var topicPrefix: String
    /// Home Assistant's discovery prefix ("homeassistant").
    public var discoveryPrefix: String
    public var version: String

    public init(node: String, name: String, topicPrefix: String, discoveryPrefix: String = "homeassistant", version: String) {
        self.node = node
        self.name = name
        self.topicPrefix = topicPrefix
        self.discoveryPrefix = discoveryPrefix
        self.version = version
    }

    /// The states the `state` sensor takes.
    public static let states = ["idle", "pre_alarm", "ringing", "snoozed", "playing", "sleep"]
    /// The `event` entity's event types.
    public static let eventTypes = [
        "pre_alarm", "sunrise", "ringing", "audible", "fallback", "snoozed", "dismissed", "skipped", "missed",
        "unanswered", "wake_check", "not_heard", "self_test",
    ]
    /// The `select` station's choice that stops the radio.
    public static let stationOff = "off"

    /// The retained discovery document's topic.
    public var topic: String { "\(discoveryPrefix)/device/\(node)/config" }
    /// The availability topic (`online`, or `offline` as the last will).
    public var availability: String { "\(topicPrefix)/availability" }
    /// The one command topic of the buttons ("stop", "snooze", "skip_next").
    public var commands: String { "\(topicPrefix)/cmd" }

    /// A component id as Home Assistant allows it in ids: letters, digits, `_` and `-`; anything else becomes `_`.
    public static func id(_ text: String) -> String {
        String(
            text.lowercased().unicodeScalars.map { s -> Character in
                ("a"..."z").contains(s) || ("0"..."9").contains(s) || s == "_" || s == "-" ? Character(s) : "_"
            })
    }

    /// The document for a clock with `alarms` (id and name) and saved `stations` (names), as compact JSON with
    /// sorted keys; the alarms in `removed` are there as their components' platforms alone (what removes them).
    public func document(
        alarms: [(id: Int64, name: String)], stations: [String], outputs: [OutputName] = [], removed: Set<Int64> = []
    ) -> Data {
        var components: [String: [String: Any]] = [:]
        func add(_ key: String, _ platform: String, _ name: String, _ fields: [String: Any]) {
            var component = fields
            component["platform"] = platform
            component["name"] = name
            component["unique_id"] = "\(node)_\(key)"
            // An entity id's object part takes letters, digits and "_" only.
            component["default_entity_id"] = "\(platform).\(node.replacingOccurrences(of: "-", with: "_"))_\(key)"
            components[key] = component
        }
        let p = topicPrefix
        add("next_alarm", "sensor", "Next alarm", ["device_class": "timestamp", "state_topic": "\(p)/next_alarm"])
        add("next_alarm_name", "sensor", "Next alarm name", ["state_topic": "\(p)/next_alarm/name"])
        add(
            "state", "sensor", "State",
            ["device_class": "enum", "options": HomeAssistantDiscovery.states, "state_topic": "\(p)/state"])
        add("ringing", "binary_sensor", "Ringing", ["state_topic": "\(p)/ringing"])
        for (key, label, payload) in [
            ("stop", "Stop", "stop"), ("snooze", "Snooze", "snooze"), ("skip_next", "Skip next alarm", "skip_next"),
        ] {
            add(key, "button", label, ["command_topic": commands, "payload_press": payload])
        }
        for alarm in alarms.sorted(by: { $0.id < $1.id }) {
            let base = "\(p)/alarm/\(alarm.id)"
            add(
                "alarm_\(alarm.id)", "switch", alarm.name,
                [
                    "state_topic": "\(base)/enabled", "command_topic": "\(base)/enabled/set",
                    "json_attributes_topic": "\(base)/attributes",
                ])
            add(
                "alarm_\(alarm.id)_time", "text", "\(alarm.name) time",
                [
                    "state_topic": "\(base)/time", "command_topic": "\(base)/time/set",
                    "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$", "min": 5, "max": 5,
                ])
            add(
                "alarm_\(alarm.id)_days", "text", "\(alarm.name) days",
                ["state_topic": "\(base)/days", "command_topic": "\(base)/days/set", "max": 64])
        }
        for id in removed.subtracting(alarms.map(\.id)) {
            components["alarm_\(id)"] = ["platform": "switch"]
            components["alarm_\(id)_time"] = ["platform": "text"]
            components["alarm_\(id)_days"] = ["platform": "text"]
        }
        add(
            "volume", "number", "Volume",
            [
                "state_topic": "\(p)/volume", "command_topic": "\(p)/volume/set", "min": 1, "max": 100, "step": 1,
                "mode": "slider", "unit_of_measurement": "%",
            ])
        add(
            "station", "select", "Station",
            [
                "state_topic": "\(p)/station", "command_topic": "\(p)/station/set",
                "options": [HomeAssistantDiscovery.stationOff] + stations,
            ])
        add(
            "sleep_timer", "number", "Sleep timer",
            [
                "state_topic": "\(p)/sleep", "command_topic": "\(p)/sleep/set", "min": 0, "max": 720, "step": 5,
                "unit_of_measurement": "min",
            ])
        add("now_playing", "sensor", "Now playing", ["state_topic": "\(p)/now_playing"])
        add(
            "sunrise", "sensor", "Sunrise",
            ["state_topic": "\(p)/sunrise", "unit_of_measurement": "%", "json_attributes_topic": "\(p)/sunrise/attributes"])
        // The outputs the clock holds, each a switch (the bed shaker, the lamp).
        for output in outputs {
            add(
                "output_\(output)", "switch", output == .shaker ? "Bed shaker" : "Lamp",
                ["state_topic": "\(p)/output/\(output)", "command_topic": "\(p)/output/\(output)/set"])
        }
        add("alarm_event", "event", "Alarm", ["state_topic": "\(p)/event", "event_types": HomeAssistantDiscovery.eventTypes])
        let document: [String: Any] = [
            "device": ["identifiers": [node], "name": name, "manufacturer": "Aubade", "model": "Aubade", "sw_version": version],
            "origin": ["name": "Aubade", "sw_version": version],
            "availability": [["topic": availability]],
            "qos": 1,
            "components": components,
        ]
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
    }
}
