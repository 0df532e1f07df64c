import Foundation

/// The local control socket's messages: one JSON request line, one JSON reply line. The CLI (`aubade
/// sleep`, `status`, `stop`, `snooze`, and every command that changes the database — "reload") talks to a
/// running daemon through it. The socket lives next to the database (`<db>.sock`, mode 0600).
public enum ControlProtocol {
    public struct Request: Codable, Sendable {
        public var command: String
        public var seconds: Int?
        public var source: String?
        public var alarm: Int64?

        public init(command: String, seconds: Int? = nil, source: String? = nil, alarm: Int64? = nil) {
            self.command = command
            self.seconds = seconds
            self.source = source
            self.alarm = alarm
        }
    }

    public struct Reply: Codable, Sendable {
        public var ok: Bool
        public var message: String?
        public var status: DaemonStatus?

        public init(ok: Bool, message: String? = nil, status: DaemonStatus? = nil) {
            self.ok = ok
            self.message = message
            self.status = status
        }
    }

    /// The socket of the daemon running on `databasePath`.
    public static func socketPath(forDatabase databasePath: String) -> String {
        databasePath + ".sock"
    }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .secondsSince1970
        e.outputFormatting = [.sortedKeys]
        return e
    }()

    static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .secondsSince1970
        return d
    }()
}

/// The CLI side of the control socket.
public enum ControlClient {
    public enum Failure: Error, CustomStringConvertible {
        /// Nobody listens: the daemon is not running on this database.
        case notRunning(String)
        case failed(String)

        public var description: String {
            switch self {
            case .notRunning(let path): "The clock is not running on this database (no daemon at \(path)); start it with 'aubade run'."
            case .failed(let why): "The running clock did not answer: \(why)"
            }
        }
    }

    /// Sends `request` to the daemon of `databasePath` and returns its reply.
    public static func send(_ request: ControlProtocol.Request, databasePath: String, timeout: Int = 10) throws(Failure) -> ControlProtocol.Reply {
        let path = ControlProtocol.socketPath(forDatabase: databasePath)
        let fd: Int32
        do throws(UnixSocket.Failure) { fd = try UnixSocket.connect(path, timeout: timeout) } catch {
            throw .notRunning(path)
        }
        defer { close(fd) }
        guard let body = try? ControlProtocol.encoder.encode(request),
              UnixSocket.send(fd, String(decoding: body, as: UTF8.self) + "\n") else {
            throw .failed("the request could not be sent.")
        }
        guard let line = UnixSocket.readLine(fd),
              let reply = try? ControlProtocol.decoder.decode(ControlProtocol.Reply.self, from: Data(line.utf8)) else {
            throw .failed("no reply within \(timeout) s.")
        }
        return reply
    }

    /// Tells a running daemon that the database changed; does nothing when none runs.
    public static func notifyChanged(databasePath: String) {
        _ = try? send(ControlProtocol.Request(command: "reload"), databasePath: databasePath, timeout: 3)
    }
}
