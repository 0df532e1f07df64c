import AubadeFace
import Glibc

/// `--json`: one JSON object a line on stdout, each stamped with the wall clock's Unix seconds (`t`). Main thread only.
struct FaceOutput {
    let enabled: Bool

    func emit(_ event: String, _ fields: String = "") {
        guard enabled else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let t = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        let line = "{\"t\":\(t),\"event\":\"\(event)\"" + (fields.isEmpty ? "" : "," + fields) + "}\n"
        Self.write(line, to: 1)
    }

    /// Writes `text` whole to the file descriptor `fd` (1: stdout, 2: stderr), unbuffered.
    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            bytes = bytes.dropFirst(n)
        }
    }

    func frame(_ n: Int, live: Bool) { emit("frame", "\"n\":\(n),\"live\":\(live)") }

    func buttons(_ buttons: [FaceScene.Button]) {
        let list = buttons.map {
            "{\"id\":\(FaceCommand.quoted($0.id)),\"x\":\($0.rect.x),\"y\":\($0.rect.y),\"w\":\($0.rect.w),\"h\":\($0.rect.h)}"
        }
        emit("buttons", "\"buttons\":[\(list.joined(separator: ","))]")
    }

    func command(_ command: FaceCommand, status: Int) {
        emit(
            "command",
            "\"method\":\(FaceCommand.quoted(command.method)),\"path\":\(FaceCommand.quoted(command.path)),\"status\":\(status)")
    }

    func link(_ up: Bool) { emit("link", "\"up\":\(up)") }
}
