import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadeAudio

/// The sound side's threads carry their names for the kernel (/proc/self/task/*/comm, what `ps -L` and
/// `top -H` show): the engine's audio thread and a station's network thread.
@Suite("Audio threads are named")
struct AudioThreadNameTests {
    @Test func theEnginesThreadIsAubadeAudio() async throws {
        let dir = try TemporaryDirectory("thread-names")
        let engine = SoundEngine(options: SoundEngine.Options(sink: SinkOptions(device: "file:'\(dir.file("card.raw"))',raw")))
        engine.start()
        #expect(await threadAppears("aubade.audio"), "threads: \(threadNames())")
        await engine.shutdown()
    }

    @Test func aStationsNetworkThreadIsAubadeNet() async throws {
        // Port 9 (discard) refuses: the network thread waits out its reconnect backoff until stopped.
        let feed = StationFeed(
            url: try StreamURL(parsing: "http://127.0.0.1:9/stream"), rate: SoundEngine.rate,
            allowLoopback: true
        ) { _ in }
        #expect(await threadAppears("aubade.net"), "threads: \(threadNames())")
        feed.stop()
    }
}
