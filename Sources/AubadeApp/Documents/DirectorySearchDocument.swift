public import AubadeCore

/// What the public directory found, as `aubade station search --json` prints it and `GET /directory/search`
/// answers it: `{"stations": [{"id", "name", "url", "country", "codec", "bitrate", "homepage", "favicon", "tags",
/// "playable", "note"}]}`, the most played first. The directory's text is anyone's: it arrives plain
/// (`DirectoryAnswer` drops control and format characters), and the pages insert it as text only.
public struct DirectorySearchDocument: Codable, Sendable {
    public struct Entry: Codable, Sendable {
        public var id: String
        public var name: String
        public var url: String
        public var country: String
        public var codec: String
        public var bitrate: Int
        public var homepage: String
        /// The logo's address as the directory gives it.
        public var favicon: String
        public var tags: [String]
        public var playable: Bool
        /// "cannot play: WMA"; absent when playable.
        public var note: String?
    }

    public var stations: [Entry]

    public init(_ found: [DirectoryStation]) {
        stations = found.map { s in
            Entry(
                id: s.uuid, name: s.name, url: s.url, country: s.countryCode, codec: s.codec, bitrate: s.bitrate,
                homepage: s.homepage, favicon: s.favicon, tags: s.tags, playable: s.playability.isPlayable,
                note: s.playability.note)
        }
    }
}
