import AubadeSystem
import CMosquitto
import Foundation
import Synchronization

/// Where and how to reach a broker.
public struct MQTTOptions: Sendable, Hashable {
    public var host: String
    public var port: Int
    /// TLS (`mqtts://`), with `caFile` as the trusted authority when given (else the system's).
    public var tls: Bool
    public var caFile: String?
    public var username: String?
    public var password: String?
    public var clientID: String
    /// The last will: published by the broker, retained, when this client goes without saying goodbye.
    public var will: Will?
    /// Seconds between keep-alive pings when nothing else is sent: the only wake-ups of an idle connection (a
    /// ping and its answer), and how long a connection that went silent takes to be noticed (1.5 times it).
    public var keepAlive: Int32 = 300
    /// The largest message taken: MQTT 5 brokers are told (Maximum Packet Size) and send nothing larger; a larger
    /// one from a 3.1.1 broker is dropped before it is copied (`MQTTEvent.oversized`).
    public var maxMessageBytes: Int = 65_536

    public struct Will: Sendable, Hashable {
        public var topic: String
        public var payload: String

        public init(topic: String, payload: String) {
            self.topic = topic
            self.payload = payload
        }
    }

    public init(host: String, port: Int, tls: Bool = false, clientID: String) {
        self.host = host
        self.port = port
        self.tls = tls
        self.clientID = clientID
    }
}

/// What the connection tells its owner, on the connection's own thread.
public enum MQTTEvent: Sendable, Equatable {
    /// Connected (again); `version5` when the broker speaks MQTT 5. Subscriptions must be made anew.
    case connected(version5: Bool)
    /// The broker refused the connection (bad credentials, not authorised…): one sentence.
    case refused(String)
    /// The connection was lost (nil: closed by us); it is tried again with a growing delay (1 s to 60 s).
    case disconnected(String?)
    /// A message on a subscribed topic; `retained` when the broker sent it from its store, not as it was published.
    case message(topic: String, payload: [UInt8], retained: Bool)
    /// A message larger than `MQTTOptions.maxMessageBytes` was dropped unread.
    case oversized(topic: String, bytes: Int)
}

/// A failure to set a connection up: one sentence.
public struct MQTTError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// One MQTT client connection through libmosquitto (the one owning wrapper of its handle). Its network loop runs
/// on a thread of its own ("aubade-mqtt"), which connects, reconnects with an exponential delay from 1 s to 60 s,
/// keeps the connection alive and delivers `MQTTEvent`s. It sleeps in `mosquitto_loop` until the socket has
/// something, a packet is queued, or the keep-alive is due — not once a second as `mosquitto_loop_start`'s loop
/// does — so an idle connection wakes the machine only for its keep-alive. Nothing the broker does — down, slow,
/// refusing, or silent after accepting TCP — ever blocks a caller: `publish` and `subscribe` hand the packet to
/// libmosquitto's queue and return (false when not connected: a message is never queued for later — the owner
/// keeps the newest state per topic and publishes it on connecting). MQTT 5 first, 3.1.1 when the broker refuses
/// 5.
public final class MQTTConnection: @unchecked Sendable {
    // @unchecked: `handle` is libmosquitto's; told that another thread runs its loop (`mosquitto_threaded_set`),
    // its calls are safe from any thread (it locks inside, and wakes the loop through its socket pair); the Swift
    // state is in `state`, under `condition`'s mutex.
    private let handle: OpaquePointer
    private let onEvent: @Sendable (MQTTEvent) -> Void
    private let options: MQTTOptions
    private struct State {
        var version5 = true
        var connected = false
        var started = false
        var stopped = false
        /// The broker refused MQTT 5 and the next attempt speaks 3.1.1: the disconnect that follows is not news.
        var fallingBack = false
    }
    private let state = Mutex(State())
    /// What the network thread's waits (between attempts) and `stop`'s wait for its end sleep on.
    private let condition = MonotonicCondition()
    /// The network thread has returned (under `condition`'s mutex).
    private var loopEnded = false

    private static let library: Void = { _ = mosquitto_lib_init() }()

    /// A connection to the broker of `options`, not yet started. `onEvent` is called on the connection's thread.
    public init(_ options: MQTTOptions, onEvent: @escaping @Sendable (MQTTEvent) -> Void) throws(MQTTError) {
        MQTTConnection.library
        self.options = options
        self.onEvent = onEvent
        guard let handle = mosquitto_new(options.clientID, true, nil) else {
            throw MQTTError(description: "libmosquitto could not make a client (\(String(cString: strerror(errno)))).")
        }
        self.handle = handle
        // Every stored property is set: if `configure` throws, `deinit` runs and destroys the handle (once).
        try configure()
    }

