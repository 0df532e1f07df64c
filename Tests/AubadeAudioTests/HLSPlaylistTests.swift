import AubadeCore
import Foundation
import PropertyBased
import Testing

@testable import AubadeAudio

/// HLS playlists as a radio reads them (RFC 8216): the variant it picks, the segments it fetches, in which order,
/// and when it calls a live stream stalled — pure, so every case is exact.
@Suite("HLS: playlists and the live plan")
struct HLSPlaylistTests {
    static let master = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-STREAM-INF:BANDWIDTH=320000,CODECS="mp4a.40.2"
        high/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=96000,CODECS="mp4a.40.5"
        mid/index.m3u8
        #EXT-X-STREAM-INF:CODECS="mp4a.40.29",BANDWIDTH=48000
        https://cdn.example/low/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="ac-3"
        surround.m3u8
        """

    static func media(_ first: Int, count: Int, target: Int = 6, ended: Bool = false, extra: String = "") -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-MEDIA-SEQUENCE:\(first)\n\(extra)"
        for n in first..<(first + count) { text += "#EXTINF:\(target).000,\nseg\(n).ts\n" }
        return text + (ended ? "#EXT-X-ENDLIST\n" : "")
    }

    @Test func aMasterPlaylistsVariantsResolveAndTheCapPicksTheBestUnderIt() throws {
        guard
            case .master(let variants) = try HLSPlaylist.parse(
                Array(Self.master.utf8), base: "http://radio.example/live/master.m3u8")
        else { Issue.record("not a master"); return }
        #expect(
            variants.map(\.url.text) == [
                "http://radio.example/live/high/index.m3u8", "http://radio.example/live/mid/index.m3u8",
                "https://cdn.example/low/index.m3u8", "http://radio.example/live/surround.m3u8",
            ])
        #expect(variants.map(\.bandwidth) == [320_000, 96_000, 48_000, 64_000])
        #expect(variants.map(\.isPlayable) == [true, true, true, false])
        #expect(HLSPlaylist.choose(variants, cap: 128_000)?.bandwidth == 96_000)
        #expect(HLSPlaylist.choose(variants, cap: 500_000)?.bandwidth == 320_000)
        // None under the cap: the lowest the clock can play, never the AC-3 one.
        #expect(HLSPlaylist.choose(variants, cap: 10_000)?.bandwidth == 48_000)
        #expect(HLSPlaylist.choose(variants.filter { !$0.isPlayable }, cap: 128_000) == nil)
    }

    @Test func aMediaPlaylistsSegmentsCarryTheirSequenceDurationDiscontinuityAndMap() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-MEDIA-SEQUENCE:100
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:3.98,title
            a.m4s
            #EXT-X-DISCONTINUITY
            #EXT-X-MAP:URI="init2.mp4"
            #EXTINF:4.0,
            b.m4s
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:2.5,
            file:///etc/passwd
            #EXTINF:2.5,
            c.m4s
            """
        guard case .media(let m) = try HLSPlaylist.parse(Array(text.utf8), base: "http://r.example/a/b.m3u8") else {
            Issue.record("not media"); return
        }
        #expect(m.targetDuration == 4 && !m.ended && m.encryption == nil)
        #expect(m.segments.map(\.sequence) == [100, 101, 103], "the file: entry is skipped, its number kept")
        #expect(m.segments.map(\.discontinuity) == [false, true, false])
        #expect(
            m.segments.map { $0.map?.text } == [
                "http://r.example/a/init.mp4", "http://r.example/a/init2.mp4", "http://r.example/a/init2.mp4",
            ])
        #expect(m.segments.map(\.duration) == [3.98, 4.0, 2.5])
    }

    @Test func encryptionIsNamedAndNotMistakenForNone() throws {
        let aes = Self.media(1, count: 3, extra: "#EXT-X-KEY:METHOD=AES-128,URI=\"https://k.example/key\",IV=0x1\n")
        guard case .media(let m) = try HLSPlaylist.parse(Array(aes.utf8), base: "http://r.example/") else { return }
        #expect(m.encryption == "AES-128")
        // What a hostile playlist puts in the words a sentence names is made plain (R40).
        let hostile = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"ac-3\u{202E}\u{1B}[2J\"\nv.m3u8\n"
        guard case .master(let variants) = try HLSPlaylist.parse(Array(hostile.utf8), base: "http://r.example/") else { return }
        #expect(variants.first?.codecs == ["ac-3[2j"])
        let key = Self.media(1, count: 1, extra: "#EXT-X-KEY:METHOD=AES\u{202E}-128\n")
        guard case .media(let k) = try HLSPlaylist.parse(Array(key.utf8), base: "http://r.example/") else { return }
        #expect(k.encryption == "AES-128")
        #expect(
            HLSPlaylist.attributes("METHOD=SAMPLE-AES,URI=\"a,b\",KEYFORMAT=\"x\"") == [
                "METHOD": "SAMPLE-AES", "URI": "a,b", "KEYFORMAT": "x",
            ])
    }

    @Test func notAPlaylistOrTooLargeIsRefusedWithASentence() {
        #expect(throws: PlaylistError.self) { try HLSPlaylist.parse(Array("<html>".utf8), base: "http://r.example/") }
        let huge = [UInt8](repeating: 0x23, count: HLSPlaylist.maxBytes + 1)
        #expect(throws: PlaylistError(description: "The HLS playlist is larger than 1 MiB.")) {
            try HLSPlaylist.parse(huge, base: "http://r.example/")
        }
    }

    static func segments(_ text: String) -> HLSPlaylist.Media {
        guard case .media(let m) = try! HLSPlaylist.parse(Array(text.utf8), base: "http://r.example/live/") else { fatalError() }
        return m
    }

    @Test func aLiveStreamStartsThreeSegmentsBackAndAnEndedOneAtItsStart() {
        var live = HLSLivePlan()
        #expect(
            live.loaded(Self.segments(Self.media(40, count: 6)), at: .zero)
                == .fetch(Self.segments(Self.media(43, count: 3)).segments))
        var ended = HLSLivePlan()
        guard case .fetch(let all) = ended.loaded(Self.segments(Self.media(1, count: 5, ended: true)), at: .zero) else { return }
        #expect(all.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(ended.loaded(Self.segments(Self.media(1, count: 5, ended: true)), at: .seconds(30)) == .ended)
    }

    @Test func aPlaylistThatStopsGrowingIsStaleAfterTheLongerOfTheStallTimeoutAndOneAndAHalfTargets() {
        for target in [2, 6, 10] {
            var plan = HLSLivePlan()
            let playlist = Self.segments(Self.media(1, count: 5, target: target))
            _ = plan.loaded(playlist, at: .zero)
            let limit = max(Duration.seconds(10), .milliseconds(target * 1500))
            #expect(plan.nextReload(after: .zero) == .seconds(target), "grew: one target duration")
            _ = plan.loaded(playlist, at: .seconds(target))
            #expect(
                plan.nextReload(after: .seconds(target)) == .seconds(target) + .milliseconds(target * 500),
                "unchanged: half of one")
            #expect(!plan.isStale(at: limit, stallTimeout: .seconds(10)))
            #expect(plan.isStale(at: limit + .milliseconds(1), stallTimeout: .seconds(10)))
        }
    }

    // MARK: The live plan against a simulated server

    struct Broadcast: Sendable, CustomStringConvertible {
        /// Per reload: how many new segments appeared (0…3, never more than the window, as a reader that reloads
        /// at the target duration sees), whether the first of them follows a discontinuity or a new map.
        var steps: [(grow: Int, discontinuity: Bool, newMap: Bool)]
        var window: Int
        var start: Int
        var description: String { "start=\(start) window=\(window) steps=\(steps)" }
    }

    static let broadcasts = Generator<Broadcast, Shrink.None<Broadcast>> { rng in
        func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }
        let steps = (0..<int(1...40)).map { _ in (grow: int(0...3), discontinuity: int(0...9) == 0, newMap: int(0...14) == 0) }
        return Broadcast(steps: steps, window: int(3...8), start: int(0...100_000))
    }

    @Test("every segment of a live stream is fetched once, in order, from the live edge; each break is a new stream")
    func liveProperty() async {
        await propertyCheck(count: 200, input: Self.broadcasts) { b in
            // The server: segments numbered from `start`; each has a discontinuity flag and a map generation.
            var all: [(n: Int, discontinuity: Bool, map: Int)] = (0..<b.window).map { (b.start + $0, false, 0) }
            var map = 0
            var plan = HLSLivePlan()
            var fetched: [Int] = []
            var breaks: [Int] = []
            var t = Duration.zero
            func playlist() -> HLSPlaylist.Media {
                let shown = all.suffix(b.window)
                let segments = shown.map {
                    HLSPlaylist.Segment(
                        sequence: $0.n, url: try! StreamURL(parsing: "http://r.example/s\($0.n).ts"), duration: 2,
                        discontinuity: $0.discontinuity, map: try! StreamURL(parsing: "http://r.example/init\($0.map).mp4"))
                }
                return HLSPlaylist.Media(targetDuration: 2, segments: segments, ended: false, encryption: nil)
            }
            func load() {
                // Load until the plan has nothing more to hand out from this playlist (breaks are carried out at once).
                while true {
                    switch plan.loaded(playlist(), at: t) {
                    case .fetch(let s):
                        fetched += s.map(\.sequence)
                        return
                    case .discontinuity(let s):
                        breaks.append(s.sequence)
                        plan.accept(s)
                    case .ended:
                        Issue.record("a live playlist never ends")
                        return
                    }
                }
            }
            load()
            #expect(fetched == Array((b.start + b.window - 3)..<(b.start + b.window)), "\(b)")
            var expectedBreaks: [Int] = []
            for step in b.steps {
                for i in 0..<step.grow {
                    let n = all.last!.n + 1
                    if i == 0 && step.newMap { map += 1 }
                    all.append((n, i == 0 && step.discontinuity, map))
                    if i == 0 && (step.discontinuity || step.newMap) { expectedBreaks.append(n) }
                }
                t += .seconds(2)
                load()
            }
            // Every segment from the live edge on, once, in order; a break exactly where the server put one.
            let edge = b.start + b.window - 3
            #expect(fetched == Array(edge...all.last!.n), "\(b)")
            #expect(breaks == expectedBreaks, "\(b)")
        }
    }
}
