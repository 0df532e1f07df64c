import Foundation

/// A station as the public directory (radio-browser) describes it: the fields this clock shows, plays and
/// keeps, its words already plain (`DirectoryAnswer` cleans them as they arrive). Read leniently — the
/// directory's data are crowd-sourced, so a missing or oddly typed field takes its default, and only a station
/// without an id, a name or an address is left out (`DirectoryAnswer`).
public struct DirectoryStation: Sendable, Hashable {
    /// The directory's id (`stationuuid`), the same on every mirror.
    public var uuid: String
    public var name: String
    /// The address with playlists and redirects already resolved by the directory (`url_resolved`).
    public var url: String
    public var homepage: String
    /// The logo's address, if any.
    public var favicon: String
    public var tags: [String]
    /// ISO 3166-1 alpha-2, upper case ("FR"), or empty.
    public var countryCode: String
    public var language: String
    /// As the directory's checker found it: "MP3", "AAC", "AAC+", "OGG"…; empty when never checked.
    public var codec: String
    /// kbps, 0 when unknown.
    public var bitrate: Int
    /// An HTTP Live Streaming playlist rather than a stream.
    public var hls: Bool
    /// Whether the directory's last check reached it.
    public var lastCheckOK: Bool
    /// Plays counted in the last 24 h.
    public var clickCount: Int
    public var votes: Int

    public init(
        uuid: String, name: String, url: String, homepage: String = "", favicon: String = "", tags: [String] = [],
        countryCode: String = "", language: String = "", codec: String = "", bitrate: Int = 0, hls: Bool = false,
        lastCheckOK: Bool = true, clickCount: Int = 0, votes: Int = 0
    ) {
        self.uuid = uuid
        self.name = name
        self.url = url
        self.homepage = homepage
        self.favicon = favicon
        self.tags = tags
        self.countryCode = countryCode
        self.language = language
        self.codec = codec
        self.bitrate = bitrate
        self.hls = hls
        self.lastCheckOK = lastCheckOK
        self.clickCount = clickCount
        self.votes = votes
    }

    /// What the library keeps of it (`station add --from-directory`), its fields made to fit `DirectoryLink`'s
    /// rules: a codec of letters, digits and "+", a homepage only when it is an http(s) address.
    public func link(logo: String? = nil) throws(ValidationError) -> DirectoryLink {
        let codec = codec.uppercased().unicodeScalars.filter {
            ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "+"
        }.prefix(16)
        let homepage = (try? StreamURL(parsing: homepage.trimmingCharacters(in: .whitespaces)))?.text ?? ""
        return try DirectoryLink(
            id: uuid, codec: String(String.UnicodeScalarView(Array(codec))), bitrate: min(max(bitrate, 0), 10_000),
            homepage: homepage,
            country: countryCode.count == 2 && countryCode.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) })
                ? countryCode : "",
            logo: logo)
    }

    /// Whether this clock can play it: MP3, AAC (LC, HE, HE v2), Ogg Vorbis or Opus, or FLAC, over HTTP(S) — as a
    /// stream or as HLS. Video (a codec list with H.264 or another picture format), WMA and the rest are not.
    public var playability: Playability {
        let codecs = codec.uppercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        if let video = codecs.first(where: { DirectoryStation.videoCodecs.contains($0) }) {
            return .cannotPlay("video (\(video))")
        }
        if codecs.isEmpty || codecs == ["UNKNOWN"] {
            // An HLS station that the checker could not read is still most likely AAC, which plays.
            if !hls { return .cannotPlay("an unknown format") }
        } else if let other = codecs.first(where: { !DirectoryStation.playableCodecs.contains($0) }) {
            return .cannotPlay(other)
        }
        return (try? StreamURL(parsing: url)) == nil ? .cannotPlay("not an http(s) address") : .playable
    }

    /// The directory's names for what this clock decodes (libmpg123; FFmpeg's AAC, Vorbis, Opus and FLAC decoders).
    public static let playableCodecs: Set<String> = ["MP3", "AAC", "AAC+", "HE-AAC", "OGG", "VORBIS", "OPUS", "FLAC"]
    static let videoCodecs: Set<String> = ["H.264", "H264", "H.265", "HEVC", "VP8", "VP9", "AV1", "MPEG4", "THEORA"]

    /// The station's address as one key for duplicates: scheme and host in lower case, the default port and an
    /// empty path dropped (`http://Example.com:80/` and `http://example.com` are the same stream).
    public var urlKey: String { DirectoryStation.key(of: url) }

    /// `url` as one key for duplicates (see `urlKey`).
    public static func key(of url: String) -> String {
        guard var parts = URLComponents(string: url.trimmingCharacters(in: .whitespaces)) else { return url }
        parts.scheme = parts.scheme?.lowercased()
        parts.host = parts.host?.lowercased()
        if (parts.scheme == "http" && parts.port == 80) || (parts.scheme == "https" && parts.port == 443) { parts.port = nil }
        if parts.path == "/" { parts.path = "" }
        parts.fragment = nil
        return parts.string ?? url
    }

    /// `stations` with each address once: the first of each (the directory's best-ranked) stays.
    public static func deduplicated(_ stations: [DirectoryStation]) -> [DirectoryStation] {
        var seen: Set<String> = []
        return stations.filter { seen.insert($0.urlKey).inserted }
    }
}

/// Whether a directory station can be played here, and if not, what it is ("WMA", "video (H.264)").
public enum Playability: Sendable, Hashable {
    case playable
    case cannotPlay(String)

    public var isPlayable: Bool { self == .playable }

    /// "cannot play: WMA", or nil when playable.
    public var note: String? {
        guard case .cannotPlay(let what) = self else { return nil }
        return "cannot play: \(what)"
    }
}
