import Foundation
import Synchronization

/// A long-running program that prints one JSON object per line on stdout (`aubade run --json`,
/// `aubade ring --json`): started at once (`ChildProcess`), its lines collected on background threads, awaited
/// by event name. Waiting never polls and never blocks the cooperative pool: the reader thread wakes the
/// waiters when a line arrives or the program ends. Killed (SIGKILL) when the value goes away.
public final class EventProcess: Sendable {
    public let pid: Int32
    private let child: ChildProcess
    private let lines = Locked<[String]>([])
    private let stderrText = Locked<String>("")
    /// Set when stdout reached its end: no more lines will come.
    private let outputEnded = Locked<Bool>(false)
    private let changes = ChangeSignal()

    /// How long `wait(for:)` and `waitForExit()` wait unless told otherwise: long enough for a loaded
    /// two-core machine, as it only ends a test that is already failing.
    public static let watchdog: Duration = .seconds(90)

    /// A daemon (`aubade run`) started here never listens on the config's HTTP port — 8080 by default, where a
    /// developer's `make run` may be, and tests run side by side: `--http off` is added unless the test gives
    /// its own `--http`. `environment` as for `ChildProcess` (a private runtime folder unless it names one).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws {
        let isDaemon = arguments.first == "run" && !arguments.contains("--check-config")
        let arguments = isDaemon && !arguments.contains("--http") ? arguments + ["--http", "off"] : arguments
        child = try await ChildProcess(executable, arguments, environment: environment, stdout: .pipe, stderr: .pipe)
        pid = child.pid
        guard let out = child.stdout, let err = child.stderr else { throw MediaError("\(executable): no pipes for its output.") }
        let reader = Thread { [lines, outputEnded, changes] in
            var buffer = Data()
            while true {
                let chunk = out.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                var added = false
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    lines.withLock { $0.append(line) }
                    added = true
                }
                if added { changes.bump() }
            }
            outputEnded.withLock { $0 = true }
            changes.bump()
        }
        reader.name = "aubade-test-stdout"
        reader.start()
        let errors = Thread { [stderrText, changes] in
            while true {
                let chunk = err.availableData
                if chunk.isEmpty { break }
                stderrText.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
                changes.bump()
            }
        }
        errors.name = "aubade-test-stderr"
        errors.start()
    }

    /// Every line so far.
    public var output: [String] { lines.withLock { $0 } }
    public var errorOutput: String { stderrText.withLock { $0 } }
    /// The exit status once the program ended: its exit code, or the signal that ended it.
    public var exitStatus: Int32? { child.exitStatus }

    /// The events so far, in the order printed (lines that are not JSON objects are skipped).
    public var events: [[String: Any]] {
        output.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// Where the first event named `name` (matching `where`) stands among `events`, if it was printed yet:
    /// for asserting the order in which things happened.
    public func position(of name: String, where match: ([String: Any]) -> Bool = { _ in true }) -> Int? {
        events.firstIndex { $0["event"] as? String == name && match($0) }
    }

    /// Waits until an event named `name` (matching `where`) has been printed and returns it — the first such
    /// event, even one printed before the call. Nil when the program ended without printing it, or when
    /// `timeout` passed first (a watchdog: the default is generous; a short one only suits checking that
    /// something does *not* happen).
    public func wait(
        for name: String, timeout: Duration = EventProcess.watchdog,
        where match: ([String: Any]) -> Bool = { _ in true }
    ) async -> [String: Any]? {
        await wait(after: 0, timeout: timeout) { $0["event"] as? String == name && match($0) }
    }

    /// Waits until `count` lines named `name` came and returns the first `count` of them, in order; nil as for
    /// `wait(for:)`.
    public func wait(for name: String, count: Int, timeout: Duration = EventProcess.watchdog) async -> [[String: Any]]? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let seen = changes.generation
            let ended = outputEnded.withLock { $0 }
            let matches = events.filter { $0["event"] as? String == name }
            if matches.count >= count { return Array(matches.prefix(count)) }
            if ended || ContinuousClock.now >= deadline || Task.isCancelled { return nil }
            await changes.wait(past: seen, until: deadline)
        }
    }

    /// Waits until a line at or after position `after` among `events` matches `match` (of any name) and returns
    /// it; nil as for `wait(for:)`.
    public func wait(
        after: Int, timeout: Duration = EventProcess.watchdog, where match: ([String: Any]) -> Bool
    ) async -> [String: Any]? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let seen = changes.generation
            let ended = outputEnded.withLock { $0 }  // read first: every line came before the end was set
            if let e = events.dropFirst(after).first(where: match) { return e }
            if ended || ContinuousClock.now >= deadline || Task.isCancelled { return nil }
            await changes.wait(past: seen, until: deadline)
        }
    }

    /// Waits until the program's stderr contains `text` (false when it ended without, or after `timeout`).
    public func waitForError(containing text: String, timeout: Duration = EventProcess.watchdog) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let seen = changes.generation
            let ended = outputEnded.withLock { $0 }
            if errorOutput.contains(text) { return true }
            if ended || ContinuousClock.now >= deadline || Task.isCancelled { return false }
            await changes.wait(past: seen, until: deadline)
        }
    }

    /// Waits for the program to end; its status, or nil if it is still running after `timeout`.
    public func waitForExit(timeout: Duration = EventProcess.watchdog) async -> Int32? {
        await child.waitForExit(timeout: timeout)
    }

    public func signal(_ sig: Int32) { child.signal(sig) }
}

/// A value shared between threads behind a `Mutex`, in a class so closures can capture it.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<T>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}
