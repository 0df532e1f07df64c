import AubadeMQTT
import AubadeTesting
import Foundation
import Synchronization
import Testing

/// libmosquitto's connection against a real Mosquitto broker on 127.0.0.1: connecting, retained state, commands
/// that never replay a retained message, a broker that goes away and comes back, refused credentials. (The last
/// will needs a client that dies: it is tested with the daemon killed, when the daemon runs the service.)
@Suite("MQTT connection (libmosquitto, real broker)")
struct MQTTConnectionTests {
    /// The events a connection reports, and a way to wait for one.
    final class Events: Sendable {
        private let seen = Mutex<[MQTTEvent]>([])
        private let changes = ChangeSignal()

        func add(_ event: MQTTEvent) {
            seen.withLock { $0.append(event) }
            changes.bump()
        }

        var all: [MQTTEvent] { seen.withLock { $0 } }

        /// The first event after position `after` that `match` accepts (nil after the watchdog).
        func wait(after: Int = 0, _ match: @escaping @Sendable (MQTTEvent) -> Bool) async -> MQTTEvent? {
            let deadline = ContinuousClock.now + .seconds(90)
            while true {
                let generation = changes.generation
                if let found = seen.withLock({ $0.dropFirst(after).first(where: match) }) { return found }
                if ContinuousClock.now >= deadline { return nil }
                await changes.wait(past: generation, until: deadline)
            }
        }
    }

    static func options(_ broker: MosquittoBroker, id: String = "aubade-test") -> MQTTOptions {
        var options = MQTTOptions(host: "127.0.0.1", port: broker.port, clientID: id)
        options.will = .init(topic: "aubade/test/availability", payload: "offline")
        options.keepAlive = 5
        return options
    }

    @Test func itConnectsWithMQTT5PublishesRetainedStateAndRefusesToPublishOnceStopped() async throws {
        let broker = try await MosquittoBroker()
        let events = Events()
        let connection = try MQTTConnection(Self.options(broker)) { events.add($0) }
        try connection.start()
        let connected = await events.wait { if case .connected = $0 { true } else { false } }
        #expect(connected == .connected(version5: true))
        #expect(connection.publish("aubade/test/availability", "online", retain: true))
        #expect(try await broker.take("aubade/test/availability", count: 1) == ["aubade/test/availability online"])
        connection.stop()
        #expect(!connection.publish("aubade/test/availability", "late", retain: true))
    }

    /// A "stop" retained on a command topic before the clock subscribed must never reach it; one published
    /// afterwards does.
    @Test func aRetainedCommandIsNeverReplayedAndAFreshOneArrives() async throws {
        let broker = try await MosquittoBroker()
        try await broker.publish("aubade/test/stop", "stale", retain: true)
        let events = Events()
        let connection = try MQTTConnection(Self.options(broker)) { event in
            events.add(event)
        }
        try connection.start()
        _ = await events.wait { if case .connected = $0 { true } else { false } }
        #expect(connection.subscribe("aubade/test/+"))
        // The broker answers the subscription before it delivers what comes after it: a fresh message after a
        // round trip of our own shows the subscription is in place.
        #expect(connection.publish("aubade/test/ping", "1", retain: false))
        _ = await events.wait { if case .message(topic: "aubade/test/ping", _, _) = $0 { true } else { false } }
        try await broker.publish("aubade/test/stop", "fresh")
        let fresh = await events.wait { if case .message(topic: "aubade/test/stop", _, _) = $0 { true } else { false } }
        #expect(fresh == .message(topic: "aubade/test/stop", payload: Array("fresh".utf8), retained: false))
        let stale = events.all.contains { if case .message(_, let p, _) = $0 { p == Array("stale".utf8) } else { false } }
        #expect(!stale, "\(events.all)")
        connection.stop()
    }

    /// The broker killed and started again on the same port: the connection says it was lost and comes back by
    /// itself, and publishing while it is down is refused at once, never queued or blocking.
    @Test func aBrokerThatGoesAwayAndComesBackIsReconnected() async throws {
        let broker = try await MosquittoBroker()
        let events = Events()
        let connection = try MQTTConnection(Self.options(broker)) { events.add($0) }
        try connection.start()
        _ = await events.wait { if case .connected = $0 { true } else { false } }
        let mark = events.all.count
        await broker.stop()
        let lost = await events.wait(after: mark) { if case .disconnected = $0 { true } else { false } }
        #expect(lost != nil)
        #expect(!connection.publish("aubade/test/state", "down", retain: true))
        try await broker.start()
        let again = await events.wait(after: mark) { if case .connected = $0 { true } else { false } }
        #expect(again == .connected(version5: true))
        #expect(connection.publish("aubade/test/state", "up", retain: true))
        #expect(try await broker.take("aubade/test/state", count: 1) == ["aubade/test/state up"])
        connection.stop()
    }

    @Test func wrongCredentialsAreRefusedInOneSentence() async throws {
        let broker = try await MosquittoBroker(config: "password_file /dev/null\n")
        var options = Self.options(broker)
        options.username = "clock"
        options.password = "wrong"
        let events = Events()
        let connection = try MQTTConnection(options) { events.add($0) }
        try connection.start()
        let refused = await events.wait { if case .refused = $0 { true } else { false } }
        guard case .refused(let sentence)? = refused else {
            Issue.record("not refused: \(events.all)")
            return
        }
        #expect(sentence.hasPrefix("The MQTT broker 127.0.0.1:\(broker.port) refused the connection: "), "\(sentence)")
        connection.stop()
    }
}
