public import Foundation
import Glibc

/// Where a running daemon says which database and socket it uses, so that `aubade status` in another
/// terminal finds it without flags (`make run` uses ./var/aubade.sqlite, the CLI's default is
/// /var/lib/aubade/aubade.sqlite). One small JSON file in the runtime directory: `$RUNTIME_DIRECTORY` (the
/// unit's /run/aubade), else `$XDG_RUNTIME_DIR/aubade`, else /tmp/aubade-<uid>; removed at exit.
/// `$AUBADE_RUNTIME_DIR`, when set, is the one folder written and read instead of all of those: a clock that
/// must stay apart from the user's (every daemon and CLI the tests start gets a private one) neither announces
/// itself where the user's clock does nor finds it.
public struct RuntimeAnnouncement: Codable, Sendable, Equatable {
    public var database: String
    public var socket: String
    public var config: String?
    public var pid: Int32

    public init(database: String, socket: String, config: String?, pid: Int32 = getpid()) {
        self.database = database
        self.socket = socket
        self.config = config
        self.pid = pid
    }

    static let fileName = "daemon.json"

    /// The folders looked in, in order.
    public static func directories(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let own = environment["AUBADE_RUNTIME_DIR"], !own.isEmpty { return [own] }
        var dirs: [String] = []
        if let d = environment["RUNTIME_DIRECTORY"], !d.isEmpty {
            dirs.append(d.split(separator: ":").map(String.init).first ?? d)
        }
        dirs.append("/run/aubade")
        if let x = environment["XDG_RUNTIME_DIR"], !x.isEmpty { dirs.append(x + "/aubade") }
        dirs.append("/tmp/aubade-\(getuid())")
        var seen = Set<String>()
        return dirs.filter { seen.insert($0).inserted }
    }

    /// The folders written to, in order: the unit's own (`$RUNTIME_DIRECTORY`, /run/aubade under systemd),
    /// else the user's runtime folder, else /tmp/aubade-<uid> — never /run/aubade by hand, which belongs to the unit;
    /// only `$AUBADE_RUNTIME_DIR` when it is set.
    static func writable(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let own = environment["AUBADE_RUNTIME_DIR"], !own.isEmpty { return [own] }
        let unit = environment["RUNTIME_DIRECTORY"].flatMap { $0.isEmpty ? nil : $0.split(separator: ":").first.map(String.init) }
        return directories(environment: environment).filter { $0 != "/run/aubade" || $0 == unit }
    }

    /// Writes the announcement into the first folder that takes it; returns the file written.
    public func write() -> String? {
        guard let data = try? JSONEncoder().encode(self) else { return nil }
        for dir in RuntimeAnnouncement.writable() {
            let mode: mode_t = dir.hasPrefix("/tmp/") ? 0o700 : 0o755
            if mkdir(dir, mode) != 0 && errno != EEXIST { continue }
            // /tmp is shared: use the folder only when it is ours and nobody else's to write.
            var st = stat()
            guard stat(dir, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == getuid() || getuid() == 0 else { continue }
            let file = dir + "/" + RuntimeAnnouncement.fileName
            let temp = file + ".\(pid)"
            guard FileManager.default.createFile(atPath: temp, contents: data), rename(temp, file) == 0 else {
                unlink(temp)
                continue
            }
            return file
        }
        return nil
    }

    /// The running daemons' announcements whose process is alive and whose socket exists.
    public static func running() -> [RuntimeAnnouncement] {
        directories().compactMap { dir in
            guard let data = FileManager.default.contents(atPath: dir + "/" + fileName),
                let found = try? JSONDecoder().decode(RuntimeAnnouncement.self, from: data),
                kill(found.pid, 0) == 0 || errno == EPERM,
                FileManager.default.fileExists(atPath: found.socket)
            else { return nil }
            return found
        }
    }

    /// Removes `file` if it is still this process's announcement.
    public static func remove(_ file: String) {
        if let data = FileManager.default.contents(atPath: file),
            let found = try? JSONDecoder().decode(RuntimeAnnouncement.self, from: data), found.pid == getpid()
        {
            unlink(file)
        }
    }
}
