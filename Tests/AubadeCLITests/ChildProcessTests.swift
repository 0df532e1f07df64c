import AubadeTesting
import Foundation
import Testing

/// What every program the tests start gets (`ChildProcess`): no signal blocked or ignored whatever the test
/// process blocks (a test server that inherits a blocked SIGTERM ignores `kill`), a process group of its own,
/// only the three standard descriptors, and a runtime folder of its own. That it dies with the test process,
/// even one killed with SIGKILL, cannot be checked from inside that process: it was checked by killing a whole
/// `swift test` run.
@Suite("Programs the tests start")
struct ChildProcessTests {
    /// A child's state as the kernel shows it: read from outside once it runs `program` (after `setpriv` and
    /// the parent check have executed it), so nothing it does itself can blur it.
    struct Seen {
        var status: [String: String] = [:]
        var processGroup: Int32 = 0
        var descriptors: [Int] = []
        var environment: [String: String] = [:]
    }

    static func look(at pid: Int32, running program: String) async -> Seen? {
        await onThread { () -> Seen? in
            for _ in 0..<600 {
                guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe") else { return nil }
                if exe == program { break }
                usleep(100_000)
            }
            var seen = Seen()
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2 { seen.status[parts[0]] = parts[1] }
            }
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            // After "(comm)": state, ppid, pgrp.
            let after = stat.split(separator: ")").last?.split(separator: " ") ?? []
            seen.processGroup = after.count > 2 ? Int32(after[2]) ?? 0 : 0
            seen.descriptors = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).compactMap {
                Int($0)
            }.sorted()
            let environ = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))) ?? Data()
            for entry in environ.split(separator: 0) {
                let text = String(decoding: entry, as: UTF8.self)
                if let eq = text.firstIndex(of: "=") {
                    seen.environment[String(text[..<eq])] = String(text[text.index(after: eq)...])
                }
            }
            return seen
        }
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
        let child = try await ChildProcess("/usr/bin/sleep", ["600"], stdout: .pipe)
        let seen = try #require(await Self.look(at: child.pid, running: "/usr/bin/sleep"), "sleep did not start")
        #expect(Self.userSignals(seen.status["SigBlk"]) == 0, "\(seen.status)")
        #expect(Self.userSignals(seen.status["SigIgn"]) == 0, "\(seen.status)")
        #expect(seen.processGroup == child.pid, "its own process group")
        #expect(seen.status["PPid"] == "\(getpid())", "the test process is its parent")
        #expect(seen.descriptors == [0, 1, 2], "\(seen.descriptors)")
        let runtime = try #require(seen.environment["AUBADE_RUNTIME_DIR"])
        #expect(runtime.hasPrefix(FileManager.default.temporaryDirectory.path + "/aubade-test-run-\(getpid())-"), "\(runtime)")
    }

    @Test func aRuntimeFolderGivenByTheTestIsKept() async throws {
        let child = try await ChildProcess("/usr/bin/sleep", ["600"], environment: ["AUBADE_RUNTIME_DIR": "/nowhere/run"])
        let seen = try #require(await Self.look(at: child.pid, running: "/usr/bin/sleep"))
        #expect(seen.environment["AUBADE_RUNTIME_DIR"] == "/nowhere/run")
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
