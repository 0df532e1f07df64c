import AubadeCore
import Testing

/// R16: station → alternate → tone, decided on what the sound card consumed.
@Suite("Sound supervisor")
struct SoundSupervisorTests {
    static func t(_ s: Double) -> MonotonicInstant { MonotonicInstant(seconds: s) }

    @Test func aStationHeardInTimeKeepsPlaying() {
        var s = SoundSupervisor(stationCount: 1, startedAt: Self.t(0))
        #expect(s.update(now: Self.t(1), heard: false).isEmpty)
        // Verified at 2.5 s means audible since 0.5 s (the 2-s window).
        #expect(s.update(now: Self.t(2.5), heard: true) == [.audible(.station(0), after: .milliseconds(500))])
        // Heard again: no second audible report.
        #expect(s.update(now: Self.t(3), heard: true).isEmpty)
        #expect(s.update(now: Self.t(11.9), heard: false).isEmpty)
        #expect(s.current == .station(0))
    }

    @Test func anEpisodeThatEndsHandsOverToTheToneAtOnceAndIsNotFetchedAgain() {
        var s = SoundSupervisor(stationCount: 1, startedAt: Self.t(0))
        _ = s.update(now: Self.t(2.5), heard: true)
        #expect(
            s.ended(now: Self.t(6), reason: "The episode ended.") == [
                .fallBack(from: .station(0), to: .tone, reason: "The episode ended.")
            ])
        #expect(s.current == .tone && s.stationToFetch == nil)
        // Nothing brings it back: it is not fetched, so it is never heard in the background.
        for second in stride(from: 7.0, through: 60, by: 1) { #expect(s.update(now: Self.t(second), heard: false).isEmpty) }
        #expect(s.current == .tone)
        #expect(s.ended(now: Self.t(61), reason: "again").isEmpty)  // the tone has no end
    }

    @Test func anEpisodeThatEndsUnderTheToneNeverTakesOverFromItsBeginning() {
        var s = SoundSupervisor(stationCount: 1, startedAt: Self.t(0))
        _ = s.update(now: Self.t(10), heard: false)  // silent 10 s: the tone, the episode read on in the background
        #expect(s.current == .tone && s.stationToFetch == 0)
        _ = s.update(now: Self.t(11), heard: true)
        s.ended(source: 0)  // its end reached in the background
        #expect(s.stationToFetch == nil)
        for second in stride(from: 12.0, through: 60, by: 1) { #expect(s.update(now: Self.t(second), heard: false).isEmpty) }
        #expect(s.current == .tone)
    }

    @Test func silenceFromTheStartFallsBackAfterTenSeconds() {
        var s = SoundSupervisor(stationCount: 1, startedAt: Self.t(100))
        #expect(s.update(now: Self.t(109.9), heard: false).isEmpty)
        let d = s.update(now: Self.t(110), heard: false)
        #expect(d == [.fallBack(from: .station(0), to: .tone, reason: "No audio from the station within 10 s.")])
        #expect(s.current == .tone)
    }

    @Test func silenceWhileRingingFallsBackAfterTenSeconds() {
        var s = SoundSupervisor(stationCount: 1, startedAt: Self.t(0))
        _ = s.update(now: Self.t(2), heard: true)
        #expect(s.update(now: Self.t(11.9), heard: false).isEmpty)
        #expect(
            s.update(now: Self.t(12), heard: false) == [
                .fallBack(from: .station(0), to: .tone, reason: "The station went silent for 10 s.")
            ])
    }

    @Test func aKnowableFailureBeforeAudioFallsBackAtOnceThroughTheAlternate() {
        var s = SoundSupervisor(stationCount: 2, startedAt: Self.t(0))
        #expect(
            s.update(now: Self.t(0.2), heard: false, failure: "Connection refused.") == [
                .fallBack(from: .station(0), to: .station(1), reason: "Connection refused.")
            ])
        #expect(s.stationToFetch == 1)
        #expect(
            s.update(now: Self.t(0.5), heard: false, failure: "The station sent a web page, not audio.") == [
                .fallBack(from: .station(1), to: .tone, reason: "The station sent a web page, not audio.")
            ])
        #expect(s.current == .tone && s.stationToFetch == 0)
    }

    @Test func aFailureAfterAudioWaitsForTheSilenceLimit() {
        // A reconnect after a drop may succeed: the buffered audio and the retry get their 10 s.
        var s = SoundSupervisor(stationCount: 1, startedAt: Self.t(0))
        _ = s.update(now: Self.t(1), heard: true)
        #expect(s.update(now: Self.t(2), heard: false, failure: "The station closed the stream.").isEmpty)
        #expect(
            s.update(now: Self.t(11), heard: false, failure: "Connection refused.") == [
                .fallBack(from: .station(0), to: .tone, reason: "Connection refused.")
            ])
    }

    @Test func aFailedPreCheckStartsOnTheTone() {
        var s = SoundSupervisor(stationCount: 1, startedAt: Self.t(0), preselectedFallback: "DNS failed.")
        #expect(s.current == .tone)
        #expect(s.stationToFetch == 0)
        #expect(s.toneHeard(now: Self.t(0.05)) == [.audible(.tone, after: .milliseconds(50))])
    }

    @Test func theStationReturnsOnlyAfterFifteenSecondsOfUninterruptedAudio() {
        var s = SoundSupervisor(stationCount: 1, startedAt: Self.t(0), preselectedFallback: "x")
        for i in 0..<14 { #expect(s.update(now: Self.t(Double(i)), heard: true).isEmpty) }
        // A gap restarts the count.
        #expect(s.update(now: Self.t(14), heard: false).isEmpty)
        for i in 15..<30 { #expect(s.update(now: Self.t(Double(i)), heard: true).isEmpty) }
        #expect(s.update(now: Self.t(30), heard: true) == [.recover(to: .station(0))])
        #expect(s.current == .station(0))
        // Back on the station, the usual silence rule applies again.
        #expect(s.update(now: Self.t(39.9), heard: false).isEmpty)
        #expect(s.update(now: Self.t(40), heard: false).count == 1)
    }

    @Test func anAlarmWithoutAStationIsTheToneFromTheStart() {
        var s = SoundSupervisor(stationCount: 0, startedAt: Self.t(0))
        #expect(s.current == .tone && s.stationToFetch == nil)
        #expect(s.update(now: Self.t(100), heard: true).isEmpty)
    }
}
