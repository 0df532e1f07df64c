import AubadeHandoff
import Glibc

/// The three handoff files beside the database, as C paths made once at start, and the fixed buffers they are
/// read into and written from (R35): `<db>.next-alarm` and `<db>.heartbeat` (the daemon's, read), `<db>.waker`
/// (the waker's own state, written atomically).
final class HandoffFiles {
    let nextAlarm: LongText
    let heartbeat: LongText
    let waker: LongText
    /// The database's folder, which the waker watches (the daemon replaces files by renaming into it).
    let folder: LongText
    /// The file names inside `folder`, as inotify reports them.
    let nextAlarmName: LongText
    let heartbeatName: LongText
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private let writer = TextWriter(capacity: 16 * 1024)

    init(database: String) {
        nextAlarm = LongText(HandoffIO.path(database: database, suffix: NextAlarmFile.suffix))
        heartbeat = LongText(HandoffIO.path(database: database, suffix: HeartbeatFile.suffix))
        waker = LongText(HandoffIO.path(database: database, suffix: WakerStateFile.suffix))
        let slash = database.lastIndex(of: "/")
        let name = slash.map { String(database[database.index(after: $0)...]) } ?? database
        let dir = slash.map { $0 == database.startIndex ? "/" : String(database[..<$0]) } ?? "."
        folder = LongText(dir)
        nextAlarmName = LongText(HandoffIO.path(database: name, suffix: NextAlarmFile.suffix))
        heartbeatName = LongText(HandoffIO.path(database: name, suffix: HeartbeatFile.suffix))
    }

    deinit { buffer.deallocate() }

    /// The whole file at `path`, valid until the next read; or nil with `errno` set.
    func read(_ path: LongText) -> UnsafeRawBufferPointer? {
        let n = path.withCString { HandoffIO.read($0, into: buffer) }
        guard n >= 0 else {
            errno = Int32(-n)
            return nil
        }
        return UnsafeRawBufferPointer(rebasing: buffer[0..<n])
    }

    /// Replaces the waker's state file: 0 or an errno.
    func save(_ state: borrowing WakerStateFile) -> Int32 {
        state.write(to: writer)
        return waker.withCString { HandoffIO.replace($0, with: writer.bytes) }
    }
}
