public import AubadeCore
import Foundation

public enum PlaylistFormat: String, Sendable {
    case pls, m3u
}

/// Why a playlist was refused; `description` is one sentence.
public struct PlaylistError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
}

/// Reads PLS, M3U and extended M3U playlists (R24): a BOM, CRLF line ends and comments are handled; at most
/// 64 KiB and 64 entries; relative entries resolve against the playlist's own URL; each entry must be an
/// http(s) URL that passes `StreamURL`'s checks. An HLS playlist is not a list of streams: it is refused here
/// (`StreamFetcher` follows it with `HLSFetcher`).
public enum PlaylistParser {
    public static let maxBytes = 64 * 1024
    public static let maxEntries = 64

    public static func entries(in data: [UInt8], format: PlaylistFormat, base: String) throws(PlaylistError) -> [StreamURL] {
        guard data.count <= maxBytes else {
            throw PlaylistError(description: "The playlist is larger than 64 KiB.")
        }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if lines.contains(where: { $0.uppercased().hasPrefix("#EXT-X-") }) {
            throw PlaylistError(
                description: "The playlist is an HLS playlist, not a list of streams.")
        }
        let raw: [String]
        switch format {
        case .pls: raw = plsEntries(lines)
        case .m3u: raw = lines.filter { !$0.hasPrefix("#") }
        }
        var urls: [StreamURL] = []
        for entry in raw {
            guard urls.count < maxEntries else { break }
            guard let absolute = URL(string: entry, relativeTo: URL(string: base))?.absoluteString,
                let url = try? StreamURL(parsing: absolute)
            else { continue }
            urls.append(url)
        }
        guard !urls.isEmpty else {
            throw PlaylistError(description: "The playlist has no http or https entry to play.")
        }
        return urls
    }

    /// `FileN=url` lines in N order (PLS numbers from 1; missing numbers are skipped).
    private static func plsEntries(_ lines: [String]) -> [String] {
        var numbered: [(Int, String)] = []
        for line in lines {
            guard line.lowercased().hasPrefix("file"), let eq = line.firstIndex(of: "="),
                let n = Int(line[line.index(line.startIndex, offsetBy: 4)..<eq])
            else { continue }
            numbered.append((n, String(line[line.index(after: eq)...]).trimmingCharacters(in: .whitespaces)))
        }
        return numbered.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
