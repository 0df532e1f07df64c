import Testing

@testable import AubadeFaceLink

/// Bytes in memory handed out in the pieces a test chose, as a socket might deliver them.
struct PieceSource: ByteSource {
    var pieces: [[UInt8]]

    /// `bytes` cut at `cuts` (offsets, any order, duplicates allowed).
    init(_ bytes: [UInt8], cuts: [Int]) {
        var pieces: [[UInt8]] = []
        var from = 0
        for cut in Set(cuts).sorted() where cut > from && cut < bytes.count {
            pieces.append(Array(bytes[from..<cut]))
            from = cut
        }
        pieces.append(Array(bytes[from...]))
        self.pieces = pieces
    }

    mutating func more(into buffer: inout [UInt8]) throws(LinkFailure) -> Bool {
        guard !pieces.isEmpty else { return false }
        buffer += pieces.removeFirst()
        return true
    }
}

/// A seeded generator (SplitMix64), so a failing case can be run again.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `body` in chunked transfer-coding, cut into chunks of random sizes, one with an extension, and a trailer.
func chunked(_ body: [UInt8], using random: inout SeededRandom) -> [UInt8] {
    var out: [UInt8] = []
    var at = 0
    while at < body.count {
        let size = min(body.count - at, Int.random(in: 1...40, using: &random))
        let ext = Bool.random(using: &random) ? ";name=value" : ""
        out += Array("\(String(size, radix: 16))\(ext)\r\n".utf8) + body[at..<at + size] + Array("\r\n".utf8)
        at += size
    }
    return out + Array("0\r\nX-Trailer: yes\r\n\r\n".utf8)
}

@Suite("Reading answers and event streams")
struct ReaderTests {
    @Test func aContentLengthBodyIsReadWholeAndNoFurther() throws {
        let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 11\r\nX-A:  b \r\n\r\n{\"ok\":true}EXTRA".utf8)
        var reader = HTTPResponseReader(PieceSource(bytes, cuts: [3, 17, 40, 44]))
        let head = try reader.readHead()
        #expect(head.status == 200 && head.value("content-length") == "11" && head.value("x-a") == "b")
        #expect(try reader.readBody(limit: 100) == Array("{\"ok\":true}".utf8))
    }

    @Test func aChunkedBodyCutAnywhereReadsTheSame() throws {
        var random = SeededRandom(state: 38)
        for _ in 0..<300 {
            let body = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let bytes =
                Array("HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n".utf8) + chunked(body, using: &random)
            let cuts = (0..<Int.random(in: 0...20, using: &random)).map { _ in Int.random(in: 0...bytes.count, using: &random) }
            var reader = HTTPResponseReader(PieceSource(bytes, cuts: cuts))
            #expect(try reader.readHead().status == 201)
            #expect(try reader.readBody(limit: 1000) == body, "cuts \(cuts)")
        }
    }

    @Test func aBodyWithoutLengthLastsToTheEndAndInterimAnswersAreSkipped() throws {
        let bytes = Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 503 Service Unavailable\r\n\r\nbusy".utf8)
        var reader = HTTPResponseReader(PieceSource(bytes, cuts: [5, 30]))
        #expect(try reader.readHead().status == 503)
        #expect(try reader.readBody(limit: 100) == Array("busy".utf8))
    }

    @Test func cutShortOrMalformedAnswersFail() {
        let cases: [(String, LinkFailure)] = [
            ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", .closed),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", .malformed),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcdeXY0\r\n\r\n", .malformed),
            ("SSH-2.0-OpenSSH\r\n\r\n", .malformed),
            ("HTTP/1.1 200 OK\r\nContent-Le", .closed),
        ]
        for (text, failure) in cases {
            var reader = HTTPResponseReader(PieceSource(Array(text.utf8), cuts: []))
            #expect(throws: failure, "\(text)") {
                _ = try reader.readHead()
                _ = try reader.readBody(limit: 100)
            }
        }
        var big = HTTPResponseReader(
            PieceSource(Array("HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n".utf8) + Array(repeating: 65, count: 20), cuts: []))
        #expect(throws: LinkFailure.tooLarge) {
            _ = try big.readHead()
            _ = try big.readBody(limit: 10)
        }
    }

    /// A stream as the clock sends it (and a few things it does not send but the format allows), in chunked
    /// transfer-coding, cut into packets anywhere: the same `state` events come out, in order, each time.
    @Test func eventsCutAnywhereComeOutWhole() throws {
        let states = [#"{"now":1,"title":"Jazz: \"live\""}"#, #"{"now":2}"#, "{\n\"now\":3}", #"{"now":4,"é":"ü"}"#]
        let stream =
            "\u{FEFF}: hello\n\nevent: state\ndata: \(states[0])\n\n: keep-alive\n\n"
            + "event: other\ndata: not a state\n\nid: 7\nretry: 100\nevent: state\ndata:\(states[1])\r\n\r\n"
            + "event: state\ndata: {\ndata: \"now\":3}\n\n: keep-alive\n\ndata: a message\n\nevent: state\n\n"
            + "event: state\ndata: \(states[3])\n\n: too many live streams: this one, the oldest, ends; connect again\n\n"
        var random = SeededRandom(state: 7)
        for _ in 0..<300 {
            let bytes =
                Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
                + chunked(Array(stream.utf8), using: &random)
            let cuts = (0..<Int.random(in: 0...40, using: &random)).map { _ in Int.random(in: 0...bytes.count, using: &random) }
            var reader = HTTPResponseReader(PieceSource(bytes, cuts: cuts))
            #expect(try reader.readHead().status == 200)
            var parser = EventStreamParser()
            var events: [EventStreamParser.Event] = []
            while let piece = try reader.nextPiece() {
                try parser.feed(piece) { events.append($0) }
            }
            #expect(events.filter { $0.type == "state" }.map { String(decoding: $0.data, as: UTF8.self) } == states)
            #expect(events.map(\.type) == ["state", "other", "state", "state", "message", "state"])
        }
    }

    @Test func anEndlessLineBreaksTheStream() {
        var parser = EventStreamParser(limit: 100)
        #expect(throws: LinkFailure.malformed) {
            try parser.feed(Array(repeating: UInt8(ascii: "a"), count: 101)) { _ in }
        }
    }

    @Test func theTokenAndCodeAreFoundInAnswers() {
        let paired = Array(
            #"{"name":"kiosk","nested":{"token":"no","list":[1,"]",{"a":"}"}]},"id":3,"token":"abc\u0041\/x"}"#.utf8)
        #expect(JSONText.string("token", in: paired) == "abcA/x")
        #expect(JSONText.string("code", in: Array(#" { "code" : "123456" , "expiresAt": 17.5 }"#.utf8)) == "123456")
        #expect(JSONText.string("code", in: Array(#"{"code":123456}"#.utf8)) == nil)
        #expect(JSONText.string("code", in: Array(#"["code","x"]"#.utf8)) == nil)
        #expect(JSONText.string("name", in: Array(#"{"name":"\ud83d\ude00 \u00e9"}"#.utf8)) == "😀 é")
        #expect(JSONText.quoted("a\"b\\c\n\u{1}é") == #""a\"b\\c\n\u0001é""#)
    }
}
