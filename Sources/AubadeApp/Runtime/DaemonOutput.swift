public import Foundation
import Logging

/// Where the daemon tells what it does, besides the event history: with `--json` one object per line on
/// stdout (`{"t": <unix seconds>, "event": "...", ...}`, the CLI's event-stream format), otherwise a line for
/// humans (and journald). Thread-safe: a line is written with one `write`.
public struct DaemonOutput: Sendable {
    public let json: Bool
    private let wall: @Sendable () -> Date
    private let write: @Sendable (String) -> Void

    /// Output in JSON or text; `wall` stamps each line (the daemon's wall clock, so `--fake-time` shows).
    /// Lines go to standard output, or to `write` (tests collect them).
    public init(json: Bool, wall: @escaping @Sendable () -> Date, write: (@Sendable (String) -> Void)? = nil) {
        self.json = json
        self.wall = wall
        self.write = write ?? DaemonOutput.standardOutput
    }

    /// Writes a line with one `write(2)`, so lines from several threads never interleave.
    static let standardOutput: @Sendable (String) -> Void = { line in
        _ = line.utf8CString.withUnsafeBufferPointer { buffer in
            Glibc.write(1, buffer.baseAddress, buffer.count - 1)
        }
    }

    /// Prints one event with its fields (String, Int, Int64, Double, Bool values; nil fields are left out).
    public func emit(_ event: String, _ fields: KeyValuePairs<String, (any Sendable)?> = [:]) {
        emit(event, pairs: fields.map { ($0.key, $0.value) })
    }

    /// As `emit(_:_:)`, with the fields as a list (made at run time).
    public func emit(_ event: String, pairs fields: [(key: String, value: (any Sendable)?)]) {
        let now = wall()
        var line: String
        if json {
            var object: [String: Any] = ["t": (now.timeIntervalSince1970 * 1000).rounded() / 1000, "event": event]
            for (key, value) in fields {
                if let value { object[key] = value }
            }
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
                let text = String(data: data, encoding: .utf8)
            else { return }
            line = text
        } else {
            let stamp = now.formatted(.iso8601.time(includingFractionalSeconds: false))
            line = "\(stamp) \(event)"
            for (key, value) in fields {
                if let value { line += " \(key)=\(value)" }
            }
        }
        line += "\n"
        write(line)
    }
}
