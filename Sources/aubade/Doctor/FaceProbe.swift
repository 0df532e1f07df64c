import Foundation

/// `aubade doctor`'s face line (issue 38): which clock face runs on this machine — the native face (`aubade-face`),
/// the kiosk page in Chromium, or in WPE WebKit (`cog`) — and what it costs: the PSS of its process tree (with cage,
/// when cage runs it), from each process's smaps_rollup. Never a problem: a headless clock needs no face, and a face
/// costs no alarm (it is a process of its own). A browser face on a board under 1 GiB is a warning: it takes most of
/// the memory, and the native face is advised there.
///
/// Everything is read from a /proc folder given by the caller (`/proc`, or a fake tree in the tests:
/// `aubade doctor --proc-root`).
enum FaceProbe {
    /// One face found running.
    struct Face: Encodable, Sendable, Equatable {
        /// "native", "chromium" or "cog".
        var kind: String
        /// The face's own process (aubade-face, Chromium's browser process, cog).
        var pid: Int
        /// The tree summed: the face's process and its descendants, from cage when cage runs it.
        var processes: Int
        var underCage: Bool
        /// The tree's PSS in kB; nil when some process's smaps_rollup cannot be read by this user.
        var pssKB: Int?
    }

    /// A process as /proc shows it.
    struct Process: Sendable {
        var pid: Int
        var parent: Int
        /// The kernel's short name (`comm`, at most 15 characters).
        var name: String
        var arguments: [String]

        var program: String { (arguments.first ?? "").split(separator: "/").last.map(String.init) ?? "" }
    }

    /// Every process readable under `proc`, by pid.
    static func processes(proc: String) -> [Int: Process] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: proc)) ?? []
        var found: [Int: Process] = [:]
        for entry in entries {
            guard let pid = Int(entry), pid > 0 else { continue }
            let folder = proc + "/" + entry
            // "pid (comm) state ppid …": the name may hold spaces and parentheses, so the fields after the last ")".
            guard let stat = try? String(contentsOfFile: folder + "/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = Int(fields[1]) else { continue }
            let name =
                (try? String(contentsOfFile: folder + "/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            let cmdline = FileManager.default.contents(atPath: folder + "/cmdline") ?? Data()
            let arguments = cmdline.split(separator: 0, omittingEmptySubsequences: true).map {
                String(decoding: $0, as: UTF8.self)
            }
            found[pid] = Process(pid: pid, parent: parent, name: name, arguments: arguments)
        }
        return found
    }

    /// What kind of face `process` is, if it is one: nil for anything else (Chromium's helper processes, a
    /// Chromium that is not on the kiosk page, …).
    static func kind(of process: Process) -> String? {
        if process.name == "aubade-face" || process.program == "aubade-face" { return "native" }
        if process.name == "cog" || process.program == "cog" { return "cog" }
        let chromium = ["chromium", "chromium-browser", "chromium-browse", "chrome"]
        if chromium.contains(process.name) || chromium.contains(process.program) {
            let arguments = process.arguments.dropFirst()
            // The browser process (its helpers say --type=), on the kiosk page (the launcher's --kiosk URL, or
            // --app=URL inside cage).
            guard !arguments.contains(where: { $0.hasPrefix("--type=") }) else { return nil }
            if arguments.contains("--kiosk") || arguments.contains(where: { $0.hasPrefix("--app=") && $0.contains("/kiosk") }) {
                return "chromium"
            }
        }
        return nil
    }

    /// The faces running under `proc`, each with its tree's PSS.
    static func faces(proc: String) -> [Face] {
        let all = processes(proc: proc)
        var children: [Int: [Int]] = [:]
        for process in all.values { children[process.parent, default: []].append(process.pid) }
        var faces: [Face] = []
        var counted = Set<Int>()
        for process in all.values.sorted(by: { $0.pid < $1.pid }) {
            guard !counted.contains(process.pid), let kind = kind(of: process) else { continue }
            // cage runs the face (the launcher without a desktop): its compositor is part of the face's cost.
            var top = process.pid
            var underCage = false
            var step = all[process.parent]
            while let up = step, up.pid > 1, !underCage {
                if up.name == "cage" || up.program == "cage" {
                    top = up.pid
                    underCage = true
                }
                step = all[up.parent]
            }
            var tree: [Int] = []
            var queue = [top]
            while let pid = queue.popLast() {
                guard !tree.contains(pid) else { continue }
                tree.append(pid)
                queue += children[pid] ?? []
            }
            counted.formUnion(tree)
            let sizes = tree.map { pss(proc: proc, pid: $0) }
            let total = sizes.contains(where: { $0 == nil }) ? nil : sizes.compactMap { $0 }.reduce(0, +)
            faces.append(Face(kind: kind, pid: process.pid, processes: tree.count, underCage: underCage, pssKB: total))
        }
        return faces
    }

    /// The "Pss:" line of the process's smaps_rollup, in kB; nil when it cannot be read (another user's process,
    /// unless doctor runs as root).
    static func pss(proc: String, pid: Int) -> Int? {
        guard let text = try? String(contentsOfFile: "\(proc)/\(pid)/smaps_rollup", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("Pss:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    /// The machine's memory (MemTotal in meminfo), in kB.
    static func memoryKB(proc: String) -> Int? {
        guard let text = try? String(contentsOfFile: proc + "/meminfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemTotal:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    /// "native (aubade-face), 23 MB" and the like.
    static func describe(_ face: Face) -> String {
        let name =
            switch face.kind {
            case "native": "native (aubade-face"
            case "cog": "WPE WebKit kiosk (cog"
            default: "Chromium kiosk ("
            }
        let details =
            (face.kind == "chromium" ? "" : ", ") + "pid \(face.pid)" + (face.underCage ? ", under cage" : "")
            + (face.processes > 1 ? ", \(face.processes) processes" : "") + ")"
        guard let kB = face.pssKB else { return name + details + ": run as root to see its memory" }
        return name + details + ", \(Int((Double(kB) / 1024).rounded())) MB"
    }

    /// The face line: `faces` as `faces(proc:)` found them, `memoryKB` the board's MemTotal.
    static func check(_ faces: [Face], memoryKB: Int?) -> DoctorCheck {
        guard !faces.isEmpty else {
            return .ok("face", "No face running (a clock without a screen needs none).")
        }
        let found = faces.map(describe).joined(separator: "; ")
        let small = memoryKB.map { $0 < 1_048_576 } ?? false
        if faces.count > 1 {
            return .warning(
                "face", "\(faces.count) faces run at once: \(found).",
                fix:
                    "Keep one: aubade-face.service on a board without a desktop, the kiosk launcher (aubade-kiosk) in a desktop session."
            )
        }
        if small, faces[0].kind != "native" {
            let mb = memoryKB.map { " (\($0 / 1024) MB)" } ?? ""
            return .warning(
                "face",
                "\(found.prefix(1).uppercased() + found.dropFirst()); on a board under 1 GB\(mb) the native face is advised: AUBADE_KIOSK_FACE=native.",
                fix:
                    "sudo apt install aubade-face, set AUBADE_KIOSK_FACE=native (or leave it at auto) in /etc/default/aubade-kiosk, and restart the kiosk."
            )
        }
        return .ok("face", "Face: \(found).")
    }
}
