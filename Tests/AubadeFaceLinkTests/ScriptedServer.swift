import AubadeSystem
import Glibc
import Synchronization

/// A request as a `ScriptedServer` read it.
struct SeenRequest: Sendable {
    var method: String
    var path: String
    /// Header names lowercased.
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A tiny HTTP server on 127.0.0.1 for the tests, in this process: each connection is handed, on a thread of its
/// own, to `script`, which reads the request and writes whatever bytes the test wants. Every request read is kept,
/// in order. `stop()` (or the end of the value) closes the listening socket and wakes scripts that hold a stream
/// open (`Connection.hold`).
final class ScriptedServer: Sendable {
    let port: Int
    private let listener: Int32
    private let seen = Mutex<[SeenRequest]>([])
    let finished = StopSignal()
    private let connections = Mutex<Int>(0)

    init(_ script: @escaping @Sendable (Connection, ScriptedServer) -> Void) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Errno.current }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw Errno.current
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        NamedThread.start("test-accept") { [self] in acceptLoop(script) }
    }

    deinit {
        stop()
        close(listener)
    }

    /// Requests read so far, in order.
    var requests: [SeenRequest] { seen.withLock { $0 } }

    /// How many connections were accepted so far.
    var connectionCount: Int { connections.withLock { $0 } }

    func stop() {
        finished.stop()
        shutdown(listener, Int32(SHUT_RDWR))
    }

    func record(_ request: SeenRequest) {
        seen.withLock { $0.append(request) }
    }

    private func acceptLoop(_ script: @escaping @Sendable (Connection, ScriptedServer) -> Void) {
        while !finished.isStopped {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            let number = connections.withLock { n in
                n += 1
                return n
            }
            NamedThread.start("test-conn") { [self] in
                let connection = Connection(fd: fd, server: self, number: number)
                script(connection, self)
                connection.close()
            }
        }
    }
}

/// One accepted connection, used by its script's thread only.
final class Connection {
    let fd: Int32
    let server: ScriptedServer
    /// 1 for the server's first connection, and so on.
    let number: Int
    private var buffer: [UInt8] = []
    private var closed = false

    init(fd: Int32, server: ScriptedServer, number: Int) {
        self.fd = fd
        self.server = server
        self.number = number
    }

    /// Reads one request (head and Content-Length body) and records it; nil when the client closed first.
    func readRequest() -> SeenRequest? {
        var end: Int?
        while true {
            end = find([13, 10, 13, 10])
            if end != nil { break }
            guard receive() else { return nil }
        }
        guard let end else { return nil }
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let first = lines[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            headers[line[..<colon].lowercased()] = String(value)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length {
            guard receive() else { return nil }
        }
        let body = Array(buffer.prefix(length))
        buffer.removeFirst(length)
        let request = SeenRequest(
            method: first.count > 0 ? String(first[0]) : "", path: first.count > 1 ? String(first[1]) : "",
            headers: headers, body: body)
        server.record(request)
        return request
    }

    /// Writes `bytes` (false when the client has gone).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + done, $0.count - done, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    @discardableResult
    func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// A whole response with a Content-Length body.
    func respond(_ status: Int, _ body: String, reason: String = "OK") {
        write(
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
    }

    /// Keeps the connection open until the server stops or the client goes away (or `limit`, a watchdog far past any
    /// test's length, passes: a fresh clone's suite stalled one test past an earlier 60 s, and the closed stream
    /// looked like an outage).
    func hold(upTo limit: Duration = .seconds(600)) {
        let deadline = Monotonic.now() + limit
        while !server.finished.isStopped, Monotonic.now() < deadline {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, 50) > 0 {
                var byte: UInt8 = 0
                if recv(fd, &byte, 1, Int32(MSG_PEEK)) <= 0 { return }
                // The client sent more (it should not): drop it.
                _ = recv(fd, &byte, 1, 0)
            }
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for i in 0...(buffer.count - pattern.count) where buffer[i..<i + pattern.count].elementsEqual(pattern) { return i }
        return nil
    }

    private func receive() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            buffer += chunk[0..<n]
            return true
        }
    }
}

/// Values gathered from the link's threads, waited for by the test on a thread of its own.
final class Gathered<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    private let changed = ChangeCount()

    func add(_ value: Value) {
        values.withLock { $0.append(value) }
        changed.bump()
    }

    var all: [Value] { values.withLock { $0 } }

    /// Waits (blocking) until `done` holds for the values, or `limit` passed (a watchdog); the values then.
    func wait(upTo limit: Duration = .seconds(300), until done: ([Value]) -> Bool) -> [Value] {
        let deadline = Monotonic.now() + limit
        while true {
            let generation = changed.generation
            let now = all
            if done(now) || Monotonic.now() >= deadline { return now }
            changed.wait(past: generation, upTo: deadline - Monotonic.now())
        }
    }
}

/// A counter of changes that threads may wait on.
final class ChangeCount: @unchecked Sendable {
    // @unchecked: `count` is read and written only while `condition`'s mutex is held.
    private let condition = MonotonicCondition()
    private var count = 0

    func bump() {
        condition.locked {
            count += 1
            condition.broadcast()
        }
    }

    var generation: Int { condition.locked { count } }

    func wait(past generation: Int, upTo limit: Duration) {
        condition.locked { condition.wait(while: { count == generation }, atMost: max(limit, .milliseconds(1))) }
    }
}

/// Waits (blocking, checking every 10 ms) until `condition` holds or `limit` passed (a watchdog); whether it held.
@discardableResult
func eventually(upTo limit: Duration = .seconds(300), _ condition: () -> Bool) -> Bool {
    let deadline = Monotonic.now() + limit
    while !condition() {
        if Monotonic.now() >= deadline { return false }
        usleep(10_000)
    }
    return true
}
