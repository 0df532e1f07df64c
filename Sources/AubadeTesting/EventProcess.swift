import Foundation
import Synchronization

/// A long-running program that prints one JSON object per line on stdout (`aubade run --json`,
/// `aubade ring --json`): started at once, its lines collected on a background thread, awaited by event name.
/// Killed (SIGKILL) when the value goes away.
public final class EventProcess: Sendable {
    public let pid: Int32
    private let lines = Locked<[String]>([])
    private let stderrText = Locked<String>("")
    private let exited = Locked<Int32?>(nil)
    private let process: SendableProcess

    private final class SendableProcess: @unchecked Sendable {
        // @unchecked: Process is only touched at start and through its thread-safe wait/terminate.
        let process: Process
        init(_ p: Process) { process = p }
    }

    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        pid = process.processIdentifier
        self.process = SendableProcess(process)
        let reader = Thread { [lines] in
            var buffer = Data()
            while true {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    lines.withLock { $0.append(line) }
                }
            }
        }
        reader.start()
        let errReader = Thread { [stderrText] in
            while true {
                let chunk = err.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                stderrText.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }
        errReader.start()
        let waiter = Thread { [exited, process] in
            process.waitUntilExit()
            exited.withLock { $0 = process.terminationStatus }
        }
        waiter.start()
    }

    deinit { kill(pid, SIGKILL) }

    /// Every line so far.
    public var output: [String] { lines.withLock { $0 } }
    public var errorOutput: String { stderrText.withLock { $0 } }
    /// The exit status once the program ended.
    public var exitStatus: Int32? { exited.withLock { $0 } }

    /// The events so far, parsed (lines that are not JSON objects are skipped).
    public var events: [[String: Any]] {
        output.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// Waits until an event named `name` (matching `where`) appears, or `timeout` passes; returns it.
    public func wait(for name: String, timeout: Duration = .seconds(20),
                     where match: ([String: Any]) -> Bool = { _ in true }) async -> [String: Any]? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let e = events.first(where: { $0["event"] as? String == name && match($0) }) { return e }
            if exitStatus != nil {
                return events.first(where: { $0["event"] as? String == name && match($0) })
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Waits for the program to end (up to `timeout`); its status, or nil if it is still running.
    public func waitForExit(timeout: Duration = .seconds(10)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = exitStatus { return status }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return exitStatus
    }

    public func signal(_ sig: Int32) { kill(pid, sig) }
}

/// A value shared between threads behind a `Mutex`, in a class so closures can capture it.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<T>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}
