import AubadeCore
import AubadeHomeAssistant
import Foundation
import Testing

/// The Home Assistant device document (MQTT discovery, device-based): what Home Assistant requires of it, and
/// what keeps two clocks on one broker apart.
@Suite("Home Assistant discovery document")
struct HomeAssistantDiscoveryTests {
    static let bedroom = HomeAssistantDiscovery(
        node: "aubade_bedroom", name: "Bedside Aubade", topicPrefix: "aubade/bedroom", version: "1.0")

    static func parse(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func components(_ document: [String: Any]) throws -> [String: [String: Any]] {
        try #require(document["components"] as? [String: [String: Any]])
    }

    @Test func everyComponentHasItsPlatformAStableUniqueIDAndTopicsUnderTheClocksPrefix() throws {
        let document = try Self.parse(
            Self.bedroom.document(alarms: [(1, "Work"), (2, "Weekend")], stations: ["FIP", "News"]))
        #expect((document["device"] as? [String: Any])?["identifiers"] as? [String] == ["aubade_bedroom"])
        #expect((document["origin"] as? [String: Any])?["name"] as? String == "Aubade")
        #expect((document["availability"] as? [[String: String]])?.first?["topic"] == "aubade/bedroom/availability")
        let components = try Self.components(document)
        let platforms = Set(components.values.compactMap { $0["platform"] as? String })
        #expect(platforms == ["sensor", "binary_sensor", "button", "switch", "text", "number", "select", "event"])
        var ids: Set<String> = []
        for (key, component) in components {
            let id = try #require(component["unique_id"] as? String, "\(key)")
            #expect(id == "aubade_bedroom_\(key)")
            ids.insert(id)
            #expect((component["default_entity_id"] as? String)?.hasSuffix(".aubade_bedroom_\(key)") == true)
            for (field, value) in component where field.hasSuffix("_topic") {
                #expect((value as? String)?.hasPrefix("aubade/bedroom/") == true, "\(key).\(field)")
            }
        }
        #expect(ids.count == components.count)
        #expect(components["next_alarm"]?["device_class"] as? String == "timestamp")
        #expect(components["state"]?["options"] as? [String] == HomeAssistantDiscovery.states)
        #expect(components["station"]?["options"] as? [String] == ["off", "FIP", "News"])
        #expect(components["stop"]?["command_topic"] as? String == "aubade/bedroom/cmd")
        #expect(components["alarm_2"]?["name"] as? String == "Weekend")
        #expect(components["alarm_1_time"]?["pattern"] as? String == "^([01][0-9]|2[0-3]):[0-5][0-9]$")
        #expect(components["output_shaker"] == nil, "a clock without outputs has no switch for them")
    }

    @Test func eachOutputTheClockHoldsIsASwitch() throws {
        let components = try Self.components(
            try Self.parse(Self.bedroom.document(alarms: [], stations: [], outputs: [.shaker, .lamp])))
        #expect(components["output_shaker"]?["platform"] as? String == "switch")
        #expect(components["output_shaker"]?["name"] as? String == "Bed shaker")
        #expect(components["output_shaker"]?["state_topic"] as? String == "aubade/bedroom/output/shaker")
        #expect(components["output_lamp"]?["command_topic"] as? String == "aubade/bedroom/output/lamp/set")
        let one = try Self.components(try Self.parse(Self.bedroom.document(alarms: [], stations: [], outputs: [.lamp])))
        #expect(one["output_shaker"] == nil && one["output_lamp"] != nil)
    }

    @Test func twoClocksOnOneBrokerShareNoIDAndNoTopic() throws {
        let kitchen = HomeAssistantDiscovery(
            node: "aubade_kitchen", name: "Kitchen Aubade", topicPrefix: "aubade/kitchen", version: "1.0")
        func idsAndTopics(_ d: HomeAssistantDiscovery) throws -> Set<String> {
            let components = try Self.components(try Self.parse(d.document(alarms: [(1, "Work")], stations: [])))
            var out: Set<String> = [d.topic]
            for component in components.values {
                out.insert(component["unique_id"] as? String ?? "")
                for (field, value) in component where field.hasSuffix("_topic") { out.insert(value as? String ?? "") }
            }
            return out
        }
        #expect(try idsAndTopics(Self.bedroom).isDisjoint(with: try idsAndTopics(kitchen)))
    }

    /// The same clock gives the same bytes, whatever order its alarms come in; an alarm's components come and go
    /// with it.
    @Test func theDocumentIsStableAndFollowsTheAlarms() throws {
        let one = Self.bedroom.document(alarms: [(1, "Work"), (2, "Weekend")], stations: ["FIP"])
        let again = Self.bedroom.document(alarms: [(2, "Weekend"), (1, "Work")], stations: ["FIP"])
        #expect(one == again)
        let fewer = try Self.components(try Self.parse(Self.bedroom.document(alarms: [(2, "Weekend")], stations: ["FIP"])))
        #expect(fewer["alarm_1"] == nil && fewer["alarm_1_time"] == nil && fewer["alarm_2_days"] != nil)
        // Removed, it is first sent as its platforms alone: that is what makes Home Assistant drop its entities.
        let tombstones = try Self.components(
            try Self.parse(Self.bedroom.document(alarms: [(2, "Weekend")], stations: ["FIP"], removed: [1, 2])))
        #expect(tombstones["alarm_1"]?.keys.sorted() == ["platform"] && tombstones["alarm_1"]?["platform"] as? String == "switch")
        #expect(tombstones["alarm_1_days"]?.keys.sorted() == ["platform"])
        #expect(tombstones["alarm_2"]?["unique_id"] as? String == "aubade_bedroom_alarm_2")
        #expect(Self.bedroom.topic == "homeassistant/device/aubade_bedroom/config")
    }

    /// A client id with a hyphen is a fine `unique_id`, but an entity id's object part takes letters, digits and
    /// "_" only.
    @Test func theDefaultEntityIDsHaveNoHyphen() throws {
        let clock = HomeAssistantDiscovery(node: "aubade-bedroom", name: "Bedside", topicPrefix: "aubade/bedroom", version: "1.0")
        let components = try Self.components(try Self.parse(clock.document(alarms: [(1, "Work")], stations: [])))
        #expect(components["next_alarm"]?["unique_id"] as? String == "aubade-bedroom_next_alarm")
        #expect(components["next_alarm"]?["default_entity_id"] as? String == "sensor.aubade_bedroom_next_alarm")
        #expect(components["volume"]?["unit_of_measurement"] as? String == "%")
    }

    @Test func anIDKeepsOnlyWhatHomeAssistantAllows() {
        #expect(HomeAssistantDiscovery.id("Bedroom Clock #2") == "bedroom_clock__2")
        #expect(HomeAssistantDiscovery.id("aubade-3f9c") == "aubade-3f9c")
        #expect(HomeAssistantDiscovery.id("Küche") == "k_che")
    }
}
