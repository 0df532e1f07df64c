import AubadeApp
import AubadeCore
import AubadeTesting
import Synchronization
import Testing

/// The backlight's own thread: levels written in order (the newest of a burst), a failing backlight reported once
/// per change and retried at the next level, and a restore that is the last write.
@Suite("The backlight's thread")
struct BacklightWriterTests {
    final class Wakes: Sendable {
        let count = Atomic<Int>(0)
    }

    @Test func levelsAreWrittenInOrderAndARepeatedLevelOnlyOnce() async {
        let fake = FakeBacklight()
        let writer = BacklightWriter(fake, changed: {})
        writer.set(percent: 10)
        await writer.settled()
        writer.set(percent: 10)
        writer.set(percent: 40)
        await writer.settled()
        #expect(fake.percents == [10, 40])
        #expect(writer.takeOutcome() == nil, "nothing failed, nothing to report")
    }

    @Test func aFailureIsReportedOnceRetriedAtTheNextLevelAndItsEndReportedToo() async {
        let fake = FakeBacklight()
        let wakes = Wakes()
        let writer = BacklightWriter(fake, changed: { wakes.count.add(1, ordering: .relaxed) })
        fake.fail(with: "Permission denied")
        writer.set(percent: 10)
        await writer.settled()
        writer.set(percent: 20)
        await writer.settled()
        #expect(writer.takeOutcome() == .some(BacklightError("Permission denied")))
        #expect(writer.takeOutcome() == nil, "taken once")
        #expect(wakes.count.load(ordering: .relaxed) == 1, "the second failure is no change")
        fake.fail(with: nil)
        writer.set(percent: 20)  // the failed level again: written, since it failed
        await writer.settled()
        #expect(fake.percents == [20])
        #expect(writer.takeOutcome() == .some(nil))
        #expect(wakes.count.load(ordering: .relaxed) == 2)
    }

    @Test func restoreIsTheLastWrite() async {
        let fake = FakeBacklight(brightness: 200)
        let writer = BacklightWriter(fake, changed: {})
        writer.set(percent: 10)
        writer.restore()
        #expect(fake.current.brightness == 200, "restore waits for its write")
        writer.set(percent: 50)
        await writer.settled()
        #expect(fake.current.brightness == 200 && !fake.percents.contains(50))
    }
}
