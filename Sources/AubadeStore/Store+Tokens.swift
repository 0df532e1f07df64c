public import AubadeCore
public import Foundation
import GRDB

/// A row of `tokens` (schema version 2).
struct TokenRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "tokens"
    var tokenId: Int64?
    var name: String
    var hash: String
    var createdAt: Date
    var lastUsedAt: Date?

    var token: AccessToken {
        AccessToken(id: tokenId ?? 0, name: name, hash: hash, createdAt: createdAt, lastUsedAt: lastUsedAt)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        tokenId = inserted.rowID
    }
}

extension Store {
    /// Every device token (never the token itself: its hash), oldest first.
    public func tokens() throws(StoreError) -> [AccessToken] {
        try read { db in try TokenRow.order(sql: "tokenId").fetchAll(db) }.map(\.token)
    }

    /// Makes a token called `name` (1–64 characters) and stores its hash in one IMMEDIATE transaction; returns
    /// the row and the token's text, to be shown once. Without a name, it is called "token N" after its id.
    /// A name taken (ignoring case) is refused — unless `replacing`, when the old token of that name is
    /// revoked in the same transaction (a device paired again gets a new token and its old one stops working).
    public func createToken(name: String?, replacing: Bool = false) throws(StoreError) -> (token: AccessToken, secret: String) {
        let chosen: String?
        do throws(ValidationError) { chosen = try name.map(AccessToken.validName) } catch { throw StoreError(error) }
        let secret = TokenSecret.generate()
        let stamp = now()
        let row: TokenRow = try write { db in
            let next = (try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'tokens'") ?? 0) + 1
            let name = chosen ?? "token \(next)"
            let same = TokenRow.filter(sql: "name = ? COLLATE NOCASE", arguments: [name])
            if replacing {
                try same.deleteAll(db)
            } else if try same.fetchCount(db) > 0 {
                throw StoreError.conflict("A token named '\(name)' already exists; pick another name or revoke that one first.")
            }
            var row = TokenRow(tokenId: nil, name: name, hash: TokenSecret.hash(secret), createdAt: stamp, lastUsedAt: nil)
            try row.insert(db)
            return row
        }
        try snapshot.write(from: self)  // the backup copy keeps the hashes too (a Stop from the kiosk, R27)
        return (row.token, secret)
    }

    /// Deletes the token with id `nameOrID` (when it is a number that names one) or called `nameOrID`
    /// (ignoring case), and returns it as it was. Unknown: `.notFound` for an id, `.invalid` for a name.
    @discardableResult
    public func revokeToken(_ nameOrID: String) throws(StoreError) -> AccessToken {
        let revoked: AccessToken = try write { db in
            var row: TokenRow?
            if let id = Int64(nameOrID) { row = try TokenRow.fetchOne(db, key: id) }
            if row == nil {
                row = try TokenRow.filter(sql: "name = ? COLLATE NOCASE", arguments: [nameOrID]).fetchOne(db)
            }
            guard let found = row, let id = found.tokenId else {
                if let id = Int64(nameOrID) { throw StoreError.notFound(what: "token", id: id) }
                throw StoreError.invalid("No token is named '\(nameOrID)'; see 'aubade token list'.")
            }
            _ = try TokenRow.deleteOne(db, key: id)
            return found.token
        }
        try snapshot.write(from: self)  // a revoked token must not come back with a restore
        return revoked
    }

    /// Notes that token `id` was used at `at` (a token revoked meanwhile is ignored).
    public func tokenUsed(id: Int64, at: Date) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE tokens SET lastUsedAt = ? WHERE tokenId = ?", arguments: [at, id])
        }
    }
}
