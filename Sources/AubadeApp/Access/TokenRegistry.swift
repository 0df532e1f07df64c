public import AubadeCore
public import Foundation
import Synchronization

/// The device tokens the HTTP API accepts (R30), held in memory so a request's check never waits for the
/// clock's thread or the disk: the clock replaces the list when it loads or reloads the store and after a
/// pairing. Only hashes are held. Thread-safe.
public final class TokenRegistry: Sendable {
    /// A token as the registry knows it.
    public struct Entry: Sendable, Hashable {
        public var id: Int64
        public var name: String
        public var hash: String
        public var lastUsedAt: Date?
    }

    private struct State {
        var entries: [Entry] = []
        /// Uses to be noted in the store (at most one per token per `noteEvery`).
        var pendingUse: [Int64: Date] = [:]
    }

    /// How stale a token's stored `lastUsedAt` may get before a use is written (so reads do not write, R29).
    static let noteEvery: TimeInterval = 3600

    private let state = Mutex(State())

    public init() {}

    /// Replaces the known tokens.
    public func replace(with tokens: [AccessToken]) {
        state.withLock { s in
            s.entries = tokens.map { Entry(id: $0.id, name: $0.name, hash: $0.hash, lastUsedAt: $0.lastUsedAt) }
            s.pendingUse = s.pendingUse.filter { id, _ in s.entries.contains { $0.id == id } }
        }
    }

    /// The token whose text is `secret`, or nil. The secret's SHA-256 is compared with every known hash in
    /// constant time (no early exit). A use is remembered for the store when the stored one is stale.
    public func verify(_ secret: String, at now: Date) -> Entry? {
        let hash = TokenSecret.hash(secret)
        return state.withLock { s -> Entry? in
            var found: Int?
            for (i, entry) in s.entries.enumerated() where TokenSecret.equal(entry.hash, hash) { found = i }
            guard let i = found else { return nil }
            if s.entries[i].lastUsedAt.map({ now.timeIntervalSince($0) >= TokenRegistry.noteEvery }) ?? true {
                s.entries[i].lastUsedAt = now
                s.pendingUse[s.entries[i].id] = now
            }
            return s.entries[i]
        }
    }

    /// How many tokens are known.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Takes the uses to write to the store.
    func takePendingUses() -> [Int64: Date] {
        state.withLock { s in
            defer { s.pendingUse = [:] }
            return s.pendingUse
        }
    }
}
