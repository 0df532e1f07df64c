import Foundation

/// A helper program (a test server) running while the value lives: started, its first stdout line read
/// (e.g. the port it listens on), killed on deinit.
public final class BackgroundProcess: Sendable {
    public let firstLine: String
    private let pid: Int32

    /// Starts the program and waits — on a thread of its own, however long a loaded machine takes to start
    /// it — for its first line.
    public init(_ executable: String, _ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        pid = process.processIdentifier
        firstLine = await onThread("aubade-test-first-line") {
            var line = Data()
            while true {
                let byte = out.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty || byte == Data("\n".utf8) { break }
                line.append(byte)
            }
            return String(decoding: line, as: UTF8.self)
        }
        guard !firstLine.isEmpty else {
            kill(pid, SIGKILL)
            throw MediaError("\(executable) exited before printing its first line.")
        }
    }

    deinit {
        kill(pid, SIGKILL)
    }
}
