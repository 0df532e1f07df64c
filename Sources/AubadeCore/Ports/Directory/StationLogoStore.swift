public import Foundation

/// Port: the logos of stations saved from the public directory, kept beside the database. Implementation:
/// `StationLogos` (AubadeStore: `<database>.logos/`).
///
/// Contract: every call touches files (a write is fsync'd): call it on a thread of its own, never on the clock's
/// thread or the cooperative pool. A name is a file name the store gave (`DirectoryLink.logo`), never a path: one
/// with a "/" or a leading "." reads as nothing and removes nothing.
public protocol StationLogoStore: Sendable {
    /// The largest logo kept, in bytes (a download is cut off there).
    var maxBytes: Int { get }
    /// Keeps `bytes` as the logo of the directory station `id`; returns its file name. Throws `.invalid` for bytes
    /// that are not a PNG, JPEG, GIF, ICO or WebP image or are too large, a `StoreError` when the folder fails.
    func save(_ bytes: [UInt8], id: String) throws(StoreError) -> String
    /// The logo's bytes, nil when it is not there.
    func read(_ name: String) -> Data?
    /// Deletes a logo; nothing when it is not there.
    func remove(_ name: String)
}

extension DirectoryLink {
    /// A logo's file extension from its first bytes (one of `logoExtensions`); nil for anything else — SVG too: a
    /// script in it would run on the clock's own origin.
    public static func logoExtension(of bytes: [UInt8]) -> String? {
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

    /// The media type a logo file is served as, from its extension (nil for a name that is not a logo's).
    public static func logoMediaType(of name: String) -> String? {
        switch name.split(separator: ".").last {
        case "png": "image/png"
        case "jpg": "image/jpeg"
        case "gif": "image/gif"
        case "ico": "image/x-icon"
        case "webp": "image/webp"
        default: nil
        }
    }
}
