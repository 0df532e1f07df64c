public import Foundation
import Synchronization

/// Runs a program to completion and captures what it printed. For tests that drive the built `aubade`
/// binary the way a user or a script does.
public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

public enum ProcessRunner {
    /// Runs `executable` with `arguments`; `environment` entries are added to (or, with "", remove from)
    /// this process's environment. Output is read to the end, so a chatty program cannot block on a pipe.
    /// `monitor`, when given, is called with the process id every `interval` seconds while it runs, on a
    /// thread of its own (e.g. to sample its memory through /proc).
    ///
    /// The program is started by `ChildProcess` (a clean start, its own process group, dead with the test
    /// process). The waiting (pipes to their end, then the exit) happens on threads of their own: the calling
    /// task is suspended, never a cooperative-pool thread blocked, so other tests run on meanwhile.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        currentDirectory: String? = nil, every interval: TimeInterval = 0.25,
        monitor: (@Sendable (Int32) -> Void)? = nil
    ) async throws -> ProcessResult {
        let child = try await ChildProcess(
            executable, arguments, environment: environment, currentDirectory: currentDirectory,
            stdout: .pipe, stderr: .pipe)
        guard let out = child.stdout, let err = child.stderr else { throw MediaError("\(executable): no pipes for its output.") }
        let watching = monitor.map { Monitor(pid: child.pid, every: interval, $0) }
        let (outData, errData) = await onThread("aubade-test-process") {
            let errData = ReadAll(err)
            let outData = out.readDataToEndOfFile()
            return (outData, errData.wait())
        }
        let status = await child.waitForExit(timeout: .seconds(86_400))
        if let watching { await onThread("aubade-test-monitor-stop") { watching.stop() } }
        return ProcessResult(
            status: status ?? -1, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The built executable `name`, found beside the running test binary (same build folder).
    public static func builtExecutable(_ name: String) -> String? {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: me).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        return nil
    }
}

/// Calls a closure with a process id at a fixed interval until stopped (`stop` blocks: call it off the pool).
private final class Monitor: Sendable {
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)

    init(pid: Int32, every interval: TimeInterval, _ body: @escaping @Sendable (Int32) -> Void) {
        Thread.detachNewThread { [self] in
            while running.load(ordering: .relaxed) {
                body(pid)
                Thread.sleep(forTimeInterval: interval)
            }
            done.signal()
        }
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        done.wait()
    }
}

/// Reads a pipe to its end on its own thread, so stdout and stderr drain at the same time (`wait` blocks:
/// call it off the pool).
private final class ReadAll: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let data = Mutex(Data())

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            let bytes = handle.readDataToEndOfFile()
            data.withLock { $0 = bytes }
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data.withLock { $0 }
    }
}
