import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadeAudio

/// A real Icecast2 server fed by ezstream on 127.0.0.1: the audio, the ICY titles, and a reconnect after
/// the station went off the air and came back — with another track, so the card shows which connection
/// each stretch of audio came from.
@Suite("Real Icecast server", .serialized)
struct IcecastTests {
    @Test func playsTheStationWithTitlesAndReconnectsAfterARestart() async throws {
        let dir = try TemporaryDirectory("icecast-media")
        let before = try await TestMedia.sineMP3(frequency: 440, seconds: 10, artist: "Test Artist", title: "Sine Song", in: dir)
        let after = try await TestMedia.sineMP3(frequency: 660, seconds: 10, artist: "Test Artist", title: "Other Song", in: dir)
        let server = try await IcecastServer(mp3: before)
        // Played through the engine until the test has seen what it waits for (no fixed duration: on a loaded
        // machine Icecast may take long to come back), paced like a card.
        let rig = EnginePlay(in: dir, paced: true)
        let out = rig.card
        let id = rig.engine.play(try EnginePlay.radio(server.url, seconds: nil), paused: false)
        let events = StreamRecorder(rig.engine.events)
        // The first connection: audio on the card and the station's title.
        #expect(await events.wait { $0.contains(.title(id, "Test Artist - Sine Song")) }, "\(events.elements)")
        #expect(await events.wait { $0.contains { $0.isAudible } })
        // Off the air, and back on the same port with the other track.
        await server.stop()
        try await server.start(playing: after)
        // The engine notices, reconnects, and the new connection brings the new title and audio — awaited as
        // events and as what reached the card, however long a busy machine takes.
        #expect(
            await events.wait { $0.contains { if case .reconnecting = $0.stream { true } else { false } } }, "\(events.elements)")
        #expect(await events.wait { $0.contains(.title(id, "Test Artist - Other Song")) }, "\(events.elements)")
        #expect(await Self.cardPlays(660, over: 440, out), "the new track never reached the card")
        rig.engine.stop(id)
        #expect(await events.wait { $0.contains { $0.end != nil } })
        await rig.engine.shutdown()
        let seen = events.elements
        #expect(seen.contains(.stopped(id, .requested)))
        let order = [
            seen.firstIndex(of: .title(id, "Test Artist - Sine Song")),
            seen.firstIndex { if case .reconnecting = $0.stream { true } else { false } },
            seen.firstIndex(of: .title(id, "Test Artist - Other Song")),
        ].compactMap { $0 }
        #expect(order.count == 3 && order == order.sorted(), "\(seen)")
        if let firstAudio = seen.first(where: { $0.isAudible }) { figure("Icecast: first audio after", firstAudio.audibleAfter) }
        // The card: the first track's sine, then the second's — audio from both connections, at the level.
        let pcm = Signal.samples(out)
        let old = try #require(Signal.firstHeard(440, over: 660, in: pcm))
        let new = try #require(Signal.firstHeard(660, over: 440, in: pcm))
        #expect(old < new)
        let mono = Signal.left(Array(pcm[44_100..<(44_100 + 8820)]))
        #expect(Signal.power(at: 440, mono) > 100 * Signal.power(at: 660, mono))
        #expect(Signal.rmsDBFS(pcm[...]) > -15)
    }

    /// AAC, Ogg Vorbis, Ogg Opus and Ogg FLAC mount points of the same real Icecast (ffmpeg as their source client,
    /// in real time): each plays through its decoder to the card at its pitch, a listener joining mid-stream; the Ogg
    /// ones say their title from their comment header.
    @Test func aacAndOggMountsPlayBesideTheMP3One() async throws {
        let dir = try TemporaryDirectory("icecast-formats")
        let mp3 = try await TestMedia.sineMP3(frequency: 440, seconds: 10, in: dir)
        let server = try await IcecastServer(mp3: mp3)
        let mounts: [(TestMedia.Format, String, String, String)] = [
            (.aac, "/radio.aac", "adts", "audio/aac"), (.vorbis, "/radio.ogg", "ogg", "audio/ogg"),
            (.opus, "/radio.opus", "ogg", "audio/ogg"), (.oggFLAC, "/radio.flac.ogg", "ogg", "audio/ogg"),
        ]
        for (format, mount, muxer, type) in mounts {
            // A minute long: the loop's seam (the encoder's padding at the file's end and start) never falls in what is
            // measured.
            let file = try await TestMedia.sine(
                format, frequency: FormatPlayTests.frequency, seconds: 60, rate: format == .opus ? 48_000 : 44_100,
                artist: "Test Artist", title: "Song in \(format)", in: dir)
            let url = try await server.feed(mount, file: file, format: muxer, contentType: type)
            // Four seconds from the request (connecting included: on a loaded machine the first audio may take a second).
            let run = await EnginePlay(in: dir, paced: true).play(try EnginePlay.radio(url, seconds: 4))
            #expect(run.events.last?.end == .finished, "\(format): \(run.events)")
            #expect(run.events.contains { $0.isAudible("station") }, "\(format)")
            if muxer == "ogg" {
                // Ogg's title is in the stream's comment header, which Icecast gives each new listener.
                #expect(
                    run.events.contains { if case .title(_, "Test Artist - Song in \(format)") = $0 { true } else { false } },
                    "\(format): \(run.events)")
            }
            #expect(
                FormatPlayTests.isTheSine(run.pcm, from: 2),
                "\(format) from Icecast: \(Double(run.pcm.count / 2) / 44_100) s on the card, longest silence \(Signal.longestSilence(run.pcm)) s"
            )
        }
        await server.stop()
    }

    /// Waits until the last 100 ms on the card are `frequency` (the watchdog only ends a failing test).
    static func cardPlays(_ frequency: Double, over other: Double, _ path: String) async -> Bool {
        await poll(EventProcess.watchdog, every: .milliseconds(200)) { () -> Bool? in
            let frames = Signal.frames(path)
            if frames >= 4410, let tail = Signal.windows(Array(Signal.samples(path).suffix(2 * 4410))).last?.samples,
                Signal.isTone(frequency, over: other, in: tail)
            {
                return true
            }
            return nil
        } ?? false
    }
}
