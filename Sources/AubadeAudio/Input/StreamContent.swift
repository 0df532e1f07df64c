import Foundation

/// How a stream's audio is packed, and so which demuxer reads it: MPEG audio goes to libmpg123, the others to
/// libavformat's demuxer of the same name (`FFmpegStream`).
public enum AudioContainer: String, Sendable, Equatable, CaseIterable {
    /// MPEG-1/2 audio frames (MP3), with or without an ID3 tag before them.
    case mpeg
    /// AAC in ADTS frames (`audio/aac`, `audio/aacp`; HLS packed audio).
    case adts
    /// Ogg pages: Vorbis or Opus inside.
    case ogg
    /// Native FLAC.
    case flac
    /// ISO base media (MP4, M4A, fragmented MP4 / CMAF): AAC inside.
    case mp4
    /// MPEG transport stream (HLS segments): ADTS AAC inside.
    case mpegts

    /// The libavformat demuxer that reads it (nil for MPEG audio, which libmpg123 reads).
    var demuxer: String? {
        switch self {
        case .mpeg: nil
        case .adts: "aac"
        case .ogg: "ogg"
        case .flac: "flac"
        case .mp4: "mov"
        case .mpegts: "mpegts"
        }
    }
}

/// What an HTTP response carries, decided from its Content-Type and its first bytes — never from the URL's ending
/// for audio (R22, R24). Audio goes to its decoder; playlists are resolved; HLS is followed segment by segment
/// (`HLSFetcher`); HTML is never audio nor a playlist.
public enum StreamContent: Equatable, Sendable {
    case audio(AudioContainer)
    case playlist(PlaylistFormat)
    /// An HLS playlist (`#EXT-X-…` tags): a master or a media playlist.
    case hls
    /// An HTML page (an error page, a player page, a captive portal), even with status 200.
    case html
    /// Audio we cannot decode (WMA, …) or something else entirely; the reason is a sentence.
    case unsupported(String)

    /// Classifies a response. `prefix` is the first bytes of the body (at least 512 when available).
    public static func classify(contentType: String?, url: String, prefix: [UInt8]) -> StreamContent {
        let type = mediaType(contentType)
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
        // The bytes decide where they are unmistakable (a station labelled audio/mpeg that sends AAC plays as AAC);
        // MPEG frame syncs are loose, so they decide only where the type does not.
        if let sniffed = sniff(prefix) { return .audio(sniffed) }
        if let typed = audioTypes[type] { return .audio(typed) }
        if type.isEmpty || type == "application/octet-stream" || type == "binary/octet-stream" {
            if looksLikeMPEG(prefix) { return .audio(.mpeg) }
            return .unsupported("The stream's content is not recognisable as audio Aubade plays (MP3, AAC, Ogg or FLAC).")
        }
        if type.hasPrefix("audio/") || type.hasPrefix("application/ogg") {
            return .unsupported("The stream is \(type), which Aubade cannot play; pick the station's MP3, AAC or Ogg stream.")
        }
        return .unsupported("The stream is \(type), not audio.")
    }

    /// The container the first bytes show beyond doubt: Ogg and FLAC by their capture words, MP4 by its `ftyp` box,
    /// a transport stream by sync bytes every 188 bytes, ADTS by two frame headers in a row (after an ID3 tag, as
    /// HLS packed audio has). Nil when they do not (MPEG audio included: its sync is judged with the type).
    public static func sniff(_ bytes: [UInt8]) -> AudioContainer? {
        if bytes.starts(with: Array("OggS".utf8)) { return .ogg }
        if bytes.starts(with: Array("fLaC".utf8)) { return .flac }
        if bytes.count >= 8, bytes[4...7].elementsEqual("ftyp".utf8) || bytes[4...7].elementsEqual("styp".utf8) {
            return .mp4
        }
        if bytes.count >= 3 * 188, (0..<3).allSatisfy({ bytes[$0 * 188] == 0x47 }) { return .mpegts }
        var start = 0
        if let tag = id3TagLength(bytes) {
            start = tag
            // Tags one after another (a packed-audio segment may carry two).
            while let next = id3TagLength(Array(bytes[min(start, bytes.count)...])) { start += next }
        }
        if let length = adtsFrameLength(bytes, at: start) {
            let second = start + length
            if second + 2 > bytes.count || adtsFrameLength(bytes, at: second) != nil { return .adts }
        }
        return nil
    }

    /// The length of the ID3v2 tag that begins `bytes`, header, footer and all; nil when none begins it.
    public static func id3TagLength(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33, bytes[3] < 0xFF, bytes[4] < 0xFF,
            bytes[6..<10].allSatisfy({ $0 < 0x80 })
        else { return nil }
        let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1) }
        return 10 + size + (bytes[5] & 0x10 != 0 ? 10 : 0)
    }

    /// The length of the ADTS frame whose header begins at `i` (sync, layer 0, a valid sampling index and a length
    /// that holds the header); nil when none does.
    static func adtsFrameLength(_ b: [UInt8], at i: Int) -> Int? {
        guard i >= 0, i + 7 <= b.count, b[i] == 0xFF, b[i + 1] & 0xF6 == 0xF0 else { return nil }
        let samplingIndex = (b[i + 2] >> 2) & 0xF
        guard samplingIndex < 13 else { return nil }
        let length = Int(b[i + 3] & 0x3) << 11 | Int(b[i + 4]) << 3 | Int(b[i + 5] >> 5)
        let header = b[i + 1] & 0x1 == 0 ? 9 : 7
        return length > header ? length : nil
    }

    /// Whether a response of this type will be decoded by FFmpeg (AAC, Ogg, FLAC, MP4, MPEG-TS, or an HLS playlist):
    /// a hint to get the libraries ready, never what decides the decoder.
    static func needsFFmpeg(contentType: String?) -> Bool {
        let type = mediaType(contentType)
        if let container = audioTypes[type] { return container != .mpeg }
        return type == "application/vnd.apple.mpegurl"
    }

    /// A Content-Type's media type, lower case, its parameters dropped ("audio/mpeg; charset=x" → "audio/mpeg").
    static func mediaType(_ contentType: String?) -> String {
        (contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    static let audioTypes: [String: AudioContainer] = [
        "audio/mpeg": .mpeg, "audio/mp3": .mpeg, "audio/mpeg3": .mpeg, "audio/x-mpeg": .mpeg, "audio/x-mp3": .mpeg,
        "audio/mpg": .mpeg, "audio/x-mpeg-3": .mpeg,
        "audio/aac": .adts, "audio/aacp": .adts, "audio/x-aac": .adts, "audio/x-aacp": .adts,
        "audio/ogg": .ogg, "application/ogg": .ogg, "audio/x-ogg": .ogg, "audio/opus": .ogg, "audio/vorbis": .ogg,
        "audio/flac": .flac, "audio/x-flac": .flac,
        "audio/mp4": .mp4, "audio/x-m4a": .mp4, "audio/m4a": .mp4, "video/mp4": .mp4,
        "video/mp2t": .mpegts,
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
