import AubadeTesting
import Foundation
import Glibc

/// Reads a server-sent event stream as a browser would, on a `RawSocket` to 127.0.0.1 (the test client collects a
/// response only once it ends, and an event stream does not end): sends one GET, reads on a thread of its own
/// (`onThread`) until the first complete event has arrived, then closes the connection.
enum EventStreamReader {
    /// What came back: the response head and the first event ("event: …\ndata: …").
    struct FirstEvent {
        let head: String
        let event: String
    }

    /// Opens `path` on `port` with `headers` and returns the head and the first event, or nil when the server
    /// closed or `watchdog` passed first (a watchdog only: a healthy stream sends its first event at once).
    static func firstEvent(port: Int, path: String, headers: [String: String], watchdog: TimeInterval = 60) async -> FirstEvent? {
        await onThread("sse-first-event") { () -> FirstEvent? in
            guard let socket = try? RawSocket(port: port) else { return nil }
            socket.readTimeout(1)
            var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
            for (name, value) in headers { request += "\(name): \(value)\r\n" }
            socket.send(request + "\r\n")
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = Date().addingTimeInterval(watchdog)
            while Date() < deadline {
                let n = recv(socket.fd, &buffer, buffer.count, 0)
                if n == 0 { return nil }
                guard n > 0 else { continue }
                received.append(contentsOf: buffer[0..<n])
                let text = String(decoding: received, as: UTF8.self)
                guard let headEnd = text.range(of: "\r\n\r\n") else { continue }
                let body = text[headEnd.upperBound...]
                // The body is chunked: each chunk's size line comes before the event's text.
                guard let start = body.range(of: "event: "), let end = body[start.lowerBound...].range(of: "\n\n") else {
                    continue
                }
                return FirstEvent(
                    head: String(text[..<headEnd.lowerBound]), event: String(body[start.lowerBound..<end.lowerBound]))
            }
            return nil
        }
    }
}