    /// The network thread holds the connection until it ends (after `stop`), so this runs only when it has.
    deinit {
        mosquitto_destroy(handle)
    }

    /// The options, and the callbacks: C function pointers cannot capture, so libmosquitto hands this connection
    /// back to them as its user data (unretained: the connection outlives its thread, which `deinit` ends).
    private func configure() throws(MQTTError) {
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        _ = mosquitto_threaded_set(handle, true)
        _ = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5)
        if let username = options.username {
            try check(mosquitto_username_pw_set(handle, username, options.password), "set the user name")
        }
        if options.tls {
            try check(
                mosquitto_tls_set(handle, options.caFile, options.caFile == nil ? "/etc/ssl/certs" : nil, nil, nil, nil),
                "set up TLS")
        }
        if let will = options.will {
            let bytes = Array(will.payload.utf8)
            try check(mosquitto_will_set(handle, will.topic, Int32(bytes.count), bytes, 1, true), "set the last will")
        }
        mosquitto_connect_v5_callback_set(handle) { _, obj, rc, _, _ in
            MQTTConnection.from(obj)?.connectAnswered(rc)
        }
        mosquitto_disconnect_v5_callback_set(handle) { _, obj, rc, _ in
            MQTTConnection.from(obj)?.lost(rc)
        }
        mosquitto_message_v5_callback_set(handle) { _, obj, message, _ in
            guard let connection = MQTTConnection.from(obj), let message = message?.pointee, let topic = message.topic else {
                return
            }
            let count = Int(message.payloadlen)
            guard count <= connection.options.maxMessageBytes else {
                connection.onEvent(.oversized(topic: String(cString: topic), bytes: count))
                return
            }
            let payload: [UInt8] =
                count > 0 && message.payload != nil
                ? Array(UnsafeRawBufferPointer(start: message.payload, count: count)) : []
            connection.onEvent(.message(topic: String(cString: topic), payload: payload, retained: message.retain))
        }
    }

    private static func from(_ obj: UnsafeMutableRawPointer?) -> MQTTConnection? {
        obj.map { Unmanaged<MQTTConnection>.fromOpaque($0).takeUnretainedValue() }
    }

    private func check(_ rc: Int32, _ what: String) throws(MQTTError) {
        guard rc != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw MQTTError(description: "libmosquitto could not \(what): \(String(cString: mosquitto_strerror(rc))).")
    }

    /// Starts connecting, on the connection's thread; returns at once. A broker that cannot be reached now is
    /// tried again and again (reported as `disconnected`). The thread keeps the connection until `stop`.
    public func start() throws(MQTTError) {
        let first = state.withLock { s -> Bool in
            defer { s.started = true }
            return !s.started && !s.stopped
        }
        guard first else { return }
        let started = NamedThread.start("aubade-mqtt") { [self] in
            networkLoop()
            condition.locked {
                loopEnded = true
                condition.broadcast()
            }
        }
        guard started else {
            state.withLock { $0.started = false }
            throw MQTTError(description: "The MQTT connection's thread could not be started.")
        }
    }

    /// How long `stop` waits for the network thread to say goodbye and end.
    static let stopWait: Duration = .seconds(2)

    /// Says goodbye (no last will) and ends the connection's thread, waiting for it at most `stopWait` (a thread
    /// stuck in a connection attempt is left to end by itself). Idempotent.
    public func stop() {
        let running = state.withLock { s -> Bool in
            defer { s.stopped = true }
            return s.started && !s.stopped
        }
        guard running else { return }
        _ = mosquitto_disconnect(handle)  // queues the DISCONNECT after what is queued, and wakes the loop
        condition.locked {
            condition.broadcast()
            condition.wait(while: { !loopEnded }, atMost: MQTTConnection.stopWait)
        }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    /// The network thread: connect, then `mosquitto_loop` until the connection fails; then wait (1 s, doubling to
    /// 60 s; back to 1 s once connected) and reconnect — until `stop`.
    private func networkLoop() {
        var delay = 1
        var upSince: ContinuousClock.Instant?
        var rc = connect()
        while !stopped {
            if rc == MOSQ_ERR_SUCCESS.rawValue {
                // Sleeps until traffic, a queued packet or the keep-alive (libmosquitto shortens the wait to it).
                rc = mosquitto_loop(handle, options.keepAlive * 1000, 1)
                if rc == MOSQ_ERR_SUCCESS.rawValue {
                    if upSince == nil, isConnected { upSince = .now }
                    continue
                }
                if rc == MOSQ_ERR_ERRNO.rawValue && errno == EINTR {
                    rc = MOSQ_ERR_SUCCESS.rawValue
                    continue
                }
                if stopped { break }
                // Every failure of the connection is told by libmosquitto's disconnect callback (`lost`), but for
                // a loop that finds no connection at all.
                if rc == MOSQ_ERR_NO_CONN.rawValue { onEvent(.disconnected(String(cString: mosquitto_strerror(rc)))) }
            } else {
                // The connection could not even be opened (nothing listens, no route, name unknown).
                let reason =
                    rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(rc))
                onEvent(.disconnected(reason))
            }
            state.withLock { $0.connected = false }
            // The delay starts again at 1 s only after a connection that lasted: a broker that takes the clock and
            // drops it at once (another client with its id) is not hammered every second.
            if let up = upSince, ContinuousClock.now - up >= .seconds(60) { delay = 1 }
            upSince = nil
            let wait = Duration.seconds(delay)
            delay = min(delay * 2, 60)
            let stopping = condition.locked { () -> Bool in
                condition.wait(while: { !stopped }, atMost: wait)
                return stopped
            }
            if stopping { break }
            rc = mosquitto_reconnect(handle)
        }
    }

    /// Opens the connection: MQTT 5 with its Maximum Packet Size, so the broker sends nothing larger (3.1.1
    /// ignores the property). Blocks this thread only (name lookup, TCP).
    private func connect() -> Int32 {
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        _ = mosquitto_property_add_int32(
            &properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), UInt32(options.maxMessageBytes))
        return mosquitto_connect_bind_v5(handle, options.host, Int32(options.port), options.keepAlive, nil, properties)
    }

    /// Whether the connection is up now.
    public var isConnected: Bool { state.withLock { $0.connected } }

    /// Hands a message to libmosquitto — at QoS 1 (acknowledged by the broker, and sent again after a reconnect
    /// until it is) or QoS 0 (once: for what must not arrive late); false when not connected or refused — never
    /// queued for later.
    @discardableResult
    public func publish(_ topic: String, _ payload: String, retain: Bool, qos: Int32 = 1) -> Bool {
        guard isConnected else { return false }
        let bytes = Array(payload.utf8)
        return mosquitto_publish_v5(handle, nil, topic, Int32(bytes.count), bytes, qos, retain, nil)
            == MOSQ_ERR_SUCCESS.rawValue
    }

    /// Subscribes to `topic` so that the broker never sends what it retained (MQTT 5's "send retain never"); on
    /// 3.1.1 a retained message still comes, marked `retained`, for the owner to ignore. With `retained`, what
    /// the broker holds is sent too (to read a state back).
    @discardableResult
    public func subscribe(_ topic: String, retained: Bool = false) -> Bool {
        let version5 = state.withLock { $0.version5 }
        let options = version5 && !retained ? Int32(MQTT_SUB_OPT_SEND_RETAIN_NEVER.rawValue) : 0
        return mosquitto_subscribe_v5(handle, nil, topic, 1, options, nil) == MOSQ_ERR_SUCCESS.rawValue
    }

    private func connectAnswered(_ rc: Int32) {
        if rc == 0 {
            let version5 = state.withLock { s -> Bool in
                s.connected = true
                return s.version5
            }
            onEvent(.connected(version5: version5))
            return
        }
        if rc == Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue) || rc == 1 {
            // A broker without MQTT 5 (3.1.1's "unacceptable protocol version" is 1): the next attempt speaks 3.1.1.
            let switched = state.withLock { s -> Bool in
                defer { s.version5 = false }
                if s.version5 { s.fallingBack = true }
                return s.version5
            }
            if switched {
                _ = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
                return
            }
        }
        let version5 = state.withLock { $0.version5 }
        let why = String(cString: version5 ? mosquitto_reason_string(rc) : mosquitto_connack_string(rc))
        onEvent(.refused("The MQTT broker \(options.host):\(options.port) refused the connection: \(why)."))
    }

    private func lost(_ rc: Int32) {
        let fallingBack = state.withLock { s -> Bool in
            s.connected = false
            defer { s.fallingBack = false }
            return s.fallingBack
        }
        if fallingBack { return }
        onEvent(.disconnected(rc == 0 ? nil : String(cString: mosquitto_strerror(rc))))
    }
}
