import AubadeTesting
import Foundation
import Testing

/// `aubade doctor`'s face line (issue 38) on fake /proc trees (`--proc-root`): which face runs and the PSS of its
/// process tree, cage included; the native face advised for a browser on a board under 1 GiB; no face is fine.
@Suite("aubade doctor: the clock face (the built binary)")
struct FaceDoctorCLITests {
    /// A fake /proc: `meminfo` with `memoryKB`, and one folder per process (stat, comm, cmdline and, when `pssKB`
    /// is given, smaps_rollup — a process whose smaps_rollup is missing stands for another user's, unreadable).
    struct FakeProc {
        let root: String

        init(in dir: TemporaryDirectory, memoryKB: Int) throws {
            root = dir.file("proc-\(UUID().uuidString)")
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            try "MemTotal:       \(memoryKB) kB\nMemFree:         1000 kB\n".write(
                toFile: root + "/meminfo", atomically: true, encoding: .utf8)
        }

        func add(_ pid: Int, parent: Int, name: String, _ arguments: [String], pssKB: Int?) throws {
            let folder = "\(root)/\(pid)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "\(pid) (\(name)) S \(parent) \(pid) \(pid) 0 -1 4194560 0 0 0 0\n".write(
                toFile: folder + "/stat", atomically: true, encoding: .utf8)
            try "\(name)\n".write(toFile: folder + "/comm", atomically: true, encoding: .utf8)
            try Data(arguments.map { Array($0.utf8) + [0] }.joined()).write(to: URL(fileURLWithPath: folder + "/cmdline"))
            if let pssKB {
                try "55e0a0000000-7ffd00000000 ---p 00000000 00:00 0 [rollup]\nRss:  \(pssKB * 2) kB\nPss:  \(pssKB) kB\n".write(
                    toFile: folder + "/smaps_rollup", atomically: true, encoding: .utf8)
            }
        }
    }

    func faceLine(_ cli: CLIHarness, _ proc: FakeProc) async throws -> (check: [String: String], faces: [[String: Any]]) {
        let config = try DoctorCLITests.nullDeviceConfig(cli)
        let r = try await cli.run(["doctor", "--json", "--config", config, "--proc-root", proc.root])
        let report = try cli.json(r.stdout)
        let check = try #require(try DoctorCLITests.checks(report)["face"], "\(r.stdout)")
        return (check, try #require(report["faces"] as? [[String: Any]], "\(r.stdout)"))
    }

    @Test func nativeFaceAndItsMemory() async throws {
        let cli = try CLIHarness()
        let proc = try FakeProc(in: cli.dir, memoryKB: 438_072)  // a Raspberry Pi Zero 2 W
        try proc.add(1, parent: 0, name: "systemd", ["/sbin/init"], pssKB: 4000)
        try proc.add(700, parent: 1, name: "aubade", ["/usr/bin/aubade", "run"], pssKB: 43_000)
        try proc.add(810, parent: 1, name: "aubade-kiosk", ["/bin/sh", "/usr/lib/aubade/kiosk/aubade-kiosk"], pssKB: 300)
        try proc.add(812, parent: 810, name: "aubade-face", ["/usr/bin/aubade-face", "--port", "8080"], pssKB: 23_552)
        let (check, faces) = try await faceLine(cli, proc)
        #expect(check["status"] == "ok", "\(check)")
        #expect(check["message"] == "Face: native (aubade-face, pid 812), 23 MB.", "\(check)")
        #expect(faces.count == 1 && faces[0]["kind"] as? String == "native" && faces[0]["pssKB"] as? Int == 23_552, "\(faces)")
    }

    @Test func chromiumUnderCageOnASmallBoardIsAdvisedTheNativeFace() async throws {
        let cli = try CLIHarness()
        let proc = try FakeProc(in: cli.dir, memoryKB: 438_072)
        try proc.add(1, parent: 0, name: "systemd", ["/sbin/init"], pssKB: 4000)
        try proc.add(900, parent: 1, name: "aubade-kiosk", ["/bin/sh", "/usr/lib/aubade/kiosk/aubade-kiosk"], pssKB: 300)
        try proc.add(901, parent: 900, name: "cage", ["cage", "--", "/usr/lib/aubade/kiosk/aubade-kiosk"], pssKB: 20_000)
        try proc.add(902, parent: 901, name: "aubade-kiosk", ["/bin/sh", "/usr/lib/aubade/kiosk/aubade-kiosk"], pssKB: 300)
        let url = "--app=http://127.0.0.1:8080/kiosk"
        try proc.add(
            903, parent: 902, name: "chromium", ["/usr/lib/chromium/chromium", "--start-maximized", url], pssKB: 150_000)
        try proc.add(904, parent: 903, name: "chromium", ["/usr/lib/chromium/chromium", "--type=zygote"], pssKB: 30_000)
        try proc.add(905, parent: 904, name: "chromium", ["/usr/lib/chromium/chromium", "--type=renderer"], pssKB: 200_000)
        try proc.add(906, parent: 903, name: "chromium", ["/usr/lib/chromium/chromium", "--type=gpu-process"], pssKB: 19_000)
        // A Chromium that is not the kiosk (someone's browser) is no face.
        try proc.add(950, parent: 1, name: "chromium", ["/usr/lib/chromium/chromium", "https://example.org"], pssKB: 90_000)
        let (check, faces) = try await faceLine(cli, proc)
        #expect(check["status"] == "warning", "\(check)")
        let message = check["message"] ?? ""
        // 20000 + 300 + 150000 + 30000 + 200000 + 19000 kB = 409 MB, cage and the launcher inside it included.
        #expect(message.hasPrefix("Chromium kiosk (pid 903, under cage, 6 processes), 409 MB"), "\(message)")
        #expect(message.contains("the native face is advised: AUBADE_KIOSK_FACE=native"), "\(message)")
        #expect(check["fix"]?.contains("apt install aubade-face") == true, "\(check)")
        #expect(faces.count == 1 && faces[0]["underCage"] as? Bool == true, "\(faces)")
    }

    @Test func aBrowserFaceOnALargeBoardIsFineAndUnreadableMemoryIsSaid() async throws {
        let cli = try CLIHarness()
        let proc = try FakeProc(in: cli.dir, memoryKB: 3_882_300)
        try proc.add(1, parent: 0, name: "systemd", ["/sbin/init"], pssKB: 4000)
        try proc.add(
            500, parent: 1, name: "chromium", ["/usr/lib/chromium/chromium", "--kiosk", "http://127.0.0.1:8080/kiosk"], pssKB: nil
        )
        let (check, _) = try await faceLine(cli, proc)
        #expect(check["status"] == "ok", "\(check)")
        #expect(check["message"] == "Face: Chromium kiosk (pid 500): run as root to see its memory.", "\(check)")
    }

    @Test func noFaceIsFine() async throws {
        let cli = try CLIHarness()
        let proc = try FakeProc(in: cli.dir, memoryKB: 438_072)
        try proc.add(1, parent: 0, name: "systemd", ["/sbin/init"], pssKB: 4000)
        try proc.add(700, parent: 1, name: "aubade", ["/usr/bin/aubade", "run"], pssKB: 43_000)
        let (check, faces) = try await faceLine(cli, proc)
        #expect(
            check["status"] == "ok" && check["message"] == "No face running (a clock without a screen needs none).", "\(check)")
        #expect(faces.isEmpty)
    }
}
