import Foundation

/// A helper program (a test server) running while the value lives: started, its first stdout line read
/// (e.g. the port it listens on), killed on deinit.
public final class BackgroundProcess: Sendable {
    public let firstLine: String
    private let pid: Int32

    public init(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        pid = process.processIdentifier
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        firstLine = String(decoding: line, as: UTF8.self)
        guard !firstLine.isEmpty else {
            kill(pid, SIGKILL)
            throw MediaError("\(executable) exited before printing its first line.")
        }
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
