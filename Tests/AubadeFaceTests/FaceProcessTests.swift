import AubadeFace
import AubadeTesting
import Glibc
import Testing

/// The built `aubade-face` as a user runs it, on SDL's offscreen driver against a port nothing answers on: its first
/// frame (how soon is a figure of `make bench`, never asserted here), "Reconnecting…" (the link down), its buttons, a touch through `--input` asking the clock (no
/// answer: status 0), each frame saved by `--frames`, and SIGTERM ending it with status 0.
@Suite("Face: the aubade-face executable")
struct FaceProcessTests {
    /// The built executable beside the running test binary (same build folder), if there is one.
    static var executable: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        var dir = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for _ in 0..<4 {
            guard let slash = dir.lastIndex(of: "/") else { return nil }
            dir = String(dir[..<slash])
            let candidate = dir + "/aubade-face"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    static func lines(_ path: String) -> [String] {
        guard let bytes = FaceTestFiles.read(path) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Waits up to `seconds` (a watchdog, generous for a loaded machine) for a line of `path` containing `text`.
    static func waitFor(_ text: String, in path: String, seconds: Double = 60) -> String? {
        var waited = 0.0
        while waited < seconds {
            if let line = lines(path).first(where: { $0.contains(text) }) { return line }
            usleep(20_000)
            waited += 0.02
        }
        return nil
    }

    @Test("Runs against nothing: a first frame, link down, buttons, a touch's command, frames saved, SIGTERM exits 0")
    func againstNothing() async throws {
        let binary = try #require(Self.executable, "aubade-face is built beside the tests (swift build --build-tests)")
        let dir = "/tmp/aubade-face-process-\(getpid())"
        mkdir(dir, 0o700)
        mkdir(dir + "/frames", 0o700)
        defer {
            for name in ["out.jsonl", "err.txt", "in.fifo", "token"] { unlink(dir + "/" + name) }
            if let folder = opendir(dir + "/frames") {
                while let entry = readdir(folder) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) {
                        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    if name != "." && name != ".." { unlink(dir + "/frames/" + name) }
                }
                closedir(folder)
            }
            rmdir(dir + "/frames")
            rmdir(dir)
        }
        #expect(mkfifo(dir + "/in.fifo", 0o600) == 0)
        let command =
            "SDL_VIDEODRIVER=offscreen exec '\(binary)' --json --port 9 --size 800x480 --input '\(dir)/in.fifo' "
            + "--frames '\(dir)/frames' --token-file '\(dir)/token' > '\(dir)/out.jsonl' 2> '\(dir)/err.txt'"
        // Through ChildProcess, as every program a test starts: it dies with the test process, even a crashed one.
        let face = try await ChildProcess("/bin/sh", ["-c", command])
        let frame = Self.waitFor(#""event":"frame""#, in: dir + "/out.jsonl")
        #expect(frame?.contains(#""n":1,"live":false"#) == true)
        #expect(Self.waitFor(#""event":"link","up":false"#, in: dir + "/out.jsonl") != nil)
        let buttons = try #require(Self.waitFor(#""event":"buttons""#, in: dir + "/out.jsonl"))
        #expect(buttons.contains(#"{"id":"pair","label":"Pair a phone","x":594,"y":414,"w":182,"h":57}"#), "\(buttons)")

        // A touch on "Pair a phone", through the FIFO: SDL_FINGERDOWN at that pixel.
        let fifo = open(dir + "/in.fifo", O_WRONLY)
        try #require(fifo >= 0)
        let tap = Array("tap 685 442\n".utf8)
        #expect(write(fifo, tap, tap.count) == tap.count)
        close(fifo)
        #expect(Self.waitFor(#""event":"command","method":"POST","path":"/pair/code","status":0"#, in: dir + "/out.jsonl") != nil)
        #expect(Self.waitFor(#""id":"pair-close""#, in: dir + "/out.jsonl") != nil)
        #expect(access(dir + "/frames/frame-000001.bmp", R_OK) == 0)
        #expect(access(dir + "/frames/frame-000002.bmp", R_OK) == 0)

        face.signal(SIGTERM)
        let status = await face.waitForExit()
        #expect(status == 0, "exit status \(String(describing: status)); stderr: \(Self.lines(dir + "/err.txt"))")
    }
}
