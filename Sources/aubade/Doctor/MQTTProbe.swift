import AubadeConfig
import AubadeHomeAssistant
import AubadeMQTT
import Foundation
import Synchronization

/// `aubade doctor`'s look at the Home Assistant face: is the config's broker reachable, does it take the clock's
/// credentials, and has the clock published its device there (and is it online)? It connects as a client of its
/// own (the clock's id with "-doctor"), so the running clock's connection is not disturbed. Never a problem:
/// alarms do not depend on the broker.
enum MQTTProbe {
    /// How long it waits for the broker to answer, and then for the retained device document.
    static let connectWait: Duration = .seconds(10)
    static let retainedWait: Duration = .seconds(3)

    static func check(_ config: Configuration.MQTT) async -> DoctorCheck? {
        let (settings, warning) = MQTTFromConfig.settings(config, override: nil)
        if let warning {
            return .warning(
                "mqtt", warning, fix: "Make the password file readable by the clock's user, or fix [mqtt] password_file.")
        }
        guard var settings else { return nil }
        let broker = settings.brokerText
        let fix = "Check [mqtt] in the config (broker, username, password_file, ca_file) and that the broker runs."
        settings.mqtt.clientID += "-doctor"
        let (events, feed) = AsyncStream.makeStream(of: MQTTEvent.self, bufferingPolicy: .unbounded)
        let connection: MQTTConnection
        do throws(MQTTError) {
            connection = try MQTTConnection(settings.mqtt) { feed.yield($0) }
            try connection.start()
        } catch {
            return .warning("mqtt", error.description, fix: fix)
        }
        defer { connection.stop() }
        let discovery = settings.discovery
        var lastProblem = "it did not answer within \(connectWait.components.seconds) s"
        var document: [String: Any]?
        var online: Bool?
        var connected = false
        let deadline = ContinuousClock.now + connectWait
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            feed.finish()
        }
        defer { timer.cancel() }
        for await event in events {
            switch event {
            case .connected:
                connected = true
                connection.subscribe(discovery.topic, retained: true)
                connection.subscribe(discovery.availability, retained: true)
                Task {
                    try? await Task.sleep(for: retainedWait)
                    feed.finish()
                }
            case .refused(let sentence):
                return .warning("mqtt", sentence + " Home Assistant cannot see the clock.", fix: fix)
            case .disconnected(let reason):
                // Not even connected: one failed attempt says enough.
                if !connected {
                    if let reason { lastProblem = reason }
                    feed.finish()
                }
            case .message(let topic, let payload, _):
                if topic == discovery.topic {
                    document = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
                } else if topic == discovery.availability {
                    online = String(decoding: payload, as: UTF8.self) == "online"
                }
                if document != nil, online != nil { feed.finish() }
            case .oversized:
                break
            }
        }
        guard connected else {
            return .warning("mqtt", settings.unreachable(lastProblem), fix: fix)
        }
        let login = settings.mqtt.username.map { " as \($0)" } ?? ""
        guard let components = document?["components"] as? [String: Any] else {
            return .warning(
                "mqtt",
                "The MQTT broker \(broker) takes the clock's connection\(login), but the device is not published on \(discovery.topic).",
                fix: "Start the clock (sudo systemctl start aubade); it publishes the device when it connects.")
        }
        let state = online == true ? "online" : "offline"
        return .ok(
            "mqtt",
            "The MQTT broker \(broker) takes the clock's connection\(login); the device is published (\(components.count) components) and the clock is \(state)."
        )
    }
}
