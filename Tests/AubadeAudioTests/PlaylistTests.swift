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

    @Test func hlsIsRecognisedAndRefused() {
        let hls = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nseg1.ts\n"
        let error = #expect(throws: PlaylistError.self) { try entries(hls, .m3u) }
        #expect(error?.description.contains("HLS") == true)
        #expect(
            StreamContent.classify(
                contentType: "application/vnd.apple.mpegurl", url: "http://x.example/a.m3u8",
                prefix: Array(hls.utf8)) == .hls)
    }

    @Test(arguments: [
        ("audio/mpeg", "http://x.example/live", "", StreamContent.mpegAudio),
        ("audio/mpeg; charset=binary", "http://x.example/live", "", .mpegAudio),
        ("text/html", "http://x.example/live", "ID3", .html),
        ("text/html; charset=utf-8", "http://x.example/live.mp3", "", .html),
        ("", "http://x.example/live", "<!DOCTYPE html><html>", .html),
        ("audio/mpeg", "http://x.example/x", "<html><body>error</body></html>", .html),
        ("audio/x-scpls", "http://x.example/listen", "[playlist]", .playlist(.pls)),
        ("audio/x-mpegurl", "http://x.example/listen", "http://a", .playlist(.m3u)),
        ("text/plain", "http://x.example/radio.pls", "File1=http://a", .playlist(.pls)),
        ("application/octet-stream", "http://x.example/radio.m3u", "http://a", .playlist(.m3u)),
        ("", "http://x.example/whatever", "#EXTM3U\n", .playlist(.m3u)),
        ("", "http://x.example/whatever", "ID3\u{3}\0", .mpegAudio),
        ("application/octet-stream", "http://x.example/live", "\u{FF}\u{FB}\u{90}\u{64}", .mpegAudio),
    ])
    func classification(type: String, url: String, body: String, expected: StreamContent) {
        var prefix = Array(body.utf8)
        if body.hasPrefix("\u{FF}") { prefix = [0xFF, 0xFB, 0x90, 0x64] }
        #expect(StreamContent.classify(contentType: type.isEmpty ? nil : type, url: url, prefix: prefix) == expected)
    }

    @Test func otherAudioIsNamedInTheRefusal() {
        guard case .unsupported(let why) = StreamContent.classify(contentType: "audio/aacp", url: "http://x.example/", prefix: [])
        else { Issue.record("AAC should be refused"); return }
        #expect(why == "The stream is audio/aacp, which Aubade cannot play; pick the station's MP3 stream.")
        guard
            case .unsupported = StreamContent.classify(
                contentType: nil, url: "http://x.example/", prefix: Array(repeating: 0x41, count: 600))
        else { Issue.record("garbage should be refused"); return }
    }
}
