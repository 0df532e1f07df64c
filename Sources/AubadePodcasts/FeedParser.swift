public import AubadeCore
import AubadeHTTP
public import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a podcast feed — RSS 2.0 (with Apple's `itunes:` tags where present) or Atom — into a `PodcastFeed`:
/// each item with an audio enclosure, full episodes only (`itunes:episodeType` trailer and bonus left out), its
/// publication date read in the forms feeds use (RFC 822 in RSS, RFC 3339 in Atom; an unreadable one counts as
/// none). A feed that is not well-formed XML, or neither RSS nor Atom, is refused in one sentence that names the
/// line. Its text — titles, ids, types — is made plain as it is read (`OutsideText`, R40).
///
/// The document is handed to libxml2 in pieces (`XMLParser(stream:)`, 128 KiB at a time), never whole: a push parser
/// given the whole document at once keeps all of it in its input buffer and stops at 10,000,000 bytes ("Huge
/// input lookup", libxml2's XML_MAX_LOOKUP_LIMIT, error 1), and Foundation's XMLParser has no way to set
/// XML_PARSE_HUGE. In pieces, the parser lets go of what it has read, so a feed of any size up to
/// `FeedFetch.maxBytes` is read.
public enum FeedParser {
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public static func parse(_ data: Data) throws(Refusal) -> PodcastFeed {
        guard data.count <= FeedFetch.maxBytes else {
            throw Refusal(
                description:
                    "The feed is \(data.count) bytes long; this clock reads feeds of at most \(HTTPFetch.size(Int64(FeedFetch.maxBytes)))."
            )
        }
        let reader = Reader()
        let parser = XMLParser(stream: InputStream(data: data))
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        // libxml2 recovers from some errors (a mismatched tag) and still reports them: any error refuses the feed.
        let finished = parser.parse()
        if !finished || reader.error != nil {
            let error = reader.error ?? parser.parserError.map { (parser.lineNumber, FeedParser.words($0)) }
            throw Refusal(
                description:
                    "The feed is not well-formed XML (line \(error?.line ?? parser.lineNumber): \(error?.reason ?? "unknown error"))."
            )
        }
        guard let kind = reader.kind else {
            throw Refusal(description: "The document is not a podcast feed (neither RSS nor Atom).")
        }
        let title = OutsideText.clean(reader.feedTitle, limit: Podcast.maxText)
        return PodcastFeed(title: title.isEmpty ? (kind == .atom ? "Atom feed" : "RSS feed") : title, episodes: reader.episodes)
    }

    /// libxml2's error in words (Foundation on Linux describes it only by its number).
    static func words(_ error: any Error) -> String {
        let code = (error as NSError).code
        // NSXMLParserError's numbers (libxml2's own).
        switch code {
        case 76: return "a closing tag does not match its opening tag"
        case 5: return "the document ends too early"
        case 85: return "the tags are not balanced"
        case 4: return "the document is empty"
        case 9: return "an invalid character"
        case 89, 90: return "an entity that refers to itself"
        case 39, 40, 41: return "a broken attribute"
        case 38, 73: return "a broken tag"
        default: return "XML error \(code)"
        }
    }

    /// The XML delegate: collects the feed's title and its items' fields as the elements close.
    final class Reader: NSObject, XMLParserDelegate {
        enum Kind { case rss, atom }
        /// The longest episode id kept, in characters (`Podcast` keeps at most 512 bytes of it).
        static let maxID = 512

        private(set) var kind: Kind?
        private(set) var feedTitle = ""
        private(set) var episodes: [PodcastEpisode] = []
        /// The first error the XML parser reported, with its line.
        private(set) var error: (line: Int, reason: String)?

        private var path: [String] = []
        private var text = ""
        private var item: [String: String]?
        private var enclosure: (url: String, type: String, length: Int?)?

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if path.isEmpty {
                kind = name == "rss" || name == "rdf:RDF" ? .rss : name == "feed" ? .atom : nil
            }
            path.append(name)
            text = ""
            switch name {
            case "item", "entry":
                item = [:]
                enclosure = nil
            case "enclosure" where item != nil:
                take(attributes["url"], attributes["type"], attributes["length"])
            case "link" where item != nil && attributes["rel"] == "enclosure":
                take(attributes["href"], attributes["type"], attributes["length"])
            default: break
            }
        }

        /// The first audio enclosure of an item.
        private func take(_ url: String?, _ type: String?, _ length: String?) {
            guard enclosure == nil, let url = url?.trimmingCharacters(in: .whitespacesAndNewlines), !url.isEmpty else { return }
            let type = (type ?? "").lowercased()
            let lower = url.lowercased()
            guard type.hasPrefix("audio/") || (type.isEmpty && (lower.hasSuffix(".mp3") || lower.contains(".mp3?"))) else {
                return
            }
            enclosure = (url, type, length.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if error == nil { error = (parser.lineNumber, FeedParser.words(parseError)) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if text.utf8.count < 4096 { text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            if text.utf8.count < 4096 { text += String(decoding: block, as: UTF8.self) }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            defer {
                path.removeLast()
                text = ""
            }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if var fields = item {
                if name == "item" || name == "entry" {
                    finish(fields)
                    item = nil
                } else if path.count >= 2, ["item", "entry"].contains(path[path.count - 2]), fields[name] == nil {
                    fields[name] = value
                    item = fields
                }
            } else if name == "title", path.count == (kind == .atom ? 2 : 3) {
                feedTitle = value
            }
        }

        private func finish(_ f: [String: String]) {
            guard let enclosure else { return }
            let type = (f["itunes:episodeType"] ?? "full").lowercased()
            guard type == "full" || type.isEmpty else { return }
            let published = (f["pubDate"] ?? f["published"] ?? f["updated"] ?? f["dc:date"]).flatMap(FeedDate.parse)
            let id = OutsideText.clean(f["guid"] ?? f["id"] ?? "", limit: Reader.maxID)
            let title = OutsideText.clean(f["title"] ?? "", limit: Podcast.maxText)
            episodes.append(
                PodcastEpisode(
                    id: id.isEmpty ? enclosure.url : id, title: title.isEmpty ? "Untitled" : title, published: published,
                    audio: enclosure.url, type: OutsideText.clean(enclosure.type, limit: 64), length: enclosure.length,
                    duration: f["itunes:duration"].flatMap(FeedDate.duration)))
        }
    }
}

/// The dates and durations feeds write.
enum FeedDate {
    /// RFC 822 (RSS: "Wed, 26 Nov 2026 06:00:00 +0100", "… GMT", with or without the weekday or seconds) and
    /// RFC 3339 (Atom: "2026-11-26T06:00:00Z", with fractions or an offset); nil for anything else.
    static func parse(_ text: String) -> Date? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let first = t.first, first.isNumber, t.contains("T") || t.count == 10 {
            for style in iso { if let d = try? style.parse(t) { return d } }
        }
        for formatter in rfc822 { if let d = formatter.date(from: t) { return d } }
        return nil
    }

    /// "3600", "60:00", "1:00:00" → seconds; nil for anything else.
    static func duration(_ text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0
        for part in parts {
            // At most a few digits a part: a feed's number is never trusted to fit (a week is 604,800 s).
            let digits = part.split(separator: ".").first ?? ""
            guard digits.count <= 7, let n = Int(digits), n >= 0 else { return nil }
            total = total * 60 + n
        }
        return total <= 7 * 86_400 ? total : nil
    }

    /// RFC 3339 with and without fractions, and a bare date (Foundation's format styles are values: safe to share).
    private static let iso: [Date.ISO8601FormatStyle] = [
        .iso8601, Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle().year().month().day(),
    ]

    private static let rfc822: [DateFormatter] = [
        "EEE, dd MMM yyyy HH:mm:ss Z", "EEE, dd MMM yyyy HH:mm:ss zzz", "EEE, dd MMM yyyy HH:mm Z", "EEE, dd MMM yyyy HH:mm zzz",
        "dd MMM yyyy HH:mm:ss Z", "dd MMM yyyy HH:mm:ss zzz", "EEE, d MMM yyyy HH:mm:ss Z", "EEE, d MMM yyyy HH:mm:ss zzz",
    ].map { format in
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(secondsFromGMT: 0)
        f.dateFormat = format
        return f
    }
}
