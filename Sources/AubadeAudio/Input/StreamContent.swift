import Foundation

/// What an HTTP response carries, decided from its Content-Type, the URL's suffix and the first bytes
/// (R22, R24). Only MPEG audio is decoded; playlists are resolved; HTML is never audio nor a playlist.
public enum StreamContent: Equatable, Sendable {
    case mpegAudio
    case playlist(PlaylistFormat)
    /// HLS (`#EXT-X-…` tags): recognised and refused until supported.
    case hls
    /// An HTML page (an error page, a player page, a captive portal), even with status 200.
    case html
    /// Audio we cannot decode (AAC, Ogg, …) or something else entirely; the reason is a sentence.
    case unsupported(String)

    /// Classifies a response. `prefix` is the first bytes of the body (at least 512 when available).
    public static func classify(contentType: String?, url: String, prefix: [UInt8]) -> StreamContent {
        let type =
            (contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        let text = String(decoding: prefix.prefix(512), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let lowerText = text.lowercased().replacingOccurrences(of: "\u{FEFF}", with: "")
        if type == "text/html" || type == "application/xhtml+xml" || lowerText.hasPrefix("<!doctype html")
            || lowerText.hasPrefix("<html")
        {
            return .html
        }
        if lowerText.hasPrefix("#extm3u") || lowerText.hasPrefix("[playlist]") || playlistTypes[type] != nil
            || (isTextual(type) && playlistSuffix(url) != nil)
        {
            if lowerText.contains("#ext-x-") { return .hls }
            if lowerText.hasPrefix("[playlist]") { return .playlist(.pls) }
            if lowerText.hasPrefix("#extm3u") { return .playlist(.m3u) }
            return .playlist(playlistTypes[type] ?? playlistSuffix(url) ?? .m3u)
        }
        if mpegTypes.contains(type) { return .mpegAudio }
        if type.isEmpty || type == "application/octet-stream" || type == "binary/octet-stream" {
            if looksLikeMPEG(prefix) { return .mpegAudio }
            return .unsupported("The stream's content is not recognisable as MP3 audio.")
        }
        if type.hasPrefix("audio/") || type.hasPrefix("application/ogg") {
            return .unsupported("The stream is \(type), which Aubade cannot play; pick the station's MP3 stream.")
        }
        return .unsupported("The stream is \(type), not audio.")
    }

    static let mpegTypes: Set<String> = [
        "audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg", "audio/x-mp3",
        "audio/mpg", "audio/x-mpeg-3",
    ]
    static let playlistTypes: [String: PlaylistFormat] = [
        "audio/x-scpls": .pls, "application/pls+xml": .pls, "audio/scpls": .pls,
        "audio/x-mpegurl": .m3u, "audio/mpegurl": .m3u, "application/x-mpegurl": .m3u,
        "application/vnd.apple.mpegurl": .m3u,
    ]

    static func isTextual(_ type: String) -> Bool {
        type.isEmpty || type.hasPrefix("text/plain") || type == "application/octet-stream"
    }

    static func playlistSuffix(_ url: String) -> PlaylistFormat? {
        let path = (URLComponents(string: url)?.path ?? url).lowercased()
        if path.hasSuffix(".pls") { return .pls }
        if path.hasSuffix(".m3u") || path.hasSuffix(".m3u8") { return .m3u }
        return nil
    }

    /// An ID3v2 tag or an MPEG audio frame sync (11 set bits, a valid layer and bitrate) near the start.
    static func looksLikeMPEG(_ bytes: [UInt8]) -> Bool {
        if bytes.count >= 3, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 { return true }  // "ID3"
        guard bytes.count >= 4 else { return false }
        for i in 0..<(bytes.count - 3) where bytes[i] == 0xFF && bytes[i + 1] & 0xE0 == 0xE0 {
            let layer = (bytes[i + 1] >> 1) & 0x3, bitrate = bytes[i + 2] >> 4, rate = (bytes[i + 2] >> 2) & 0x3
            if layer != 0 && bitrate != 0 && bitrate != 0xF && rate != 0x3 { return true }
        }
        return false
    }
}
