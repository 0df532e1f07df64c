public import AubadeCore
import Foundation
import GRDB

extension Store {
    /// The podcasts followed, by name.
    public func podcasts() throws(StoreError) -> [Podcast] {
        let rows = try read { db in try PodcastRow.order(sql: "name COLLATE NOCASE").fetchAll(db) }
        var result: [Podcast] = []
        for row in rows { result.append(try row.podcast()) }
        return result
    }

    /// The podcast called `name` (case-insensitive), or with that id; nil when none is.
    public func podcast(named name: String) throws(StoreError) -> Podcast? {
        try read { db in try PodcastRow.named(name, in: db) }?.podcast()
    }

    /// Inserts `podcast`; a name already taken (ignoring case) is a conflict.
    func insert(_ podcast: Podcast) throws(StoreError) -> Podcast {
        var row = PodcastRow(podcast, now: now())
        row.podcastId = nil
        try write { db in
            if try PodcastRow.filter(sql: "name = ? COLLATE NOCASE", arguments: [podcast.name]).fetchCount(db) > 0 {
                throw StoreError.conflict("A podcast named '\(podcast.name)' already exists; pick another name.")
            }
            try row.insert(db)
        }
        var saved = podcast
        saved.id = row.podcastId
        return saved
    }

    /// Replaces the stored episodes of the podcast called `name` with `feed`'s, read and written in one
    /// transaction (R26).
    func refreshPodcast(named name: String, with feed: PodcastFeed, at when: Date) throws(StoreError) -> Podcast {
        let stamp = now()
        return try write { db in
            guard let old = try PodcastRow.filter(sql: "name = ? COLLATE NOCASE", arguments: [name]).fetchOne(db) else {
                throw StoreError.invalid("No podcast is named '\(name)'; see 'aubade podcast list'.")
            }
            let updated = try old.podcast().refreshed(with: feed, at: when)
            var row = PodcastRow(updated, now: stamp)
            row.createdAt = old.createdAt
            try row.update(db)
            return updated
        }
    }

    /// Remembers where listening to the podcast called `name` stopped (nil: heard to the end), in one transaction.
    func setPosition(ofPodcast name: String, _ resume: PodcastResume?) throws(StoreError) -> Podcast {
        try write { db in
            guard var row = try PodcastRow.filter(sql: "name = ? COLLATE NOCASE", arguments: [name]).fetchOne(db) else {
                throw StoreError.invalid("No podcast is named '\(name)'; see 'aubade podcast list'.")
            }
            row.resumeEpisode = resume?.episode
            row.resumeByte = resume?.byte
            try row.update(db)
            return try row.podcast()
        }
    }

    /// Deletes the podcast with that id or name (ignoring case) and returns it as it was; refused while an alarm
    /// plays it (naming the alarms), in the same transaction.
    func deletePodcast(_ nameOrID: String) throws(StoreError) -> Podcast {
        try write { db in
            guard let row = try PodcastRow.named(nameOrID, in: db), let id = row.podcastId else {
                throw StoreError.invalid("No podcast is named '\(nameOrID)'; see 'aubade podcast list'.")
            }
            let users = try ClockRow.fetchAll(db).filter { clock in
                guard case .podcast(let choice)? = try? SoundSource(storageText: clock.clockMusic) else { return false }
                return choice.name.lowercased() == row.name.lowercased()
            }
            if !users.isEmpty {
                let names = users.map { "'\($0.clockName)'" }.joined(separator: ", ")
                throw StoreError.conflict("Podcast \(row.name) is the sound of alarm \(names); change the alarm first.")
            }
            _ = try PodcastRow.deleteOne(db, key: id)
            // The row as it was, for the answer; one that cannot be read any more is still deleted.
            if let podcast = try? row.podcast() { return podcast }
            return try Podcast(
                id: id, name: "podcast \(id)", feed: try StreamURL(stored: row.feedUrl), title: row.title, episodes: [],
                refreshedAt: row.refreshedAt)
        }
    }
}

extension PodcastRow {
    /// The row of the podcast called `nameOrID` (ignoring case), else with that id.
    static func named(_ nameOrID: String, in db: Database) throws -> PodcastRow? {
        try filter(sql: "name = ? COLLATE NOCASE", arguments: [nameOrID]).fetchOne(db)
            ?? Int64(nameOrID).flatMap { try fetchOne(db, key: $0) }
    }
}
