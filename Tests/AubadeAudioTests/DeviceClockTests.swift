import AubadeCore
import Testing

@testable import AubadeAudio

/// The arithmetic of an alarm's first frame on its second: where it goes in the device's stream, and when a frame
/// written is heard — from one reading of what the device holds.
@Suite("Onset arithmetic")
struct DeviceClockTests {
    static let rate = 44_100

    static func reading(written: Int64, queued: Int, at seconds: Double, running: Bool = true) -> AlsaSink.Timeline {
        AlsaSink.Timeline(
            written: written, queued: queued, at: .milliseconds(Int64(seconds * 1000)), deviceTimestamp: true,
            running: running)
    }

    @Test func theDeviceDelayIsWrittenAheadOfTheSecond() {
        // 200 ms queued at t = 99.5 s: the next frame written is heard at 99.7 s, so a sound due at 100 s waits for
        // 300 ms of what sounds now — 13,230 frames — and its first frame, written then, is heard at 100 s.
        let t = Self.reading(written: 88_200, queued: 8_820, at: 99.5)
        let due = MonotonicInstant(.seconds(100))
        #expect(DeviceClock.framesBefore(due: due, timeline: t, rate: Self.rate) == 13_230)
        #expect(DeviceClock.heard(position: 88_200 + 13_230, timeline: t, rate: Self.rate) == due)
    }

    @Test func aSoundDueWithinWhatTheDeviceHoldsBeginsAtOnceAndIsReportedLate() {
        // 200 ms queued, the sound due 50 ms from now: it cannot be heard before the queue has played.
        let t = Self.reading(written: 10_000, queued: 8_820, at: 10)
        let due = MonotonicInstant(.milliseconds(10_050))
        #expect(DeviceClock.framesBefore(due: due, timeline: t, rate: Self.rate) == 0)
        let heard = DeviceClock.heard(position: 10_000, timeline: t, rate: Self.rate)
        #expect(heard - due == .milliseconds(150))
    }

    @Test func aSecondAlreadyPastBeginsAtOnce() {
        let t = Self.reading(written: 0, queued: 0, at: 20)
        #expect(DeviceClock.framesBefore(due: MonotonicInstant(.seconds(19)), timeline: t, rate: Self.rate) == 0)
    }

    @Test func aDeviceThatCannotSayWhatItHoldsLeavesTheStartToTheSystemClock() {
        #expect(DeviceClock.framesBefore(due: MonotonicInstant(.seconds(5)), timeline: nil, rate: Self.rate) == nil)
    }

    @Test func aFrameAlreadyPlayedWasHeardInThePast() {
        // 1,000 frames queued of 50,000 written: frame 44,100 was heard 49,000 − 44,100 frames before the reading.
        let t = Self.reading(written: 50_000, queued: 1_000, at: 30)
        let heard = DeviceClock.heard(position: 44_100, timeline: t, rate: Self.rate)
        #expect(heard == MonotonicInstant(.seconds(30)) - DeviceClock.seconds(frames: 4_900, rate: Self.rate))
    }

    @Test func roundingPlacesTheFirstFrameWithinHalfAFrame() throws {
        // A due instant between two frames goes to the nearer: never more than 11.3 µs off at 44.1 kHz.
        for micros in stride(from: 0, to: 100, by: 7) {
            let t = Self.reading(written: 0, queued: 0, at: 1)
            let due = MonotonicInstant(.seconds(2) + .microseconds(micros))
            let before = try #require(DeviceClock.framesBefore(due: due, timeline: t, rate: Self.rate))
            let heard = DeviceClock.heard(position: before, timeline: t, rate: Self.rate)
            let off = heard - due
            #expect(off <= .microseconds(12) && off >= .microseconds(-12), "\(micros) µs: \(off)")
        }
    }
}
