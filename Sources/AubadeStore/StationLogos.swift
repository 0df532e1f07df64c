public import AubadeCore
public import Foundation

/// The logos of stations saved from the public directory, beside the database (`<database>.logos/`), one file
/// each named `<directory id>.<png|jpg|gif|ico|webp>` (`DirectoryLink.logo`): the pages show them without
/// asking the network, and a directory that is down changes nothing.
public struct StationLogos: StationLogoStore {
    public let folder: String
    /// A logo larger than this is not kept (the directory's are a few KB; a bad one can be megabytes).
    public static let maxBytes = 256 * 1024
    public var maxBytes: Int { StationLogos.maxBytes }

    public init(databasePath: String) {
        folder = databasePath + ".logos"
    }

    /// The file's type from its first bytes, as `DirectoryLink.logoExtensions` names it; nil for anything else
    /// (SVG too: a script in it would run on the clock's own origin).
    public static func kind(of bytes: [UInt8]) -> String? { DirectoryLink.logoExtension(of: bytes) }

    /// Keeps `bytes` as the logo of the directory station `id` (fsync'd); returns its file name.
    public func save(_ bytes: [UInt8], id: String) throws(StoreError) -> String {
        guard let kind = StationLogos.kind(of: bytes) else {
            throw .invalid("The logo is not a PNG, JPEG, GIF, ICO or WebP image.")
        }
        guard bytes.count <= StationLogos.maxBytes else {
            throw .invalid("The logo is \(bytes.count / 1024) KiB; at most \(StationLogos.maxBytes / 1024) KiB are kept.")
        }
        let name = "\(try DirectoryQuery.stationIDOrStoreError(id)).\(kind)"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try DurableFile.replace(folder + "/" + name, with: Data(bytes), temp: folder + "/" + name + ".tmp")
        } catch {
            throw .cannotOpen(path: folder, reason: "the station logo folder cannot hold a new file (\(error))")
        }
        return name
    }

    /// The logo's bytes, nil when it is not there.
    public func read(_ name: String) -> Data? {
        guard !name.contains("/"), !name.hasPrefix(".") else { return nil }
        return FileManager.default.contents(atPath: folder + "/" + name)
    }

    /// Deletes a logo (a station removed, or saved without it); nothing when it is not there.
    public func remove(_ name: String) {
        guard !name.contains("/"), !name.hasPrefix(".") else { return }
        try? FileManager.default.removeItem(atPath: folder + "/" + name)
    }
}

extension DirectoryQuery {
    fileprivate static func stationIDOrStoreError(_ text: String) throws(StoreError) -> String {
        do { return try stationID(text) } catch { throw .invalid(error.message) }
    }
}
