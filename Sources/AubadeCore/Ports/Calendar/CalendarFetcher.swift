public import Foundation

/// Port: reads a calendar source — a file, an http(s) URL, or the cached copy of a source already imported — into
/// the `CalendarImport` that `ClockEdit.importCalendar` carries to the store, its bytes checked and staged beside
/// the store, which makes them the source's cached copy once the import commits (a failed or refused import never
/// replaces the last good copy). Implementation: `CalendarLoader` (the daemon's composition: the download through
/// curl, libical's reader, the store's calendar cache); the clock has none where its store keeps no calendars.
///
/// Contract: `load` blocks (a download, file reads, an fsync): call it on a thread of its own, never on the
/// cooperative pool or the clock's thread. `known` is the source as stored: bytes equal to the stored ones are not
/// staged again (no write for an unchanged calendar, R29). Refusals are `CalendarFetchError` sentences.
public protocol CalendarFetcher: Sendable {
    func load(
        _ source: CalendarOrigin, kind: CalendarImport.Kind, station: String?, zone: TimeZone, now: Date,
        known: CalendarSource?
    ) throws(CalendarFetchError) -> CalendarImport
}

/// Where a calendar comes from.
public enum CalendarOrigin: Sendable, Hashable {
    case file(path: String)
    case url(StreamURL)
    /// The cached copy of a source already imported (its location stays the source's own).
    case cached(CalendarSource)

    /// The location stored for the source: the absolute path or the URL.
    public var location: String {
        switch self {
        case .file(let path): path
        case .url(let url): url.text
        case .cached(let source): source.location
        }
    }
}

/// Why a calendar could not be read: the source itself is bad (`invalid`: a missing file, a bad address, a
/// calendar libical cannot read) or the reading failed (`failed`: the download, the cache).
public struct CalendarFetchError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case invalid, failed
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
