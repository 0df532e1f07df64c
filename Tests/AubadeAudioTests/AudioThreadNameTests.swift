@testable import AubadeAudio
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// The sound side's threads carry their names for the kernel (/proc/self/task/*/comm, what `ps -L` and
/// `top -H` show): the engine's audio thread and a station's network thread.
@Suite("Audio threads are named")
struct AudioThreadNameTests {
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Waits (a generous watchdog) until a thread called `name` runs. Other tests' engines may run too, so this
    /// only ever looks for one, never counts them.
    static func appears(_ name: String) async -> Bool {
        let end = ContinuousClock.now + EventProcess.watchdog
        while !threadNames().contains(name) {
            if ContinuousClock.now >= end { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    @Test func theEnginesThreadIsAubadeAudio() async throws {
        let dir = try TemporaryDirectory("thread-names")
        let engine = SoundEngine(options: SoundEngine.Options(sink: SinkOptions(device: "file:'\(dir.file("card.raw"))',raw")))
        engine.start()
        #expect(await Self.appears("aubade.audio"), "threads: \(Self.threadNames())")
        await engine.shutdown()
    }

    @Test func aStationsNetworkThreadIsAubadeNet() async throws {
        // Port 9 (discard) refuses: the network thread waits out its reconnect backoff until stopped.
        let feed = StationFeed(url: try StreamURL(parsing: "http://127.0.0.1:9/stream"), rate: SoundEngine.rate,
                               allowLoopback: true) { _ in }
        #expect(await Self.appears("aubade.net"), "threads: \(Self.threadNames())")
        feed.stop()
    }
}
