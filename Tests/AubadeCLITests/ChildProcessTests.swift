import AubadeTesting
import Foundation
import Testing

/// What every program the tests start gets (`ChildProcess`): no signal blocked or ignored whatever the thread
/// that asked for it had (a pool thread may block SIGTERM, SIGINT and SIGHUP, and a test server that inherits
/// that ignores `kill`), a process group of its own, only the three standard descriptors, and a runtime folder
/// of its own. That it dies with the test process, even one killed with SIGKILL, is checked by killing a
/// whole `swift test` run (see the suite's report in the repository history), not from inside one.
@Suite("Programs the tests start")
struct ChildProcessTests {
    /// The shell's own view of itself: its signal masks, its process group and parent, its descriptors and its
    /// runtime folder.
    /// (`ls` lists the shell's descriptors from a process of its own, so the listing opens none in the shell.)
    static let probe = """
        grep -E '^(SigBlk|SigIgn):' /proc/$$/status
        echo "pgid $(cut -d' ' -f5 /proc/$$/stat) pid $$ ppid $PPID"
        echo "runtime ${AUBADE_RUNTIME_DIR:-none}"
        ls /proc/$$/fd
        """

    /// "name value" lines by name, and the bare numbers (the descriptors) in order.
    static func fields(_ text: String) -> (named: [String: String], descriptors: [Int]) {
        var named: [String: String] = [:]
        var descriptors: [Int] = []
        for line in text.split(separator: "\n") {
            if let fd = Int(line) {
                descriptors.append(fd)
                continue
            }
            let parts = line.replacingOccurrences(of: "\t", with: " ").split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { named[parts[0].replacingOccurrences(of: ":", with: "")] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return (named, descriptors.sorted())
    }

    /// A signal mask from /proc as a number, without glibc's two internal signals (32 and 33: posix_spawn itself
    /// leaves them ignored, and nothing but glibc ever sends them).
    static func userSignals(_ hex: String?) -> UInt64? {
        hex.flatMap { UInt64($0, radix: 16) }.map { $0 & ~UInt64(0x1_8000_0000) }
    }

    @Test func aChildStartsCleanInItsOwnProcessGroupWithOnlyTheStandardDescriptors() async throws {
        // A descriptor the test process holds without close-on-exec must not reach the child.
        let held = open("/dev/null", O_RDONLY)
        defer { close(held) }
        let r = try await ProcessRunner.run("/bin/sh", ["-c", Self.probe])
        #expect(r.status == 0, "\(r.stderr)")
        let (f, descriptors) = Self.fields(r.stdout)
        #expect(Self.userSignals(f["SigBlk"]) == 0, "\(r.stdout)")
        #expect(Self.userSignals(f["SigIgn"]) == 0, "\(r.stdout)")
        let ids = (f["pgid"] ?? "").split(separator: " ")
        #expect(ids.count == 5 && ids[0] == ids[2], "its own process group: \(f["pgid"] ?? "")")
        #expect(ids.count == 5 && ids[4] == "\(getpid())", "the test process is its parent: \(f["pgid"] ?? "")")
        #expect(descriptors == [0, 1, 2], "\(r.stdout)")
        let runtime = try #require(f["runtime"])
        #expect(runtime.hasPrefix(FileManager.default.temporaryDirectory.path + "/aubade-test-run-\(getpid())-"), "\(runtime)")
    }

    @Test func aRuntimeFolderGivenByTheTestIsKept() async throws {
        let r = try await ProcessRunner.run("/bin/sh", ["-c", Self.probe], environment: ["AUBADE_RUNTIME_DIR": "/nowhere/run"])
        #expect(Self.fields(r.stdout).named["runtime"] == "/nowhere/run")
    }

    @Test func aChildIsKilledWithItsProcessGroupWhenItsValueGoes() async throws {
        var child: ChildProcess? = try await ChildProcess("/bin/sh", ["-c", "sleep 600 & echo $!; wait"], stdout: .pipe)
        let shell = try #require(child?.pid)
        let out = try #require(child?.stdout)
        let sleeper = await onThread { () -> Int32? in
            var line = Data()
            while true {
                let byte = out.readData(ofLength: 1)
                if byte.isEmpty || byte == Data("\n".utf8) { break }
                line.append(byte)
            }
            return Int32(String(decoding: line, as: UTF8.self))
        }
        let sleep = try #require(sleeper)
        // The shell and its `sleep` share the group; both go (gone, or a zombie no one has reaped yet).
        child = nil
        let gone = await onThread { () -> Bool in
            func dead(_ pid: Int32) -> Bool {
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
                return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
            }
            for _ in 0..<600 {
                if dead(shell) && dead(sleep) { return true }
                usleep(100_000)
            }
            return false
        }
        #expect(gone, "the shell \(shell) or its sleep \(sleep) still runs")
    }
}
