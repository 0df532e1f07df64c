public import AubadeCore
public import Foundation

/// The calendars' cached copies, beside the database (`<database>.calendars/`): the bytes each source was last
/// imported from, so that the clock can expand its recurrences further and re-read it without the network, and
/// so that a refresh that fails keeps the last good copy. A new copy is first staged (written, fsync'd) under a
/// name of its own; the import commits; then `keep` renames it over the source's copy (`source-<id>.<format>`).
/// A failed or refused import discards the staged file: the cached copy is never replaced by a bad one.
public struct CalendarCache: Sendable {
    public let folder: String

    public init(databasePath: String) {
        folder = databasePath + ".calendars"
    }

    /// Writes `data` to a new staging file (temp name, fsync) and returns its name inside the folder.
    public func stage(_ data: Data, format: String) throws(StoreError) -> String {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw failure("cannot be created: \(error.localizedDescription)")
        }
        let name = "incoming-\(getpid())-\(UUID().uuidString.prefix(8)).\(format)"
        try write(data, to: folder + "/" + name)
        return name
    }

    /// The staged or cached file's bytes.
    public func read(_ name: String) throws(StoreError) -> Data {
        guard !name.contains("/"), let data = FileManager.default.contents(atPath: folder + "/" + name) else {
            throw failure("has no file \(name)")
        }
        return data
    }

    /// The cached copy's name for source `id`, when there is one.
    public func cachedName(sourceID id: Int64) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().first { $0.hasPrefix("source-\(id).") }
    }

    /// Makes the staged file the cached copy of source `id` (an atomic rename; the folder fsync'd), replacing
    /// any copy it had in another format.
    func keep(_ staged: String, sourceID id: Int64, format: String) throws(StoreError) {
        let target = "source-\(id).\(format)"
        if let old = cachedName(sourceID: id), old != target { unlink(folder + "/" + old) }
        guard !staged.contains("/"), rename(folder + "/" + staged, folder + "/" + target) == 0 else {
            throw failure("cannot keep the new copy (\(String(cString: strerror(errno))))")
        }
        DurableFile.syncFolder(folder)
    }

    /// Removes a staged file that was not imported.
    public func discard(_ staged: String) {
        guard !staged.contains("/"), staged.hasPrefix("incoming-") else { return }
        unlink(folder + "/" + staged)
    }

    private func write(_ data: Data, to path: String) throws(StoreError) {
        do {
            try DurableFile.replace(path, with: data, temp: path + ".tmp")
        } catch {
            switch error {
            case .cannotCreate(_, let reason), .cannotWrite(let reason):
                throw failure("cannot hold a new file (\(reason))")
            }
        }
    }

    private func failure(_ what: String) -> StoreError {
        .cannotOpen(path: folder, reason: "the calendar cache folder \(what)")
    }
}
