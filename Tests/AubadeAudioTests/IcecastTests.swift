@testable import AubadeAudio
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// A real Icecast2 server fed by ezstream on 127.0.0.1: the audio, the ICY titles, and a reconnect after
/// the station went off the air and came back.
@Suite("Real Icecast server", .serialized)
struct IcecastTests {
    @Test func playsTheStationWithTitlesAndReconnectsAfterARestart() async throws {
        let dir = try TemporaryDirectory("icecast-media")
        let mp3 = try TestMedia.sineMP3(frequency: 440, seconds: 10, artist: "Test Artist", title: "Sine Song", in: dir)
        let server = try IcecastServer(mp3: mp3)
        let out = dir.file("out.raw")
        // 20 s of audio, paced: room for the restart below even when this task's events come late on a loaded
        // machine (the cooperative pool is shared with every other suite).
        var options = StreamPlayer.Options(volume: 100, duration: .seconds(20), allowLoopback: true)
        options.stallTimeout = .seconds(3)
        let playback = StreamPlayer.start(try StreamURL(parsing: server.url), options: options,
                                          sink: SinkOptions(device: "file:'\(out)',raw", paced: true))
        // Paced like a card: the 20 s of audio take 20 s, so the restart below always lands inside them.
        var events: [PlayerEvent] = []
        var restarted = false
        let watchdog = Task {
            try await Task.sleep(for: .seconds(40))
            playback.stop()
        }
        for await e in playback.events {
            events.append(e)
            if case .title = e, !restarted {
                restarted = true
                server.stop()
                try await Task.sleep(for: .seconds(1))
                try server.start()
            }
        }
        watchdog.cancel()
        #expect(events.contains(.title("Test Artist - Sine Song")))
        #expect(events.contains { if case .reconnecting = $0 { true } else { false } })
        #expect(events.last == .stopped(reason: .finished))
        let firstAudio = events.compactMap { if case .playing(let after) = $0 { after } else { nil } }.first
        #expect(firstAudio != nil && firstAudio! < .seconds(3))
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        let pcm = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(pcm.count == 2 * 20 * 44_100)
        let mono = Signal.left(Array(pcm[44_100..<(44_100 + 8820)]))
        #expect(Signal.power(at: 440, mono) > 100 * Signal.power(at: 660, mono))
        #expect(Signal.rmsDBFS(pcm[...]) > -15)
    }
}
