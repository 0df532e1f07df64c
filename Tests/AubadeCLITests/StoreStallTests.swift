import AubadeTesting
import Foundation
import GRDB
import Glibc
import Synchronization
import Testing

/// The store is off the alarm's path: the running clock's store works on a thread of its own and the clock waits
/// for it at most half a second, so a database that cannot commit — locked by another process for longer than
/// SQLite's 10-s busy wait — holds no ring back. The ring goes ahead, the commit fails later and says so, and the
/// state is saved once the database answers again.
@Suite("Daemon end to end: the store holds no ring back", .serialized)
struct StoreStallTests {
    @Test func aDatabaseLockedAtTheAlarmHoldsNoRingBackAndTheStateIsSavedAfterwards() async throws {
        let c = try DaemonTests.Clock()
        let id = try await c.addAlarm(["--source", "tone"])
        let d = try await c.daemon(lead: 20)
        _ = try #require(await d.wait(for: "ready"))
        // Another connection takes the write lock before the alarm and keeps it until the alarm has rung.
        let lock = try WriteLock(path: c.cli.db)
        defer { lock.release() }
        let ringing = try #require(await d.wait(for: "ringing"))
        #expect(ringing["alarm"] as? Int == Int(id))
        // The commit that would have held the ring back fails after SQLite's busy wait — after the ring.
        let failed = await d.wait(for: "warning") { ($0["message"] as? String)?.contains("could not be saved") == true }
        #expect(failed != nil)
        let failedAt = d.position(of: "warning") { ($0["message"] as? String)?.contains("could not be saved") == true }
        #expect(try #require(d.position(of: "ringing")) < (failedAt ?? 0), "the alarm rang before the store gave up")
        lock.release()
        // Once the database answers again the state is saved (tried again), so a restart would resume the ring (R9).
        let deadline = ContinuousClock.now + .seconds(60)
        var phase: String?
        while phase != "ringing", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            let q = try DatabaseQueue(path: c.cli.db)
            phase = try await q.read { db in
                try String.fetchOne(db, sql: "SELECT phase FROM alarmState WHERE clockId = ?", arguments: [id])
            }
            try q.close()
        }
        #expect(phase == "ringing")
        #expect(try await c.run(["stop"]).status == 0)
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }
}

/// An exclusive write lock on a database, held by a connection on a thread of its own until `release`.
final class WriteLock: Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let done = Mutex(false)

    /// Takes the lock, waiting for the daemon's own short transactions (SQLite's busy wait, up to 30 s); throws when
    /// it cannot be had, never leaves the caller waiting for a lock that was not taken.
    init(path: String) throws {
        let taken = DispatchSemaphore(value: 0)
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let released = self.released
        let failure = LockFailure()
        let thread = Thread {
            do {
                try queue.writeWithoutTransaction { db in
                    try db.execute(sql: "BEGIN EXCLUSIVE")
                    taken.signal()
                    released.wait()
                    try db.execute(sql: "ROLLBACK")
                }
            } catch {
                failure.text.withLock { $0 = "\(error)" }
                taken.signal()
            }
            try? queue.close()
        }
        thread.start()
        guard taken.wait(timeout: .now() + 60) == .success else { throw LockFailure.Error("not taken within 60 s") }
        if let text = failure.text.withLock({ $0 }) { throw LockFailure.Error(text) }
    }

    func release() {
        guard
            !done.withLock({ d in
                defer { d = true }; return d
            })
        else { return }
        released.signal()
    }
}

/// Why a `WriteLock` could not be taken, carried from its thread.
final class LockFailure: Sendable {
    let text = Mutex<String?>(nil)

    struct Error: Swift.Error, CustomStringConvertible {
        let description: String
        init(_ why: String) { description = "The test's write lock could not be taken: \(why)" }
    }
}
