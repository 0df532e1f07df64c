/// Port: the public station directory. Implementation: `RadioBrowser` (AubadeDirectory: radio-browser's mirrors,
/// tried in a random order, through curl).
///
/// Contract: every call blocks (a download): call it on a thread of its own, never on the cooperative pool or the
/// clock's thread. Nothing on an alarm's path calls it: alarms play what the library stored.
public protocol StationDirectory: Sendable {
    /// The stations matching `query`, the directory's best-ranked first, each address once.
    func search(_ query: DirectoryQuery) throws(DirectoryError) -> [DirectoryStation]
    /// The stations with these ids as the directory knows them now (ids it no longer knows are left out).
    func stations(ids: [String]) throws(DirectoryError) -> [DirectoryStation]
    /// Tells the directory that a user started playing the station (its popularity count).
    func countClick(id: String) throws(DirectoryError)
    /// The bytes of a station's logo at `address` (the station's own site, not the directory), at most `maxBytes`.
    func logo(at address: String, maxBytes: Int) throws(DirectoryError) -> [UInt8]
}

/// Why the directory could not answer, in one sentence (every mirror tried, and what each did).
public struct DirectoryError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
