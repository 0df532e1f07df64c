public import AubadeCore
import Foundation

/// The local control socket's messages, one JSON object per line: a `Request` (a `ClockCommand`), then a
/// `Reply`; with `follow`, for a command that starts a sound, then one `Reply` with `event` per sound event
/// until the sound stops, and the connection closes. The CLI talks to a running daemon through it; the socket
/// lives next to the database (`<db>.sock`, mode 0600).
public enum ControlProtocol {
    public struct Request: Codable, Sendable {
        public var command: ClockCommand
        public var follow: Bool?

        public init(_ command: ClockCommand, follow: Bool = false) {
            self.command = command
            self.follow = follow ? true : nil
        }
    }

    public struct Reply: Codable, Sendable {
        public var reply: ClockReply?
        public var error: ClockError?
        public var event: SoundEvent?

        public init(reply: ClockReply? = nil, error: ClockError? = nil, event: SoundEvent? = nil) {
            self.reply = reply
            self.error = error
            self.event = event
        }
    }

    /// The socket of the daemon running on `databasePath`.
    public static func socketPath(forDatabase databasePath: String) -> String {
        databasePath + ".sock"
    }

    /// The longest request line accepted.
    static let maxLine = 64 * 1024

    /// `value` in the documents' JSON form (`DocumentJSON`), as one line's text.
    static func encode<T: Encodable>(_ value: T) -> String {
        String(decoding: DocumentJSON.data(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ line: String) -> T? {
        try? DocumentJSON.decoder().decode(type, from: Data(line.utf8))
    }
}

/// The CLI side of the control socket (a short-lived process: plain blocking calls).
public enum ControlClient {
    public enum Failure: Error, CustomStringConvertible {
        /// Nobody listens: the daemon is not running on this database.
        case notRunning(String)
        case failed(String)

        public var description: String {
            switch self {
            case .notRunning(let path):
                "The clock is not running on this database (no daemon at \(path)); start it with 'aubade run'."
            case .failed(let why): "The running clock did not answer: \(why)"
            }
        }
    }

    /// A connection that sent a request.
    public final class Exchange: Sendable {
        private let fd: Int32
        public let path: String

        init(fd: Int32, path: String) {
            self.fd = fd
            self.path = path
        }

        deinit { close(fd) }

        /// The next line from the daemon (nil when it closed the connection).
        public func next() -> ControlProtocol.Reply? {
            guard let line = UnixSocket.readLine(fd) else { return nil }
            return ControlProtocol.decode(ControlProtocol.Reply.self, line)
        }

        /// Waits for lines without a time limit (a followed sound may run for an hour).
        public func waitForever() { UnixSocket.clearTimeout(fd) }
    }

    /// Sends `request` to the daemon of `databasePath`; read the reply (and events) from the exchange.
    public static func open(_ request: ControlProtocol.Request, databasePath: String, timeout: Int = 10) throws(Failure)
        -> Exchange
    {
        let path = ControlProtocol.socketPath(forDatabase: databasePath)
        let fd: Int32
        do throws(UnixSocket.Failure) { fd = try UnixSocket.connect(path, timeout: timeout) } catch {
            throw .notRunning(path)
        }
        let exchange = Exchange(fd: fd, path: path)
        guard UnixSocket.send(fd, ControlProtocol.encode(request) + "\n") else {
            throw .failed("the request could not be sent.")
        }
        return exchange
    }

    /// Sends `command` and returns the clock's reply, or its refusal as `ClockError`.
    public static func send(_ command: ClockCommand, databasePath: String, timeout: Int = 10) throws(Failure)
        -> Result<ClockReply, ClockError>
    {
        let exchange = try open(ControlProtocol.Request(command), databasePath: databasePath, timeout: timeout)
        guard let line = exchange.next() else { throw .failed("no reply within \(timeout) s.") }
        if let reply = line.reply { return .success(reply) }
        return .failure(line.error ?? ClockError(.failed, "The clock gave no reply."))
    }

    /// Tells a running daemon that the database changed; does nothing when none runs.
    public static func notifyChanged(databasePath: String) {
        _ = try? send(.reload, databasePath: databasePath, timeout: 3)
    }
}
