import Foundation

/// A helper program (a test server) running while the value lives: started (`ChildProcess`), its first stdout
/// line read (e.g. the port it listens on), killed on deinit.
public final class BackgroundProcess: Sendable {
    public let firstLine: String
    private let child: ChildProcess

    /// Starts the program and waits — on a thread of its own, however long a loaded machine takes to start
    /// it — for its first line.
    public init(_ executable: String, _ arguments: [String]) async throws {
        child = try await ChildProcess(executable, arguments, stdout: .pipe)
        guard let out = child.stdout else { throw MediaError("\(executable): no pipe for its output.") }
        firstLine = await onThread("aubade-test-first-line") {
            var line = Data()
            while true {
                let byte = out.readData(ofLength: 1)
                if byte.isEmpty || byte == Data("\n".utf8) { break }
                line.append(byte)
            }
            return String(decoding: line, as: UTF8.self)
        }
        guard !firstLine.isEmpty else {
            throw MediaError("\(executable) exited before printing its first line.")
        }
    }

    /// The program's process id.
    public var pid: Int32 { child.pid }
}
