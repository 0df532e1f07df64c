public import Foundation

/// Reads the directory's JSON answers: a list of stations (`/json/stations/search`, `/json/stations/byuuid`).
/// Lenient per field (numbers given as strings, 0/1 or booleans, a missing field), strict about the whole: an
/// answer that is not a JSON list is an error, so a mirror that answers something else is passed over.
public enum DirectoryAnswer {
    public struct Unreadable: Error, Sendable, Hashable {
        public let reason: String
        public init(reason: String) { self.reason = reason }
    }

    public static func stations(_ json: Data) throws(Unreadable) -> [DirectoryStation] {
        let value: Any
        do { value = try JSONSerialization.jsonObject(with: json) } catch {
            throw Unreadable(reason: "the answer is not JSON")
        }
        guard let items = value as? [Any] else { throw Unreadable(reason: "the answer is not a list of stations") }
        return items.compactMap { ($0 as? [String: Any]).flatMap(station) }
    }

    /// One station object; nil without an id, a name or an address. Its words are made plain here, where they
    /// enter (`OutsideText`, R40): anyone can write them into the directory.
    static func station(_ o: [String: Any]) -> DirectoryStation? {
        let uuid = plain(o["stationuuid"], 64), name = plain(o["name"], 200)
        let url = text(o["url_resolved"]).isEmpty ? text(o["url"]) : text(o["url_resolved"])
        guard !uuid.isEmpty, !name.isEmpty, !url.isEmpty else { return nil }
        return DirectoryStation(
            uuid: uuid.lowercased(), name: name, url: url.trimmingCharacters(in: .whitespaces), homepage: text(o["homepage"]),
            favicon: text(o["favicon"]),
            tags: text(o["tags"]).split(separator: ",").map { OutsideText.clean(String($0), limit: 40) }.filter { !$0.isEmpty },
            countryCode: plain(o["countrycode"], 8).uppercased(), language: plain(o["language"], 64),
            codec: plain(o["codec"], 16),
            bitrate: number(o["bitrate"]), hls: number(o["hls"]) != 0,
            lastCheckOK: o["lastcheckok"] == nil || number(o["lastcheckok"]) != 0, clickCount: number(o["clickcount"]),
            votes: number(o["votes"]))
    }

    private static func plain(_ v: Any?, _ limit: Int) -> String { OutsideText.clean(text(v), limit: limit) }

    private static func text(_ v: Any?) -> String {
        switch v {
        case let s as String: s
        case let n as NSNumber: n.stringValue
        default: ""
        }
    }

    private static func number(_ v: Any?) -> Int {
        switch v {
        case let n as NSNumber: n.intValue
        case let s as String: Int(s.trimmingCharacters(in: .whitespaces)) ?? 0
        default: 0
        }
    }
}
