public import AubadeCore
import Foundation
import GRDB

extension Store {
    /// The run-time settings. A stored value out of its range is replaced by its default and named in
    /// `invalidKeys`, so a hand-edited row never makes the clock unusable.
    public func settingsWithProblems() throws(StoreError) -> (settings: AppSettings, invalidKeys: [String]) {
        guard let row = try read({ db in try AppSetRow.fetchOne(db, key: 1) }) else {
            return (AppSettings(), [])
        }
        let (settings, invalid) = row.settings()
        return (settings, invalid)
    }

    public func settings() throws(StoreError) -> AppSettings {
        try settingsWithProblems().settings
    }

    /// Replaces every setting by `settings`; rewrites the backup copy. A user's change of one key goes
    /// through `updateSettings`, which cannot lose a concurrent change of another.
    public func save(_ settings: AppSettings) throws(StoreError) {
        try write { db in try AppSetRow(settings).upsert(db) }
        try snapshot.write(from: self)
    }

    /// Changes the settings with `change` in one IMMEDIATE transaction (R26): read as stored now (a value out
    /// of range as its default), changed, written; `change` may refuse with a `ValidationError` sentence (thrown
    /// as `.invalid`, nothing changed). Returns the settings as saved; rewrites the backup copy.
    @discardableResult
    public func updateSettings(_ change: (inout AppSettings) throws(ValidationError) -> Void) throws(StoreError)
        -> AppSettings
    {
        let saved: AppSettings = try write { db in
            var settings = try AppSetRow.fetchOne(db, key: 1)?.settings().0 ?? AppSettings()
            try change(&settings)
            try AppSetRow(settings).upsert(db)
            return settings
        }
        try snapshot.write(from: self)
        return saved
    }
}
