import AubadeAudio
import AubadeCalendar
import AubadeCore
import AubadeStore
import Foundation

/// Reads a calendar source — a file, an http(s) URL, or the cached copy of one — into the `CalendarImport` that
/// `ClockEdit.importCalendar` carries to `Store.apply`, and stages its bytes in the calendar cache beside the
/// database (`CalendarCache`): the store makes them the source's cached copy once the import commits, so a
/// failed or refused one never replaces the last good copy. The same code serves `aubade program import`,
/// `days-off import`, the API and the daemon's scheduled refresh, so every path refuses with the same sentence.
///
/// Contract: `load` blocks (a download, file reads, an fsync): call it on a dedicated thread (`runBlocking`),
/// never on the cooperative pool or the clock's thread. Refusals are `ClockError`s: a bad file or address is
/// `invalid` (exit 2), a download that fails is `failed` (exit 1).
public struct CalendarLoader: Sendable {
    /// Where a calendar comes from.
    public enum Source: Sendable, Hashable {
        case file(path: String)
        case url(StreamURL)
        /// The cached copy of a source already imported (its location stays the source's own).
        case cached(CalendarSource)

        /// What the user typed: an http(s) URL, else a file path (made absolute against `directory`).
        public static func parse(_ text: String, directory: String) throws(ClockError) -> Source {
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

        /// The location stored for the source: the absolute path or the URL.
        public var location: String {
            switch self {
            case .file(let path): path
            case .url(let url): url.text
            case .cached(let source): source.location
            }
        }
    }

    /// The linked libical's version ("3.0.16"), for `aubade version`.
    public static var libicalVersion: String { LibICal.version }

    public let cache: CalendarCache
    public let allowLoopback: Bool
    public let horizonDays: Int

    public init(cache: CalendarCache, allowLoopback: Bool, horizonDays: Int = CalendarReadOptions.defaultHorizonDays) {
        self.cache = cache
        self.allowLoopback = allowLoopback
        self.horizonDays = horizonDays
    }

    /// Reads and checks `source` as `kind`, read at `now` in `zone`. `known` is the source as stored (its hash):
    /// bytes equal to the stored ones are not staged again (no write for an unchanged calendar, R29).
    public func load(_ source: Source, kind: CalendarImport.Kind, station: String?, zone: TimeZone, now: Date,
                     known: CalendarSource? = nil) throws(ClockError) -> CalendarImport {
        let bytes = try read(source)
        let location = source.location
        var calendar: CalendarImport
        do throws(CalendarError) {
            calendar = try CalendarReader.read(bytes, kind: kind, location: location, station: station,
                                               options: CalendarReadOptions(clockZone: zone, now: now, horizonDays: horizonDays))
        } catch {
            throw ClockError(.invalid, error.sentence(location: location))
        }
        if case .cached = source { return calendar }
        if let known, known.contentHash == calendar.contentHash, cache.cachedName(sourceID: known.id) != nil { return calendar }
        do throws(StoreError) {
            calendar.staged = try cache.stage(Data(bytes), format: calendar.format)
        } catch {
            throw ClockError(.failed, error.description)
        }
        return calendar
    }

    private func read(_ source: Source) throws(ClockError) -> [UInt8] {
        switch source {
        case .file(let path):
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ClockError(.invalid, "There is no file \(path).")
            }
            guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
                throw ClockError(.invalid, "The file \(path) cannot be read.")
            }
            return Array(data)
        case .url(let url):
            do throws(HTTPFetch.Failure) {
                return try HTTPFetch.get(url, maxBytes: CalendarReader.maxBytes, allowLoopback: allowLoopback)
            } catch {
                throw ClockError(.failed, error.description)
            }
        case .cached(let stored):
            guard let name = cache.cachedName(sourceID: stored.id) else {
                throw ClockError(.failed, "The cached copy of \(stored.location) is missing from \(cache.folder).")
            }
            do throws(StoreError) {
                return Array(try cache.read(name))
            } catch {
                throw ClockError(.failed, error.description)
            }
        }
    }
}
