import AubadeCore
import Testing

@testable import AubadeAudio

@Suite("Playlists and content types")
struct PlaylistTests {
    func entries(_ text: String, _ format: PlaylistFormat, base: String = "http://radio.example/list") throws -> [String] {
        try PlaylistParser.entries(in: Array(text.utf8), format: format, base: base).map(\.text)
    }

    @Test func plsInNumberOrderWithCRLFAndBOM() throws {
        let pls =
            "\u{FEFF}[playlist]\r\nNumberOfEntries=3\r\nFile2=http://b.example/2\r\nTitle2=B\r\n"
            + "File1=http://a.example/1\r\n; a comment\r\nFile3=https://c.example:8443/3\r\nVersion=2\r\n"
        #expect(try entries(pls, .pls) == ["http://a.example/1", "http://b.example/2", "https://c.example:8443/3"])
    }

    @Test func m3uAndExtendedM3U() throws {
        #expect(
            try entries("http://a.example/live\n\n# comment\nhttp://b.example/live\n", .m3u)
                == ["http://a.example/live", "http://b.example/live"])
        let ext = "#EXTM3U\r\n#EXTINF:-1,Radio A\r\nhttp://a.example/live\r\n#EXTINF:-1,Radio B\r\nhttps://b.example/live\r\n"
        #expect(try entries(ext, .m3u) == ["http://a.example/live", "https://b.example/live"])
    }

    @Test func relativeEntriesResolveAgainstThePlaylist() throws {
        #expect(
            try entries("stream.mp3\n/abs/path.mp3\n", .m3u, base: "http://radio.example/lists/a.m3u")
                == ["http://radio.example/lists/stream.mp3", "http://radio.example/abs/path.mp3"])
    }

    @Test func unsafeEntriesAreSkippedAndAnEmptyResultIsRefused() throws {
        #expect(
            try entries("file:///etc/passwd\nftp://x.example/a\nhttp://u:p@x.example/\nhttp://ok.example/s\n", .m3u)
                == ["http://ok.example/s"])
        #expect(throws: PlaylistError.self) { try entries("file:///etc/passwd\n", .m3u) }
        #expect(throws: PlaylistError.self) { try entries("[playlist]\nNumberOfEntries=0\n", .pls) }
    }

    @Test func limits() throws {
        let many = (0..<100).map { "http://s\($0).example/live" }.joined(separator: "\n")
        #expect(try entries(many, .m3u).count == 64)
        let huge = String(repeating: "# padding padding padding\n", count: 3000) + "http://a.example/\n"
        #expect(throws: PlaylistError.self) { try entries(huge, .m3u) }
    }

    @Test func hlsIsRecognisedAsHLSNotAsAListOfStreams() {
        let hls = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nseg1.ts\n"
        let error = #expect(throws: PlaylistError.self) { try entries(hls, .m3u) }
        #expect(error?.description.contains("HLS") == true)
        #expect(
            StreamContent.classify(
                contentType: "application/vnd.apple.mpegurl", url: "http://x.example/a.m3u8",
                prefix: Array(hls.utf8)) == .hls)
    }

    @Test(arguments: [
        ("audio/mpeg", "http://x.example/live", "", StreamContent.audio(.mpeg)),
        ("audio/mpeg; charset=binary", "http://x.example/live", "", .audio(.mpeg)),
        ("text/html", "http://x.example/live", "ID3", .html),
        ("text/html; charset=utf-8", "http://x.example/live.mp3", "", .html),
        ("", "http://x.example/live", "<!DOCTYPE html><html>", .html),
        ("audio/mpeg", "http://x.example/x", "<html><body>error</body></html>", .html),
        ("audio/x-scpls", "http://x.example/listen", "[playlist]", .playlist(.pls)),
        ("audio/x-mpegurl", "http://x.example/listen", "http://a", .playlist(.m3u)),
        ("text/plain", "http://x.example/radio.pls", "File1=http://a", .playlist(.pls)),
        ("application/octet-stream", "http://x.example/radio.m3u", "http://a", .playlist(.m3u)),
        ("", "http://x.example/whatever", "#EXTM3U\n", .playlist(.m3u)),
        ("", "http://x.example/whatever", "ID3\u{3}\0", .audio(.mpeg)),
        ("application/octet-stream", "http://x.example/live", "\u{FF}\u{FB}\u{90}\u{64}", .audio(.mpeg)),
    ])
    func classification(type: String, url: String, body: String, expected: StreamContent) {
        var prefix = Array(body.utf8)
        if body.hasPrefix("\u{FF}") { prefix = [0xFF, 0xFB, 0x90, 0x64] }
        #expect(StreamContent.classify(contentType: type.isEmpty ? nil : type, url: url, prefix: prefix) == expected)
    }

    @Test func otherAudioIsNamedInTheRefusal() {
        guard
            case .unsupported(let why) = StreamContent.classify(
                contentType: "audio/x-ms-wma", url: "http://x.example/", prefix: [])
        else { Issue.record("WMA should be refused"); return }
        #expect(why == "The stream is audio/x-ms-wma, which Aubade cannot play; pick the station's MP3, AAC or Ogg stream.")
        guard
            case .unsupported = StreamContent.classify(
                contentType: nil, url: "http://x.example/", prefix: Array(repeating: 0x41, count: 600))
        else { Issue.record("garbage should be refused"); return }
    }
}

