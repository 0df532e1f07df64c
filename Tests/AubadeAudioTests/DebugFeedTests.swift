import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadeAudio

@Suite struct DebugFeedTests {
    @Test func debug() async throws {
        let f = try await FormatPlayTests.Fixture()
        for fmt in [TestMedia.Format.aac, .flac] {
        let name = try await f.media(fmt)
        let url = try StreamURL(parsing: f.base + "/file/" + name)
        let out = await onThread("dbg") { () -> String in
            let feed = StationFeed(url: url, rate: SoundEngine.rate, allowLoopback: true) { e in print("EVENT", e) }
            var pcm = [Int16](repeating: 0, count: 2 * 4096)
            var got = 0
            let end = ContinuousClock.now + .seconds(5)
            while got < 44_100, ContinuousClock.now < end {
                let n = pcm.withUnsafeMutableBufferPointer { feed.pull(frames: 4096, into: $0) }
                got += n
                if let f = feed.takeFailure() { return "failure \(f) after \(got)" }
                if n == 0 { feed.waitForInput(atMost: .milliseconds(200)) }
            }
            return "got \(got)"
        }
        print("RESULT", fmt, out)
        }
    }
}
