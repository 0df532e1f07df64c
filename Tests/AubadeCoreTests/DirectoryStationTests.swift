import AubadeCore
import Foundation
import Testing

/// The directory's answers read leniently, what this clock can play, duplicates, and the search as asked.
@Suite("Station directory: answers, playability, the query")
struct DirectoryStationTests {
    static func read(_ json: String) throws -> [DirectoryStation] {
        try DirectoryAnswer.stations(Data(json.utf8))
    }

    @Test func aStationIsReadWithTheDirectorysOwnFieldNames() throws {
        let s = try #require(
            try Self.read(
                """
                [{"changeuuid":"x","stationuuid":"960E57C5-0601-11E8-AE97-52543BE04C81","name":" FIP ",
                  "url":"http://direct.fipradio.fr/live/fip-midfi.mp3","url_resolved":"https://icecast.radiofrance.fr/fip-midfi.mp3",
                  "homepage":"https://www.fip.fr/","favicon":"https://www.fip.fr/logo.png","tags":"eclectic, jazz,,",
                  "countrycode":"fr","language":"french","codec":"MP3","bitrate":128,"hls":0,"lastcheckok":1,
                  "clickcount":4242,"votes":17,"geo_lat":null}]
                """
            ).first)
        #expect(s.uuid == "960e57c5-0601-11e8-ae97-52543be04c81")
        #expect(s.name == "FIP" && s.url == "https://icecast.radiofrance.fr/fip-midfi.mp3")
        #expect(s.tags == ["eclectic", "jazz"] && s.countryCode == "FR" && s.bitrate == 128 && s.clickCount == 4242)
        #expect(s.playability == .playable && s.playability.note == nil)
    }

    @Test func oddFieldsTakeTheirDefaultsAndStationsWithoutAnIdNameOrAddressAreLeftOut() throws {
        let stations = try Self.read(
            """
            [{"stationuuid":"a","name":"Numbers as text","url":"http://a.example/s","bitrate":"96","hls":"0","clickcount":"x"},
             {"stationuuid":"b","name":"Only url","url":"http://b.example/s","url_resolved":""},
             {"name":"No id","url":"http://c.example/s"},
             {"stationuuid":"d","name":"  ","url":"http://d.example/s"},
             {"stationuuid":"e","name":"No address"},
             "not an object", 7]
            """)
        #expect(stations.map(\.uuid) == ["a", "b"])
        #expect(stations[0].bitrate == 96 && !stations[0].hls && stations[0].clickCount == 0)
        #expect(stations[1].url == "http://b.example/s")
    }

    @Test func anAnswerThatIsNotAListIsUnreadable() {
        #expect(throws: DirectoryAnswer.Unreadable(reason: "the answer is not JSON")) { try Self.read("<html>") }
        #expect(throws: DirectoryAnswer.Unreadable(reason: "the answer is not a list of stations")) {
            try Self.read(#"{"ok":false}"#)
        }
    }

    @Test(
        arguments: [
            ("MP3", false, "http://x.example/s", nil),
            ("mp3 ", false, "https://x.example/s", nil),
            ("AAC", false, "http://x.example/s", nil),
            ("AAC+", false, "http://x.example/s", nil),
            ("OGG", false, "http://x.example/s", nil),
            ("opus", false, "http://x.example/s", nil),
            ("FLAC", false, "http://x.example/s", nil),
            ("AAC", true, "http://x.example/s.m3u8", nil),
            ("", true, "https://x.example/s.m3u8", nil),
            ("AAC,H.264", true, "http://x.example/tv.m3u8", "cannot play: video (H.264)"),
            ("WMA", false, "http://x.example/s", "cannot play: WMA"),
            ("", false, "http://x.example/s", "cannot play: an unknown format"),
            ("UNKNOWN", false, "http://x.example/s", "cannot play: an unknown format"),
            ("MP3", false, "rtsp://x.example/s", "cannot play: not an http(s) address"),
        ] as [(String, Bool, String, String?)])
    func mp3AACOggAndFLACOverHTTPOrHLSCanBePlayed(codec: String, hls: Bool, url: String, note: String?) {
        let s = DirectoryStation(uuid: "u", name: "n", url: url, codec: codec, hls: hls)
        #expect(s.playability.note == note)
        #expect(s.playability.isPlayable == (note == nil))
    }

    @Test func theSameAddressIsShownOnceTheBestRankedKept() {
        let s = { (id: String, url: String) in DirectoryStation(uuid: id, name: id, url: url, codec: "MP3") }
        let found = DirectoryStation.deduplicated([
            s("1", "http://Radio.Example:80/"), s("2", "http://radio.example"), s("3", "https://radio.example"),
            s("4", "https://radio.example:443/#top"), s("5", "http://radio.example/live"),
            s("6", "http://radio.example/live?x=1"),
        ])
        #expect(found.map(\.uuid) == ["1", "3", "5", "6"])
    }

    @Test func theQueryAsksTheWayTheDirectoryReadsIt() throws {
        let q = try DirectoryQuery(words: "  swiss   jazz ", country: "ch", tag: "jazz", codec: "mp3", limit: 5)
        #expect(
            q.parameters.map { "\($0.name)=\($0.value)" } == [
                "name=swiss jazz", "countrycode=CH", "tag=jazz", "codec=MP3", "hidebroken=true", "order=clickcount",
                "reverse=true", "limit=5",
            ])
        // Always a limit: the directory's own default is every match.
        #expect(try DirectoryQuery(words: "fip").parameters.last! == ("limit", "20"))
        #expect(try DirectoryQuery(words: "", country: "de").parameters.first! == ("countrycode", "DE"))
    }

    /// A query's words, country, tag and limit, and the sentence that refuses them.
    struct BadQuery: Sendable, CustomTestStringConvertible {
        var words = "fip", country: String? = nil, tag: String? = nil, limit = 20
        var sentence: String
        var testDescription: String { sentence }
    }

    @Test(arguments: [
        BadQuery(words: "", sentence: "Say what to search for: a few words of the station's name, or --country or --tag."),
        BadQuery(country: "France", sentence: "--country 'France' is not a two-letter country code such as DE or FR."),
        BadQuery(country: "F1", sentence: "--country 'F1' is not a two-letter country code such as DE or FR."),
        BadQuery(tag: " ", sentence: "--tag ' ' must be a word or two, at most 40 characters."),
        BadQuery(limit: 0, sentence: "--limit 0 is out of range; ask for 1 to 100 results."),
        BadQuery(limit: 101, sentence: "--limit 101 is out of range; ask for 1 to 100 results."),
    ])
    func badQueriesAreOneSentence(_ q: BadQuery) {
        #expect(throws: ValidationError(q.sentence)) {
            _ = try DirectoryQuery(words: q.words, country: q.country, tag: q.tag, limit: q.limit)
        }
    }

    @Test func directoryIDsAreUUIDs() throws {
        #expect(try DirectoryQuery.stationID(" 960E57C5-0601-11E8-AE97-52543BE04C81") == "960e57c5-0601-11e8-ae97-52543be04c81")
        for bad in ["fip", "960e57c5-0601-11e8-ae97", "960e57c5-0601-11e8-ae97-52543be04c8g", "960e57c5060111e8ae9752543be04c81"]
        {
            #expect(throws: ValidationError.self) { try DirectoryQuery.stationID(bad) }
        }
    }

    @Test func theDirectorysTextIsPrintedAndKeptPlain() throws {
        // Anyone can edit the directory: a name with a terminal escape, a bidirectional override or line breaks is
        // read without them (R40), and what the library keeps obeys DirectoryLink's rules.
        let read = try Self.read(
            #"[{"stationuuid": "11111111-1111-1111-1111-111111111111", "url": "http://x.example/s", "codec": "MP3\u202e", "#
                + #""name": "Jazz\u001b]0;owned\u0007 FM\u202e\n\u2028 Live", "tags": "jazz,\u2066bop\t, \u200f"}]"#)
        #expect(read.map(\.name) == ["Jazz]0;owned FM Live"])
        #expect(read.first?.tags == ["jazz", "bop"] && read.first?.codec == "MP3" && read.first?.playability == .playable)
        let s = DirectoryStation(
            uuid: "11111111-1111-1111-1111-111111111111", name: "n", url: "http://x.example/s", homepage: "javascript:alert(1)",
            countryCode: "C1", codec: "mp3\t", bitrate: 99_999)
        let link = try s.link()
        #expect(link.codec == "MP3" && link.homepage == "" && link.country == "" && link.bitrate == 10_000)
        #expect(
            try DirectoryStation(uuid: s.uuid, name: "n", url: "u", homepage: " https://fip.example/ ").link().homepage
                == "https://fip.example/")
        #expect(throws: ValidationError.self) { try DirectoryLink(id: s.uuid, homepage: "javascript:alert(1)") }
    }
}