/// What the first bytes and the type say a stream is (R22): the container decides the decoder, never the URL.
@Suite struct ContainerSniffingTests {
    static func adtsFrame(length: Int = 20) -> [UInt8] {
        // AAC-LC, 44.1 kHz (index 4), stereo, no CRC: a 7-byte header and `length` bytes in all.
        var f: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0, 0, 0xFC]
        f[3] |= UInt8((length >> 11) & 0x3)
        f[4] = UInt8((length >> 3) & 0xFF)
        f[5] = UInt8((length & 0x7) << 5) | 0x1F
        return f + [UInt8](repeating: 0x21, count: length - 7)
    }

    static func id3(_ body: [UInt8]) -> [UInt8] {
        let n = body.count
        return Array("ID3".utf8) + [4, 0, 0, UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)]
            + body
    }

    @Test func eachContainerIsKnownByItsFirstBytesWhateverTheTypeSays() {
        let ts = (0..<4).flatMap { _ in [0x47] + [UInt8](repeating: 0xFF, count: 187) }
        let cases: [([UInt8], AudioContainer)] = [
            (Array("OggS".utf8) + [0, 2], .ogg),
            (Array("fLaC".utf8) + [0, 0, 0, 34], .flac),
            ([0, 0, 0, 0x20] + Array("ftypM4A ".utf8), .mp4),
            (ts, .mpegts),
            (Self.adtsFrame() + Self.adtsFrame(), .adts),
            (Self.id3(Array(repeating: 0, count: 30)) + Self.adtsFrame() + Self.adtsFrame(), .adts),
        ]
        for (bytes, container) in cases {
            #expect(StreamContent.sniff(bytes) == container)
            for type in [nil, "audio/mpeg", "application/octet-stream", "audio/aacp"] {
                #expect(
                    StreamContent.classify(contentType: type, url: "http://x.example/live.mp3", prefix: bytes)
                        == .audio(container))
            }
        }
    }

    @Test func theTypeDecidesWhereTheBytesAreNotConclusive() {
        let cases: [(String, AudioContainer)] = [
            ("audio/aac", .adts), ("audio/aacp", .adts), ("audio/ogg", .ogg), ("application/ogg", .ogg),
            ("audio/flac", .flac), ("audio/mp4", .mp4), ("audio/x-m4a", .mp4), ("video/mp2t", .mpegts),
            ("audio/mpeg", .mpeg),
        ]
        for (type, container) in cases {
            #expect(
                StreamContent.classify(contentType: type, url: "http://x.example/a.ogg", prefix: [1, 2, 3]) == .audio(container))
        }
    }

    @Test func mpegFramesAreNeverTakenForADTSNorADTSForMPEG() {
        // An MP3 frame header (layer III) has layer bits 01; ADTS has 00.
        let mp3: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 413) + [0xFF, 0xFB, 0x90, 0x64]
        #expect(StreamContent.sniff(mp3) == nil)
        #expect(StreamContent.classify(contentType: nil, url: "", prefix: mp3) == .audio(.mpeg))
        // One ADTS-looking header whose successor is not one is not enough.
        #expect(StreamContent.sniff(Self.adtsFrame() + [0x12, 0x34, 0x56]) == nil)
    }

    @Test func theTitleOfAnID3TagIsReadAndCleaned() {
        func frame(_ id: String, _ text: [UInt8]) -> [UInt8] {
            let n = text.count
            return Array(id.utf8) + [0, 0, UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F), 0, 0] + text
        }
        let utf8 = frame("TPE1", [3] + Array("Radio\u{202E} One".utf8)) + frame("TIT2", [3] + Array("News\nat six".utf8))
        #expect(ID3Title.title(inTag: Self.id3(utf8)) == "Radio One - News at six")
        let utf16: [UInt8] = [1, 0xFF, 0xFE] + Array("Jazz".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(ID3Title.title(inTag: Self.id3(frame("TIT2", utf16))) == "Jazz")
        let priv = frame("PRIV", Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(ID3Title.title(inTag: Self.id3(priv)) == nil)
        #expect(ID3Title.title(inTag: Array("not a tag at all".utf8)) == nil)
    }

    @Test func aPackedAudioSegmentLosesItsTagsWhicheverWayItsBytesArrive() {
        let title: [UInt8] = Array("TIT2".utf8) + [0, 0, 0, 6, 0, 0, 3] + Array("Hello".utf8)
        let segment = Self.id3(title) + Self.id3([]) + Self.adtsFrame() + Self.adtsFrame(length: 30)
        for split in [1, 3, 10, 17, segment.count] {
            var strip = ID3Strip()
            var out: [UInt8] = []
            var i = 0
            while i < segment.count {
                out += strip.strip(Array(segment[i..<min(i + split, segment.count)]))
                i += split
            }
            out += strip.finish()
            #expect(out == Self.adtsFrame() + Self.adtsFrame(length: 30))
            #expect(strip.title == "Hello")
        }
    }
}
