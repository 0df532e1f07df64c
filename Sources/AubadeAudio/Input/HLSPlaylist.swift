public import AubadeCore
import Foundation

/// An HLS playlist (RFC 8216) as far as a radio needs it: a master playlist's variants, or a media playlist's
/// segments. Pure: parsed from bytes, addresses resolved against the playlist's own. At most 1 MiB and 10,000
/// segments; an address that is not http(s) is skipped as in other playlists (R24).
public enum HLSPlaylist: Equatable, Sendable {
    case master([Variant])
    case media(Media)

    public static let maxBytes = 1024 * 1024
    /// The highest variant bandwidth picked unless the config says otherwise: 128 kbit/s, so a Pi on weak Wi-Fi
    /// does not starve.
    public static let defaultBandwidthCap = 128_000
    static let maxSegments = 10_000

    public struct Variant: Equatable, Sendable {
        public var url: StreamURL
        /// Its peak bit rate (`BANDWIDTH`), bits per second.
        public var bandwidth: Int
        /// Its `CODECS`, lower case (empty when it names none).
        public var codecs: [String]

        /// Whether its codecs are ones this clock decodes (AAC in any profile, MP3, Opus, FLAC, Vorbis; video is
        /// ignored); a variant that names none is assumed to carry AAC, as HLS audio does.
        public var isPlayable: Bool {
            let audio = codecs.filter { !$0.hasPrefix("avc") && !$0.hasPrefix("hvc") && !$0.hasPrefix("hev") }
            guard !codecs.isEmpty else { return true }
            return !audio.isEmpty
                && audio.allSatisfy { $0.hasPrefix("mp4a.40.") || $0 == "opus" || $0 == "flac" || $0 == "vorbis" }
        }
    }

    public struct Segment: Equatable, Sendable {
        /// Its media sequence number.
        public var sequence: Int
        public var url: StreamURL
        public var duration: Double
        /// An `#EXT-X-DISCONTINUITY` comes before it.
        public var discontinuity: Bool
        /// The `#EXT-X-MAP` (fMP4 init section) in force for it.
        public var map: StreamURL?
    }

    public struct Media: Equatable, Sendable {
        public var targetDuration: Double
        public var segments: [Segment]
        /// `#EXT-X-ENDLIST`: nothing will be added (not live).
        public var ended: Bool
        /// The encryption named by an `#EXT-X-KEY` other than `NONE` (`AES-128`, `SAMPLE-AES`), if any.
        public var encryption: String?
    }

    public static func parse(_ data: [UInt8], base: String) throws(PlaylistError) -> HLSPlaylist {
        guard data.count <= maxBytes else { throw PlaylistError(description: "The HLS playlist is larger than 1 MiB.") }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard lines.first?.uppercased() == "#EXTM3U" else {
            throw PlaylistError(description: "The HLS playlist does not begin with #EXTM3U.")
        }
        let baseURL = URL(string: base)
        func resolve(_ s: String) -> StreamURL? {
            guard let absolute = URL(string: s, relativeTo: baseURL)?.absoluteString else { return nil }
            return try? StreamURL(parsing: absolute)
        }
        if lines.contains(where: { $0.hasPrefix("#EXT-X-STREAM-INF:") }) {
            var variants: [Variant] = []
            var pending: [String: String]?
            for line in lines {
                if line.hasPrefix("#EXT-X-STREAM-INF:") {
                    pending = attributes(String(line.dropFirst("#EXT-X-STREAM-INF:".count)))
                } else if !line.hasPrefix("#"), let attrs = pending {
                    pending = nil
                    guard let url = resolve(line) else { continue }
                    variants.append(
                        Variant(
                            url: url, bandwidth: Int(attrs["BANDWIDTH"] ?? "") ?? 0,
                            codecs: (attrs["CODECS"] ?? "").lowercased().split(separator: ",").map {
                                // Named in a sentence when none plays: made plain where it enters (R40).
                                OutsideText.clean($0.trimmingCharacters(in: .whitespaces), limit: 40)
                            }.filter { !$0.isEmpty }))
                }
            }
            guard !variants.isEmpty else {
                throw PlaylistError(description: "The HLS master playlist has no http or https variant.")
            }
            return .master(variants)
        }
        var media = Media(targetDuration: 10, segments: [], ended: false, encryption: nil)
        var sequence = 0
        var duration: Double?
        var discontinuity = false
        var map: StreamURL?
        for line in lines {
            if line.hasPrefix("#EXT-X-TARGETDURATION:") {
                media.targetDuration = max(1, min(60, Double(line.dropFirst("#EXT-X-TARGETDURATION:".count)) ?? 10))
            } else if line.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") {
                sequence = Int(line.dropFirst("#EXT-X-MEDIA-SEQUENCE:".count)) ?? 0
            } else if line.hasPrefix("#EXTINF:") {
                let value = line.dropFirst("#EXTINF:".count).prefix { $0 != "," }
                duration = Double(value.trimmingCharacters(in: .whitespaces)) ?? media.targetDuration
            } else if line == "#EXT-X-DISCONTINUITY" {
                discontinuity = true
            } else if line == "#EXT-X-ENDLIST" {
                media.ended = true
            } else if line.hasPrefix("#EXT-X-KEY:") {
                let method = attributes(String(line.dropFirst("#EXT-X-KEY:".count)))["METHOD"]?.uppercased() ?? "NONE"
                // Named in a sentence: made plain where it enters (R40).
                if method != "NONE" { media.encryption = OutsideText.clean(method, limit: 24) }
            } else if line.hasPrefix("#EXT-X-MAP:") {
                map = attributes(String(line.dropFirst("#EXT-X-MAP:".count)))["URI"].flatMap(resolve)
            } else if !line.hasPrefix("#") {
                defer {
                    sequence += 1
                    duration = nil
                    discontinuity = false
                }
                guard media.segments.count < maxSegments, let url = resolve(line) else { continue }
                media.segments.append(
                    Segment(
                        sequence: sequence, url: url, duration: duration ?? media.targetDuration,
                        discontinuity: discontinuity, map: map))
            }
        }
        return .media(media)
    }

    /// `NAME=value,NAME="quoted, value"` as a dictionary (names upper case, quotes removed).
    static func attributes(_ list: String) -> [String: String] {
        var result: [String: String] = [:]
        var name = "", value = "", inName = true, quoted = false
        func flush() {
            if !name.isEmpty { result[name.trimmingCharacters(in: .whitespaces).uppercased()] = value }
            name = ""
            value = ""
            inName = true
        }
        for ch in list {
            if inName {
                if ch == "=" { inName = false } else if ch != "," { name.append(ch) }
            } else if ch == "\"" {
                quoted.toggle()
            } else if ch == "," && !quoted {
                flush()
            } else {
                value.append(ch)
            }
        }
        flush()
        return result
    }

    /// The variant to play: the highest bandwidth at or under `cap` among those this clock can decode; when none is
    /// under the cap, the lowest. Nil when none can be decoded.
    public static func choose(_ variants: [Variant], cap: Int) -> Variant? {
        let playable = variants.filter(\.isPlayable)
        return playable.filter { $0.bandwidth <= cap }.max { $0.bandwidth < $1.bandwidth }
            ?? playable.min { $0.bandwidth < $1.bandwidth }
    }
}

