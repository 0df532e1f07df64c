public import AubadeApp
import AubadeCore
public import AubadeMQTT
import AubadeSystemAsync
import Foundation
public import Logging
public import ServiceLifecycle
import Synchronization

/// Where the Home Assistant face connects, and as what.
public struct HomeAssistantSettings: Sendable {
    /// The broker; its last will is set here (`offline` on the availability topic).
    public var mqtt: MQTTOptions
    public var discovery: HomeAssistantDiscovery

    public init(mqtt: MQTTOptions, discovery: HomeAssistantDiscovery) {
        self.mqtt = mqtt
        self.discovery = discovery
    }

    /// "127.0.0.1:1883", for sentences.
    public var brokerText: String { "\(mqtt.host):\(mqtt.port)" }

    /// The sentence for a broker that cannot be reached, and why.
    public func unreachable(_ reason: String) -> String {
        "The MQTT broker \(brokerText) cannot be reached (\(reason)); Home Assistant does not see the clock until it can."
    }
}

/// The clock as a Home Assistant device over MQTT: a `Service` in the daemon's group. It follows the running
/// clock's home state and events (`ClockInput.subscribeHome`) and publishes them — retained states only when
/// they change, events never retained — and hands the commands it receives to the clock through `send`, as every
/// face does. It never holds the clock back: the clock's stream to it keeps the newest updates, publishing hands
/// packets to libmosquitto's queue (or drops them while the broker is away: the newest state per topic is sent
/// when it is back), and the broker's troubles (down, refusing, silent) are a warning on the status board.
public final class HomeAssistantService: Service, Sendable {
    private let clock: RunningClock
    private let settings: HomeAssistantSettings
    private let logger: Logger
    private let updates: AsyncStream<HomeUpdate>

    /// The service for `clock`, already following it (so that nothing the clock does from now on — a pre-alarm
    /// notice on its first turn — is missed); nil when the clock has shut down.
    public init?(clock: RunningClock, settings: HomeAssistantSettings, logger: Logger) async {
        guard let updates = try? await clock.send(.subscribeHome).home else { return nil }
        self.clock = clock
        self.settings = settings
        self.logger = logger
        self.updates = updates
    }

    /// What the service's loop takes, one at a time.
    enum Input: Sendable {
        case update(HomeUpdate)
        case mqtt(MQTTEvent)
        /// A received message was dropped: too many were waiting.
        case dropped
        case shutdown
    }

    /// How many received messages may wait for the loop; past it, messages are dropped (a client flooding the
    /// command topics must not grow the clock's memory) and the drop is logged.
    static let messagesWaiting = 256

    public func run() async throws {
        let (inputs, feed) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
        var options = settings.mqtt
        options.will = MQTTOptions.Will(topic: settings.discovery.availability, payload: "offline")
        let waiting = Atomic<Int>(0)
        let connection: MQTTConnection
        do throws(MQTTError) {
            connection = try MQTTConnection(options) { event in
                if case .message = event {
                    guard waiting.add(1, ordering: .relaxed).newValue <= HomeAssistantService.messagesWaiting else {
                        waiting.subtract(1, ordering: .relaxed)
                        feed.yield(.dropped)
                        return
                    }
                }
                feed.yield(.mqtt(event))
            }
            try connection.start()
        } catch {
            await warn(error.description)
            try? await gracefulShutdown()
            return
        }
        let updates = self.updates
        let link = HomeAssistantLink(
            topics: HomeAssistantTopics(settings.discovery), connection: connection, clock: clock, logger: logger,
            settings: settings)
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await update in updates { feed.yield(.update(update)) }
                }
                for await input in inputs {
                    if case .shutdown = input { break }
                    if case .mqtt(.message) = input { waiting.subtract(1, ordering: .relaxed) }
                    await link.take(input)
                }
                link.goodbye()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            feed.yield(.shutdown)
        }
        // Its goodbye and the end of its thread (at most `MQTTConnection.stopWait`), off the cooperative pool.
        await runBlocking("aubade-mqtt-stop") { connection.stop() }
    }

    private func warn(_ text: String) async {
        logger.warning("\(text)")
        _ = try? await clock.send(.warning(key: HomeAssistantLink.warningKey, text: text, announce: true))
    }
}

