public import AubadeCore
public import Foundation

/// The logos of stations saved from the public directory, beside the database (`<database>.logos/`), one file
/// each named `<directory id>.<png|jpg|gif|ico|webp>` (`DirectoryLink.logo`): the pages show them without
/// asking the network, and a directory that is down changes nothing.
public struct StationLogos: Sendable {
    public let folder: String
    /// A logo larger than this is not kept (the directory's are a few KB; a bad one can be megabytes).
    public static let maxBytes = 256 * 1024

    public init(databasePath: String) {
        folder = databasePath + ".logos"
    }

    /// The file's type from its first bytes, as `DirectoryLink.logoExtensions` names it; nil for anything else
    /// (SVG too: a script in it would run on the clock's own origin).
    public static func kind(of bytes: [UInt8]) -> String? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && Array(bytes[offset..<(offset + magic.count)]) == magic
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "jpg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "gif" }
        if starts([0x00, 0x00, 0x01, 0x00]) { return "ico" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "webp" }
        return nil
    }

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
