import AubadeTesting
import Foundation
import Glibc

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to a running `aubade run --http` as a phone or a script would: plain HTTP requests on 127.0.0.1, and
/// an event-stream reader on a raw socket (read on a thread of its own, `onThread`).
struct HTTPClient {
    let port: Int

    struct Reply {
        let status: Int
        let object: [String: Any]
        let text: String
    }

    func send(_ method: String, _ path: String, token: String? = nil, json: String? = nil) async throws -> Reply {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.timeoutInterval = 60
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return Reply(
            status: (response as? HTTPURLResponse)?.statusCode ?? 0, object: object,
            text: String(decoding: data, as: UTF8.self))
    }

    /// Opens `/api/v1/events` and reads until `until` holds for the text received so far, the server closes, or
    /// `seconds` pass; returns the text.
    func events(for seconds: Int, until done: @escaping @Sendable (String) -> Bool) async -> String {
        let port = self.port
        return await onThread("sse-reader") { () -> String in
            guard let socket = try? RawSocket(port: port) else { return "" }
            socket.readTimeout(1)
            socket.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n")
            var received = Data()
            let deadline = Date().addingTimeInterval(TimeInterval(seconds))
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                let n = recv(socket.fd, &buffer, buffer.count, 0)
                if n == 0 { break }
                if n > 0 {
                    received.append(contentsOf: buffer[0..<n])
                    if done(String(decoding: received, as: UTF8.self)) { break }
                }
            }
            return String(decoding: received, as: UTF8.self)
        }
    }
}
