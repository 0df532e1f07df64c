import AubadeCore
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

    public func save(_ settings: AppSettings) throws(StoreError) {
        try write { db in try AppSetRow(settings).upsert(db) }
        try snapshot.write(from: self)
    }
}