/// The service's state between inputs, on its one loop: what was published on this connection, the events
/// waiting for the broker to come back, the alarms whose entities were removed.
final class HomeAssistantLink {
    static let warningKey = "mqtt"
    /// Events kept while the broker is away, and how old one may be to be sent when it is back.
    static let eventsKept = 32
    static let eventsAge: Duration = .seconds(60)

    let topics: HomeAssistantTopics
    let connection: MQTTConnection
    let clock: RunningClock
    let logger: Logger
    let settings: HomeAssistantSettings
    private var broker: String { settings.brokerText }
    /// When a dropped message was last logged (one line a minute at most, however many are dropped).
    private var droppedLogged: ContinuousClock.Instant?
    private var droppedSince = 0

    private var state: HomeState?
    private var connected = false
    /// Topic → payload as handed to the broker on this connection (cleared on each connection: a broker that
    /// restarted without its store has lost them).
    private var published: [String: String] = [:]
    private var publishedDocument: Data?
    /// Alarms seen on this run, and those removed since (sent as removed in the discovery document).
    private var knownAlarms: Set<Int64> = []
    private var removedAlarms: Set<Int64> = []
    private var waiting: [(at: ContinuousClock.Instant, payload: String)] = []
    private var warned: String?

    init(
        topics: HomeAssistantTopics, connection: MQTTConnection, clock: RunningClock, logger: Logger,
        settings: HomeAssistantSettings
    ) {
        self.topics = topics
        self.connection = connection
        self.clock = clock
        self.logger = logger
        self.settings = settings
    }

    func take(_ input: HomeAssistantService.Input) async {
        switch input {
        case .update(.state(let new)):
            state = new
            sync(force: false)
        case .update(.event(let event)):
            send(event)
        case .mqtt(.connected(let version5)):
            connected = true
            published = [:]
            publishedDocument = nil
            for topic in topics.subscriptions { connection.subscribe(topic) }
            logger.info("Connected to the MQTT broker \(broker) (MQTT \(version5 ? "5" : "3.1.1")).")
            connection.publish(topics.discovery.availability, "online", retain: true)
            sync(force: true)
            let fresh = waiting.filter { ContinuousClock.now - $0.at <= HomeAssistantLink.eventsAge }
            waiting = []
            for event in fresh { connection.publish(topics.event, event.payload, retain: false, qos: 0) }
            await setWarning(nil)
        case .mqtt(.refused(let sentence)):
            connected = false
            await setWarning(sentence + " The clock keeps trying, and runs on without it.")
        case .mqtt(.disconnected(let reason)):
            let was = connected
            connected = false
            guard let reason else { return }
            if was || warned == nil { await setWarning(settings.unreachable(reason) + " The clock runs on without it.") }
        case .mqtt(.message(let topic, let payload, let retained)):
            await received(topic: topic, payload: String(decoding: payload, as: UTF8.self), retained: retained)
        case .mqtt(.oversized(let topic, let bytes)):
            dropped("a message of \(bytes) bytes on \(HomeAssistantTopics.quoted(topic)) is larger than the clock takes")
        case .dropped:
            dropped("more messages came at once than the clock takes")
        case .shutdown:
            break
        }
    }

    /// Logs a dropped message: the first at once, then one line a minute at most with how many.
    private func dropped(_ why: String) {
        droppedSince += 1
        if let last = droppedLogged, ContinuousClock.now - last < .seconds(60) { return }
        log(.warning, "MQTT: \(why); \(droppedSince) message(s) dropped.")
        droppedLogged = .now
        droppedSince = 0
    }

