import Testing

@testable import AubadeAudio

@Suite("ICY metadata")
struct ICYTests {
    /// Builds a stream: audio bytes 0,1,2,… with a metadata block after every `interval` audio bytes.
    static func stream(interval: Int, audioBytes: Int, titles: [String]) -> (wire: [UInt8], audio: [UInt8]) {
        var wire: [UInt8] = [], audio: [UInt8] = []
        var n = 0, block = 0
        while n < audioBytes {
            let run = min(interval, audioBytes - n)
            let bytes = (n..<(n + run)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            wire += bytes
            audio += bytes
            n += run
            guard run == interval else { break }
            if block < titles.count {
                var meta = Array("StreamTitle='\(titles[block])';".utf8)
                meta += [UInt8](repeating: 0, count: (16 - meta.count % 16) % 16)
                wire.append(UInt8(meta.count / 16))
                wire += meta
            } else {
                wire.append(0)
            }
            block += 1
        }
        return (wire, audio)
    }

    @Test(arguments: [1, 7, 100, 8192, 100_000])
    func audioIsByteIdenticalWhateverTheChunking(chunk: Int) {
        let (wire, audio) = Self.stream(interval: 8192, audioBytes: 100_000, titles: ["One", "Two - Three", "Four"])
        var demux = ICYDemuxer(interval: 8192)
        var out: [UInt8] = []
        var titles: [String] = []
        var i = 0
        while i < wire.count {
            let piece = Array(wire[i..<min(i + chunk, wire.count)])
            for block in demux.push(piece, audio: { out += $0 }) {
                titles.append(ICYMetadata.streamTitle(in: block) ?? "?")
            }
            i += chunk
        }
        #expect(out == audio)
        #expect(titles == ["One", "Two - Three", "Four"])
    }

    @Test(arguments: [nil, 0, -5, 65537, 1_000_000_000])
    func invalidIntervalsTurnMetadataOffNotAudio(interval: Int?) {
        var demux = ICYDemuxer(interval: interval)
        #expect(!demux.isActive)
        var out: [UInt8] = []
        let bytes: [UInt8] = Array(0..<200)
        #expect(demux.push(bytes, audio: { out += $0 }).isEmpty)
        #expect(out == bytes)
    }

    @Test func intervalOfOneByteWorks() {
        let (wire, audio) = Self.stream(interval: 1, audioBytes: 50, titles: ["a"])
        var demux = ICYDemuxer(interval: 1)
        var out: [UInt8] = []
        let blocks = demux.push(wire, audio: { out += $0 })
        #expect(out == audio)
        #expect(blocks.count == 1)
    }

    @Test func theLargestBlockIs4080BytesAndIsStripped() {
        var wire: [UInt8] = Array(repeating: 1, count: 16)
        wire.append(255)
        let block = Array("StreamTitle='".utf8) + Array(repeating: UInt8(ascii: "x"), count: 4080 - 15) + Array("';".utf8)
        wire += block
        wire += Array(repeating: 2, count: 16)
        var demux = ICYDemuxer(interval: 16)
        var out: [UInt8] = []
        let blocks = demux.push(wire, audio: { out += $0 })
        #expect(out == Array(repeating: 1, count: 16) + Array(repeating: 2, count: 16))
        #expect(blocks.first?.count == 4080)
    }

    @Test func aBlockThatOverflowsItsLengthTurnsMetadataOffAndPassesTheRestOn() {
        let text = Array("StreamTitle='\(String(repeating: "A", count: 40))';".utf8)  // 55 bytes, declared as 32
        var wire: [UInt8] = Array(repeating: 1, count: 16)
        wire.append(2)
        wire += text
        wire += Array(repeating: 2, count: 40)
        var demux = ICYDemuxer(interval: 16)
        var out: [UInt8] = []
        let blocks = demux.push(wire, audio: { out += $0 })
        #expect(blocks.isEmpty)
        #expect(!demux.isActive)
        #expect(demux.failure == "a metadata block is longer than its length byte says (32 bytes)")
        #expect(out == Array(repeating: 1, count: 16) + Array(text[32...]) + Array(repeating: 2, count: 40))
    }

    @Test func piecesComeInStreamOrderSoATitleOrAFaultPrecedesTheAudioAfterIt() {
        var wire: [UInt8] = Array(repeating: 1, count: 16)
        let title = Array("StreamTitle='One';".utf8) + [UInt8](repeating: 0, count: 14)
        wire.append(2)
        wire += title
        wire += Array(repeating: 2, count: 16)
        wire.append(1)
        wire += Array(repeating: 0xFF, count: 16)  // not metadata
        wire += Array(repeating: 3, count: 8)
        var demux = ICYDemuxer(interval: 16)
        var pieces: [String] = []
        wire.withUnsafeBytes { raw in
            demux.push(raw) { piece in
                switch piece {
                case .audio(let run): pieces.append("audio \(run.count)×\(run.first!)")
                case .block(let block): pieces.append("title \(ICYMetadata.streamTitle(in: block) ?? "?")")
                case .metadataOff: pieces.append("off")
                }
            }
        }
        #expect(pieces == ["audio 16×1", "title One", "audio 16×2", "off", "audio 8×3"])
    }

    @Test func aBlockThatIsNotMetadataMeansTheIntervalIsWrong() {
        var wire: [UInt8] = Array(repeating: 1, count: 16)
        wire.append(1)
        wire += [0xFF, 0xFB, 0x90, 0x64] + Array(repeating: 0x55, count: 12)  // MP3 bytes where a block should be
        wire += Array(repeating: 2, count: 100)
        var demux = ICYDemuxer(interval: 16)
        var out: [UInt8] = []
        #expect(demux.push(wire, audio: { out += $0 }).isEmpty)
        #expect(demux.failure == "a metadata block holds no Key='…' field, so the icy-metaint interval is wrong")
        #expect(out == Array(repeating: 1, count: 16) + Array(repeating: 2, count: 100))
    }

    @Test func aBlockThatFillsItsLengthExactlyIsFine() {
        let text = Array("StreamTitle='Exactly 32 bytes!';".utf8)
        var wire: [UInt8] = Array(repeating: 1, count: 16)
        wire.append(UInt8(text.count / 16))
        wire += text
        wire += Array(repeating: 2, count: 16)
        var demux = ICYDemuxer(interval: 16)
        var out: [UInt8] = []
        let blocks = demux.push(wire, audio: { out += $0 })
        #expect(text.count == 32 && blocks == [text] && demux.failure == nil && demux.isActive)
        #expect(out == Array(repeating: 1, count: 16) + Array(repeating: 2, count: 16))
    }

    @Test(arguments: [
        ("StreamTitle='Artist - Song';StreamUrl='';", "Artist - Song"),
        ("StreamTitle='Guns N' Roses - Sweet Child O' Mine';StreamUrl='http://x';", "Guns N' Roses - Sweet Child O' Mine"),
        ("StreamTitle='Song; Live at the Apollo';", "Song; Live at the Apollo"),
        ("StreamTitle='It';s a trap';StreamUrl='';", "It';s a trap"),
        ("StreamTitle='';", ""),
        ("StreamTitle='No terminator", "No terminator"),
        ("StreamTitle='Trailing quote'", "Trailing quote"),
        ("StreamUrl='x';StreamTitle='Second field';", "Second field"),
        ("StreamTitle='  padded  ';\0\0\0", "padded"),
        ("StreamTitle='Tab\tand\u{7}bell';", "Tab andbell"),
        // A station's title is anyone's (R40): no line of its own, nothing turned around, no escape sequence.
        ("StreamTitle='Song\n2026-01-01 fake line\u{202E}3pm.exe\u{1B}[2J';", "Song 2026-01-01 fake line3pm.exe[2J"),
        ("StreamTitle='Ünïcödé – 日本';", "Ünïcödé – 日本"),
    ])
    func titles(block: String, title: String) {
        #expect(ICYMetadata.streamTitle(in: Array(block.utf8)) == title)
    }

    @Test func latin1TitlesAreReadAsLatin1() {
        var block = Array("StreamTitle='Caf".utf8)
        block.append(0xE9)  // é in Latin-1, invalid as UTF-8
        block += Array("';".utf8)
        #expect(ICYMetadata.streamTitle(in: block) == "Café")
    }

    @Test func blocksWithoutATitleOrWithGarbageGiveNil() {
        #expect(ICYMetadata.streamTitle(in: Array("StreamUrl='http://x';".utf8)) == nil)
        #expect(ICYMetadata.streamTitle(in: (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37) }) == nil)
        #expect(ICYMetadata.streamTitle(in: []) == nil)
    }
}
