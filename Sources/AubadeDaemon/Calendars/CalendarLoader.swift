public import AubadeApp
public import AubadeCalendar
public import AubadeCore
import AubadeHTTP
public import AubadeStore
public import Foundation

/// The calendar port (`CalendarFetcher`) over the adapters: a file read here, a URL downloaded through curl
/// (`HTTPFetch`, or the `download` a test gives), the bytes read by AubadeCalendar's `CalendarReader` (libical
/// for iCalendar) into the `CalendarImport` that `ClockEdit.importCalendar` carries to `Store.apply`, and staged
/// in the calendar cache beside the database (`CalendarCache`): the store makes them the source's cached copy once
/// the import commits, so a failed or refused one never replaces the last good copy. The same code serves
/// `aubade program import`, `days-off import`, the API and the daemon's scheduled refresh, so every path refuses
/// with the same sentence.
///
/// Contract: `load` blocks (a download, file reads, an fsync): call it on a dedicated thread, never on the
/// cooperative pool or the clock's thread. A bad file or address is `invalid` (exit 2), a download that fails is
/// `failed` (exit 1).
public struct CalendarLoader: CalendarFetcher {
    /// Where a calendar comes from.
    public typealias Source = CalendarOrigin

    /// Downloads a calendar's bytes: at most `maxBytes`, loopback addresses only when allowed. Blocking.
    public typealias Download =
        @Sendable (_ url: StreamURL, _ maxBytes: Int, _ allowLoopback: Bool)
        throws(CalendarFetchError) -> [UInt8]

    /// The linked libical's version ("3.0.16"), for `aubade version`.
    public static var libicalVersion: String { LibICal.version }

    /// The download through curl, with `HTTPFetch`'s rules (R21, R32).
    public static let curl: Download = { url, maxBytes, allowLoopback throws(CalendarFetchError) in
        do throws(HTTPFetch.Failure) {
            return try HTTPFetch.get(url, what: "a calendar", maxBytes: maxBytes, allowLoopback: allowLoopback)
        } catch {
            throw CalendarFetchError(.failed, error.description)
        }
    }

    public let cache: CalendarCache
    public let allowLoopback: Bool
    public let horizonDays: Int
    private let download: Download

    public init(
        cache: CalendarCache, allowLoopback: Bool, horizonDays: Int = CalendarReadOptions.defaultHorizonDays,
        download: @escaping Download = CalendarLoader.curl
    ) {
        self.cache = cache
        self.allowLoopback = allowLoopback
        self.horizonDays = horizonDays
        self.download = download
    }

    /// Reads and checks `source` as `kind`, read at `now` in `zone`. `known` is the source as stored (its hash):
    /// bytes equal to the stored ones are not staged again (no write for an unchanged calendar, R29).
    public func load(
        _ source: Source, kind: CalendarImport.Kind, station: String?, zone: TimeZone, now: Date,
        known: CalendarSource? = nil
    ) throws(CalendarFetchError) -> CalendarImport {
        let bytes = try read(source)
        let location = source.location
        var calendar: CalendarImport
        do throws(CalendarError) {
            calendar = try CalendarReader.read(
                bytes, kind: kind, location: location, station: station,
                options: CalendarReadOptions(clockZone: zone, now: now, horizonDays: horizonDays))
        } catch {
            throw CalendarFetchError(.invalid, error.sentence(location: location))
        }
        if case .cached = source { return calendar }
        if let known, known.contentHash == calendar.contentHash, cache.cachedName(sourceID: known.id) != nil { return calendar }
        do throws(StoreError) {
            calendar.staged = try cache.stage(Data(bytes), format: calendar.format)
        } catch {
            throw CalendarFetchError(.failed, error.description)
        }
        return calendar
    }

    private func read(_ source: Source) throws(CalendarFetchError) -> [UInt8] {
        switch source {
        case .file(let path):
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CalendarFetchError(.invalid, "There is no file \(path).")
            }
            guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
                throw CalendarFetchError(.invalid, "The file \(path) cannot be read.")
            }
            return Array(data)
        case .url(let url):
            return try download(url, CalendarReader.maxBytes, allowLoopback)
        case .cached(let stored):
            guard let name = cache.cachedName(sourceID: stored.id) else {
                throw CalendarFetchError(.failed, "The cached copy of \(stored.location) is missing from \(cache.folder).")
            }
            do throws(StoreError) {
                return Array(try cache.read(name))
            } catch {
                throw CalendarFetchError(.failed, error.description)
            }
        }
    }
}

extension CalendarOrigin {
    /// What the user typed: an http(s) URL, else a file path (made absolute against `directory`).
    public static func parse(_ text: String, directory: String) throws(ClockError) -> CalendarOrigin {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("http://") || trimmed.lowercased().hasPrefix("https://") {
            do throws(ValidationError) {
                return .url(try StreamURL(parsing: trimmed))
            } catch {
                throw ClockError(.invalid, error.message.replacingOccurrences(of: "Stream URL", with: "Calendar URL"))
            }
        }
        guard !trimmed.isEmpty else { throw ClockError(.invalid, "Name a calendar: a file or an http(s) URL.") }
        guard !trimmed.contains("://") else {
            throw ClockError(.invalid, "Calendar address '\(trimmed)' is neither a file nor an http(s) URL.")
        }
        let path = trimmed.hasPrefix("/") ? trimmed : (directory as NSString).appendingPathComponent(trimmed)
        return .file(path: (path as NSString).standardizingPath)
    }
}