    /// On a clean shutdown: `offline` on the availability topic (the last will covers a crash).
    func goodbye() {
        connection.publish(topics.discovery.availability, "offline", retain: true)
    }

    /// Publishes what changed since the last time (everything, with `force`): the discovery document first,
    /// then the retained states; an alarm that is gone has its topics cleared.
    private func sync(force: Bool) {
        guard connected, let state else { return }
        let alarms = Set(state.alarms.map(\.id))
        let gone = knownAlarms.subtracting(alarms)
        removedAlarms.formUnion(gone)
        removedAlarms.subtract(alarms)
        knownAlarms = alarms
        // The document first (it removes the gone alarms' entities), then their retained states are cleared.
        let document = topics.document(state, removed: removedAlarms)
        if force || document != publishedDocument,
            connection.publish(topics.discovery.topic, String(decoding: document, as: UTF8.self), retain: true)
        {
            publishedDocument = document
        }
        for alarm in gone {
            for topic in topics.alarmTopics(alarm) where connection.publish(topic, "", retain: true) {
                published[topic] = nil
            }
        }
        for (topic, payload) in topics.states(state).sorted(by: { $0.key < $1.key })
        where force || published[topic] != payload {
            if connection.publish(topic, payload, retain: true) { published[topic] = payload }
        }
    }

    private func send(_ event: ClockEvent) {
        let names = Dictionary(state?.alarms.map { ($0.id, $0.name) } ?? [], uniquingKeysWith: { a, _ in a })
        let zone = state.flatMap { TimeZone(identifier: $0.zone) } ?? .gmt
        guard let payload = topics.payload(event, names: names, zone: zone) else { return }
        // QoS 0: an event is a moment — never sent again minutes later after a reconnect.
        if connected, connection.publish(topics.event, payload, retain: false, qos: 0) { return }
        waiting.append((ContinuousClock.now, payload))
        if waiting.count > HomeAssistantLink.eventsKept { waiting.removeFirst(waiting.count - HomeAssistantLink.eventsKept) }
    }

    private func received(topic: String, payload: String, retained: Bool) async {
        if topic == topics.homeAssistantStatus {
            if payload == "online" {
                logger.info("Home Assistant is online: the device and its states are sent again.")
                sync(force: true)
            }
            return
        }
        if retained {
            log(
                .warning,
                "A retained message on \(HomeAssistantTopics.quoted(topic)) was ignored: a command is carried out only when it is sent, never replayed."
            )
            return
        }
        switch topics.command(topic: topic, payload: payload, state: state) {
        case nil:
            return
        case .failure(let refusal)?:
            log(.warning, "MQTT: \(refusal.description)")
        case .success(let command)?:
            do throws(ClockError) {
                let output = try await clock.send(.command(command, follow: false))
                log(.info, "MQTT \(topic) \(HomeAssistantTopics.quoted(payload)): \(output.reply.message ?? "done")")
            } catch {
                log(.warning, "MQTT \(topic) \(HomeAssistantTopics.quoted(payload)) was refused: \(error.description)")
            }
        }
    }

    /// Writes `line` to the log as one line, whatever the topic or the payload it quotes holds: a line break, a
    /// control or a bidirectional character sent to the clock appears escaped (`OutsideText.escaped`, R40), so a
    /// message can never forge a line of the log.
    private func log(_ level: Logger.Level, _ line: String) {
        logger.log(level: level, "\(OutsideText.escaped(line, limit: HomeAssistantLink.maxLogLine))")
    }

    /// The longest line logged for a received message, in characters (its quotes are cut shorter).
    static let maxLogLine = 600

    private func setWarning(_ text: String?) async {
        guard text != warned else { return }
        warned = text
        if let text { logger.warning("\(text)") }
        _ = try? await clock.send(.warning(key: HomeAssistantLink.warningKey, text: text, announce: text != nil))
    }
}
