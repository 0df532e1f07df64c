/// Why the store refused or failed. Each case prints as one sentence for the CLI and the API.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is not a readable SQLite database, or fails `PRAGMA quick_check`.
    case unreadable(path: String, reason: String)
    /// The file's `user_version` is newer than this binary knows; it is open read-only.
    case schemaTooNew(path: String, found: Int, known: Int)
    /// The file or its folder cannot be created or opened.
    case cannotOpen(path: String, reason: String)
    /// A row named by id does not exist.
    case notFound(what: String, id: Int64)
    /// The change would break a rule that involves other rows (a name taken, a station in use).
    case conflict(String)
    /// The value breaks a rule of its own (a validation sentence from AubadeCore).
    case invalid(String)
    /// The value has the right form but names what is not there or cannot be used (`ValidationError.unprocessable`).
    case unprocessable(String)
    /// Stored data failed validation (written by something else, or by a buggy older version).
    case invalidRow(table: String, id: Int64?, reason: String)
    /// Any other SQLite failure, with SQLite's message.
    case sqlite(String)
    /// The store takes no changes (the clock runs from the backup copy), with the sentence saying why.
    case readOnly(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "The database \(path) is unreadable (\(reason))."
        case .schemaTooNew(let path, let found, let known):
            "The database \(path) has schema version \(found), newer than this aubade knows (\(known)); it is open read-only, so upgrade aubade to change it."
        case .cannotOpen(let path, let reason):
            "The database \(path) cannot be opened (\(reason))."
        case .notFound(let what, let id):
            "No \(what) has id \(id)."
        case .conflict(let message), .invalid(let message), .unprocessable(let message):
            message
        case .invalidRow(let table, let id, let reason):
            "Row \(id.map(String.init) ?? "?") of \(table) holds invalid data: \(reason)"
        case .sqlite(let message):
            "The database failed: \(message)."
        case .readOnly(let message):
            message
        }
    }
}

extension StoreError {
    /// A validation sentence as the store refuses it: `invalid`, or `unprocessable` when the value had its form.
    public init(_ error: ValidationError) {
        switch error.kind {
        case .malformed: self = .invalid(error.message)
        case .unprocessable: self = .unprocessable(error.message)
        }
    }
}