/// Where a live HLS stream is read from, reload after reload: which segments to fetch next, when to look at the
/// playlist again, and when a playlist that stopped growing is a fault. Pure (times are given), property-tested.
///
/// It starts `liveEdgeSegments` segments back from the newest (what players do, so a start is not starved), or
/// at the first of a playlist that has ended; never fetches a segment twice nor one older than the last fetched,
/// across reloads and reconnects; reloads after one target duration when the playlist grew, half of one when it
/// did not (RFC 8216 §6.3.4); and calls the stream stalled when no new segment appeared for `staleAfter` —
/// `max(stallTimeout, 1.5 × target duration)`.
public struct HLSLivePlan: Equatable, Sendable {
    public static let liveEdgeSegments = 3

    /// The newest segment handed out to fetch.
    public private(set) var lastSequence: Int?
    /// The map (init section) the fetched segments need, the last one handed out.
    public private(set) var lastMap: StreamURL?
    /// When the last new segment was seen.
    private var lastGrowth: Duration?
    private var targetDuration: Double = 10
    private var grew = false
    /// The segment whose break was carried out.
    private var acceptedBreak: Int?

    public init() {}

    public enum Step: Equatable, Sendable {
        /// Fetch these, in order.
        case fetch([HLSPlaylist.Segment])
        /// The stream has a discontinuity before this segment (or its map changes): a new stream begins there.
        case discontinuity(HLSPlaylist.Segment)
        /// The playlist has ended and everything was fetched.
        case ended
    }

    /// A playlist (re)loaded at `now`: what to do with it.
    public mutating func loaded(_ media: HLSPlaylist.Media, at now: Duration) -> Step {
        targetDuration = media.targetDuration
        let fresh: [HLSPlaylist.Segment]
        if let lastSequence {
            fresh = media.segments.filter { $0.sequence > lastSequence }
        } else {
            fresh = media.ended ? media.segments : Array(media.segments.suffix(HLSLivePlan.liveEdgeSegments))
        }
        grew = !fresh.isEmpty
        if grew || lastGrowth == nil { lastGrowth = now }
        guard !fresh.isEmpty else { return media.ended ? .ended : .fetch([]) }
        // A discontinuity (or a new map) after the first segment read ends this stream before it.
        var take: [HLSPlaylist.Segment] = []
        for segment in fresh {
            let breaks =
                lastSequence != nil && segment.sequence != acceptedBreak && (segment.discontinuity || segment.map != lastMap)
            if breaks {
                if take.isEmpty { return .discontinuity(segment) }
                break
            }
            take.append(segment)
            lastSequence = segment.sequence
            lastMap = segment.map
        }
        return .fetch(take)
    }

    /// The break before `segment` was carried out (a new stream begins with it): the next load hands it out.
    public mutating func accept(_ segment: HLSPlaylist.Segment) { acceptedBreak = segment.sequence }

    /// When to load the playlist again after a load at `loadedAt`.
    public func nextReload(after loadedAt: Duration) -> Duration {
        loadedAt + .milliseconds(Int((grew ? targetDuration : targetDuration / 2) * 1000))
    }

    /// Whether, at `now`, no new segment has appeared for too long.
    public func isStale(at now: Duration, stallTimeout: Duration) -> Bool {
        guard let lastGrowth else { return false }
        return now - lastGrowth > max(stallTimeout, .milliseconds(Int(targetDuration * 1500)))
    }
}
