import AubadeFace
import AubadeSystem
import Glibc

/// `--json`: one JSON object a line on stdout, each stamped with the wall clock's Unix seconds (`t`). Main thread only.
struct FaceOutput {
    let enabled: Bool

    func emit(_ event: String, _ fields: String = "") {
        guard enabled else { return }
        let t = Self.wallSeconds()
        let line = "{\"t\":\(t),\"event\":\"\(event)\"" + (fields.isEmpty ? "" : "," + fields) + "}\n"
        Self.write(line, to: 1)
    }

    /// The wall clock now, Unix seconds.
    static func wallSeconds() -> Double {
        Self.seconds(Monotonic.now() + Monotonic.wallOffset())
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
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
            "{\"id\":\(FaceCommand.quoted($0.id)),\"label\":\(FaceCommand.quoted($0.label)),\"x\":\($0.rect.x),\"y\":\($0.rect.y),\"w\":\($0.rect.w),\"h\":\($0.rect.h)}"
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
