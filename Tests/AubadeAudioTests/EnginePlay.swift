import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadeAudio

/// Plays through a fresh `SoundEngine` on an ALSA `file` card and collects what happened: every event with
/// the wall time since the first sound began, and the PCM that reached the card (the engine makes its test
/// write only on real cards, so the capture holds exactly what played). One engine per run: its event stream
/// has one consumer.
struct EnginePlay {
    struct Run {
        var events: [SoundEvent]
        /// Seconds from the first `begin` to each event (a figure, never asserted as an upper bound).
        var times: [Double]
        var pcm: [Int16]
        var opens: Int

        func first(_ match: (SoundEvent) -> Bool) -> (SoundEvent, Double)? {
            guard let i = events.firstIndex(where: match) else { return nil }
            return (events[i], times[i])
        }

        /// Where the first event matching `match` stands (Int.max when none: sorts last).
        func index(_ match: (SoundEvent) -> Bool) -> Int {
            events.firstIndex(where: match) ?? Int.max
        }
    }

    let engine: SoundEngine
    let card: String

    /// An engine writing to `device`, else to a new raw file in `dir`; paced like a card unless `paced` is false.
    init(in dir: TemporaryDirectory, device: String? = nil, paced: Bool = true, alternate: String? = nil) {
        card = dir.file("card-\(UUID().uuidString).raw")
        engine = SoundEngine(
            options: SoundEngine.Options(
                sink: SinkOptions(
                    device: device ?? "file:'\(card)',raw",
                    alternate: alternate, paced: paced)))
        engine.start()
    }

    /// Plays `request` (prepared first, begun at its `ready`, when `prepare`), and collects events until it
    /// stops — or until `act` returns true for an event (it may also stop or start sounds) and the sound then
    /// stops. A watchdog stops a sound that never ends by itself; the test then fails on what it got.
    func play(
        _ request: SoundRequest, prepare: Bool = false,
        act: @escaping @Sendable (SoundEvent, SoundEngine, SoundID) -> Void = { _, _, _ in }
    ) async -> Run {
        let id = engine.play(request, paused: prepare)
        return await collect(until: id, begin: prepare ? id : nil, act: act)
    }

    /// Collects events until sound `id` stops; then shuts the engine down unless `keepRunning` (another
    /// `collect` follows on the same engine).
    func collect(
        until id: SoundID, begin prepared: SoundID? = nil, keepRunning: Bool = false,
        act: @escaping @Sendable (SoundEvent, SoundEngine, SoundID) -> Void = { _, _, _ in }
    ) async -> Run {
        let engine = self.engine
        let collected = await withTaskGroup(of: [(SoundEvent, ContinuousClock.Instant)]?.self) { group in
            group.addTask {
                var seen: [(SoundEvent, ContinuousClock.Instant)] = []
                for await event in engine.events {
                    seen.append((event, .now))
                    if let prepared, case .ready(prepared) = event { engine.begin(prepared) }
                    act(event, engine, id)
                    if case .stopped(id, _) = event { break }
                }
                return seen
            }
            group.addTask {
                try? await Task.sleep(for: EventProcess.watchdog)
                engine.stop(id)
                return nil
            }
            var result: [(SoundEvent, ContinuousClock.Instant)] = []
            while let next = await group.next() {
                if let events = next {
                    result = events
                    group.cancelAll()
                }
            }
            return result
        }
        let start = collected.first { if case .ready = $0.0 { false } else { $0.0.sound != nil } }?.1 ?? .now
        let opens = engine.device.opens
        if !keepRunning { await engine.shutdown() }
        return Run(
            events: collected.map(\.0), times: collected.map { ($0.1 - start) / .seconds(1) },
            pcm: Signal.samples(card), opens: opens)
    }

    /// An alarm request like the daemon's: its stations (or the tone), supervised, with the tone at 90.
    static func alarm(
        _ stations: [String], seconds: Double, pre: String? = nil, volume: Int = 100,
        fadeIn: Duration = .zero
    ) throws -> SoundRequest {
        let urls = try stations.map { try StreamURL(parsing: $0) }
        return SoundRequest(
            priority: .alarm, content: urls.isEmpty ? .tone(.classic) : .stations(urls), volume: volume,
            fadeIn: fadeIn, fallback: .init(tone: .classic, toneVolume: 90, preselected: pre),
            limit: .milliseconds(Int64(seconds * 1000)), allowLoopback: true)
    }

    /// A station played for listening (unsupervised) for `seconds` of audio.
    static func radio(_ url: String, seconds: Double?, volume: Int = 100) throws -> SoundRequest {
        SoundRequest(
            priority: .radio, content: .stations([try StreamURL(parsing: url)]), volume: volume,
            limit: seconds.map { .milliseconds(Int64($0 * 1000)) }, allowLoopback: true)
    }
}

extension SoundEvent {
    var isAudible: Bool { if case .audible = self { true } else { false } }
    var isFallback: Bool { if case .fallback = self { true } else { false } }
    func isAudible(_ source: String) -> Bool { if case .audible(_, source, _) = self { true } else { false } }
    var audibleAfter: Duration { if case .audible(_, _, let after) = self { after } else { .zero } }
    var stream: StreamEvent? { if case .stream(_, let e) = self { e } else { nil } }
    var end: SoundEnd? { if case .stopped(_, let end) = self { end } else { nil } }
}
