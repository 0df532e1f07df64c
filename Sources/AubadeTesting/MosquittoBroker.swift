import Foundation

/// A real Mosquitto broker on 127.0.0.1 (a free port), for tests: its config written into a temp folder, run as
/// `nobody` when the tests run as root, dying with the test process (`ChildProcess`). `stop()` and `start()` take
/// it away and bring it back on the same port; `publish` and `take` are the broker's own clients
/// (`mosquitto_pub`, `mosquitto_sub`), independent of the code under test.
public final class MosquittoBroker: Sendable {
    public let port: Int
    public let dir: TemporaryDirectory
    private let process = Locked<ChildProcess?>(nil)

    /// How long `start` waits for the broker to listen: generous, it only ends a test that is failing anyway.
    public static let startWatchdog: Duration = .seconds(60)

    /// `config`: more lines for mosquitto.conf (a password file, TLS). `persistent`: it keeps its retained messages
    /// across a graceful `stop` and `start` (in its folder).
    public init(config: String = "", persistent: Bool = false) async throws {
        dir = try TemporaryDirectory("mosquitto")
        chmod(dir.path, 0o777)
        port = IcecastServer.freePort()
        try """
        listener \(port) 127.0.0.1
        allow_anonymous true
        persistence \(persistent)
        persistence_location \(dir.path)/
        log_dest file \(dir.file("mosquitto.log"))
        log_type error
        log_type warning
        log_type notice
        log_type information
        \(config)
        """.write(toFile: dir.file("mosquitto.conf"), atomically: true, encoding: .utf8)
        chmod(dir.file("mosquitto.conf"), 0o644)
        try await start()
    }

    /// The broker's own log.
    public var log: String { (try? String(contentsOfFile: dir.file("mosquitto.log"), encoding: .utf8)) ?? "" }

    /// Starts the broker and waits until it says it listens.
    public func start() async throws {
        let before = log.components(separatedBy: "listen socket on port \(port)").count
        let child = try await ChildProcess("/usr/sbin/mosquitto", ["-c", dir.file("mosquitto.conf")], asNobody: true)
        process.withLock { $0 = child }
        let listening: Bool? = try await poll(MosquittoBroker.startWatchdog, every: .milliseconds(100)) {
            if log.components(separatedBy: "listen socket on port \(port)").count > before { return true }
            if let status = child.exitStatus { throw MediaError("mosquitto ended (status \(status)); its log: \(log)") }
            return nil
        }
        guard listening == nil else { return }
        throw MediaError("mosquitto did not listen on \(port) within \(MosquittoBroker.startWatchdog); its log: \(log)")
    }

    /// Stops the broker — SIGKILL, as a crash or a pulled plug; with `graceful`, SIGTERM (it saves what it retains
    /// first, when persistent) — and waits for it to end.
    public func stop(graceful: Bool = false) async {
        guard
            let child = process.withLock({ p -> ChildProcess? in
                defer { p = nil }
                return p
            })
        else { return }
        child.signal(graceful ? SIGTERM : SIGKILL)
        _ = await child.waitForExit()
    }

    /// Publishes `payload` on `topic` (retained when `retain`) as another client would.
    public func publish(_ topic: String, _ payload: String, retain: Bool = false) async throws {
        let r = try await ProcessRunner.run(
            "/usr/bin/mosquitto_pub",
            ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-t", topic, "-m", payload] + (retain ? ["-r"] : []))
        guard r.status == 0 else { throw MediaError("mosquitto_pub failed: \(r.stderr)") }
    }

    /// A client of the broker's own (`mosquitto_sub`) that prints every message on `topics` — what the broker
    /// retained first — as one JSON object a line: `topic`, `payload` (text), `retain` (0 or 1). Await a message
    /// with `EventProcess.wait(after:where:)`; `MosquittoBroker.message(_:_:)` matches one.
    public func watch(_ topics: [String]) async throws -> EventProcess {
        let watcher = try await EventProcess(
            "/usr/bin/mosquitto_sub",
            ["-h", "127.0.0.1", "-p", "\(port)", "-F", "%j"] + topics.flatMap { ["-t", $0] })
        return watcher
    }

    /// Matches a watched message on `topic` whose payload `payload` accepts.
    public static func message(_ topic: String, _ payload: @escaping @Sendable (String) -> Bool = { _ in true })
        -> @Sendable ([String: Any]) -> Bool
    {
        // An empty message (a retained one cleared) comes as `"payload": null`: it is the empty text here.
        { line in line["topic"] as? String == topic && payload(line["payload"] as? String ?? "") }
    }

    /// The first `count` messages on `topic` (retained ones included) as "topic payload" lines, waiting up to
    /// `timeout` seconds for them (a watchdog); fewer when it passed.
    public func take(_ topic: String, count: Int, timeout: Int = 60) async throws -> [String] {
        let r = try await ProcessRunner.run(
            "/usr/bin/mosquitto_sub",
            ["-h", "127.0.0.1", "-p", "\(port)", "-v", "-t", topic, "-C", "\(count)", "-W", "\(timeout)"])
        return r.stdout.split(separator: "\n").map(String.init)
    }
}
