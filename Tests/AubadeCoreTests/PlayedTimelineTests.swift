import AubadeCore
import Testing

/// What the engine played, placed as one stream: each chunk by its position from one anchor, which only a running
/// device's reading settles and which moves only beyond the jitter — so the played level has no gaps or overlaps the
/// card never played. At 1000 frames a second, a frame is a millisecond.
@Suite("Room check: the engine's chunks on one time line")
struct PlayedTimelineTests {
    static let loud = PlayedBlock(rms: 0.5)

    static func ms(_ n: Int) -> Duration { .milliseconds(n) }

    static func stream(_ chunks: [(position: Int64, heardAt: Int, running: Bool)]) -> PlayedTimeline {
        var t = PlayedTimeline()
        for c in chunks {
            t.append(position: c.position, frames: 100, rate: 1000, heardAt: ms(c.heardAt), running: c.running, block: loud)
        }
        return t
    }

    /// The level in each 25 ms block of [from, to).
    static func levels(_ t: PlayedTimeline, from: Int, to: Int) -> [Float] {
        stride(from: from, to: to, by: 25).map { t.played(from: ms($0), to: ms($0 + 25)).rms }
    }

    @Test func whatWasWrittenBeforeTheDeviceRanIsPlacedFromItsFirstRunningReading() {
        var t = Self.stream([(0, 0, false), (100, 10, false)])
        #expect(t.settledUntil == nil, "nothing is placed for good while the device waits")
        t.append(position: 200, frames: 100, rate: 1000, heardAt: Self.ms(1200), running: true, block: Self.loud)
        #expect(t.firstAudible(from: .zero) == Self.ms(1000), "its first frame is heard when the device started")
        #expect(t.settledUntil == Self.ms(1300))
        #expect(
            Self.levels(t, from: 0, to: 1000).allSatisfy { $0 == 0 },
            "nothing was heard before: \(Self.levels(t, from: 0, to: 1000))")
        #expect(
            Self.levels(t, from: 1000, to: 1300).allSatisfy { abs($0 - 0.5) < 1e-6 }, "\(Self.levels(t, from: 1000, to: 1300))")
    }

    @Test func readingsThatWanderWithinTheJitterLeaveNoGapAndNoOverlap() {
        // Each reading 12 ms early or late: 24 ms apart, within the 30 ms jitter.
        let t = Self.stream(
            (0..<10).map { (k: Int) -> (position: Int64, heardAt: Int, running: Bool) in
                let wander = k % 2 == 0 ? 12 : -12
                return (Int64(k * 100), 1000 + k * 100 + wander, true)
            })
        let levels = Self.levels(t, from: 1025, to: 1975)
        #expect(levels.allSatisfy { abs($0 - 0.5) < 1e-6 }, "one level throughout: \(levels)")
        #expect(!t.unknown(from: .zero, to: Self.ms(3000)), "no underrun")
    }

    @Test func anUnderrunLeavesASpanNobodyCanSpeakForAndWhatWaitedIsHeardAfterIt() {
        var t = Self.stream([(0, 1000, true), (100, 1100, true), (200, 1200, true), (300, 1300, false)])
        #expect(t.settledUntil == Self.ms(1300), "the chunk written into the stopped device may still move")
        // The device restarted 200 ms late: the chunk that waited is heard from 1500 ms, the next from 1600 ms.
        t.append(position: 400, frames: 100, rate: 1000, heardAt: Self.ms(1600), running: true, block: Self.loud)
        #expect(Self.levels(t, from: 1000, to: 1300).allSatisfy { abs($0 - 0.5) < 1e-6 }, "what played before keeps its time")
        #expect(Self.levels(t, from: 1300, to: 1500).allSatisfy { $0 == 0 }, "nothing was written for it")
        #expect(
            t.unknown(from: Self.ms(1300), to: Self.ms(1325)) && t.unknown(from: Self.ms(1475), to: Self.ms(1500)),
            "silence, or the card's old buffer played again: the engine cannot say")
        #expect(!t.unknown(from: Self.ms(1275), to: Self.ms(1300)) && !t.unknown(from: Self.ms(1500), to: Self.ms(1525)))
        #expect(
            Self.levels(t, from: 1500, to: 1700).allSatisfy { abs($0 - 0.5) < 1e-6 }, "\(Self.levels(t, from: 1500, to: 1700))")
        #expect(t.settledUntil == Self.ms(1700))
    }

    @Test func aPositionThatDoesNotFollowStartsANewStreamFromItsOwnReading() {
        var t = Self.stream([(0, 1000, true), (100, 1100, true)])
        t.append(position: 0, frames: 100, rate: 1000, heardAt: Self.ms(3000), running: true, block: Self.loud)
        #expect(Self.levels(t, from: 1200, to: 3000).allSatisfy { $0 == 0 })
        #expect(Self.levels(t, from: 3000, to: 3100).allSatisfy { abs($0 - 0.5) < 1e-6 })
        #expect(!t.unknown(from: .zero, to: Self.ms(4000)), "a device reopened was silent meanwhile")
    }

    @Test func forgettingTheOldKeepsTheStreamsPlace() {
        var t = Self.stream([(0, 1000, true), (100, 1100, true), (200, 1200, false)])
        t.forget(before: Self.ms(1150))
        t.append(position: 300, frames: 100, rate: 1000, heardAt: Self.ms(1300), running: true, block: Self.loud)
        #expect(
            Self.levels(t, from: 1100, to: 1400).allSatisfy { abs($0 - 0.5) < 1e-6 }, "\(Self.levels(t, from: 1100, to: 1400))")
        #expect(t.settledUntil == Self.ms(1400))
    }
}
