import AubadeCore
import Testing

/// The sleep timer's countdown, fade-out, sleep-button extensions and the R14 refusal.
@Suite("Sleep timer: countdown, fade, extension (R8, R14)")
struct SleepTimerTests {
    static let start = MonotonicInstant(seconds: 100)

    /// 30 min at volume 30, fading over the last 60 s, started at mono+100 s.
    static func standard() -> SleepTimer {
        SleepTimer(duration: .seconds(1800), fade: .seconds(60), volume: 30, startedAt: start)
    }

    static func at(_ secondsAfterStart: Double) -> MonotonicInstant {
        start + .seconds(exactly: secondsAfterStart)
    }

    static let rows: [(after: Double, volume: Int, remaining: Double, finished: Bool)] = [
        (-10, 30, 1810, false),  // a reading before the start: full volume, the whole time left
        (0, 30, 1800, false),
        (900, 30, 900, false),
        (1739, 30, 61, false),
        (1740, 30, 60, false),  // the fade begins at full volume
        (1755, 23, 45, false),  // 30 × 45/60 = 22.5 → 23
        (1770, 15, 30, false),  // half-way down
        (1785, 8, 15, false),  // 7.5 → 8
        (1799, 1, 1, false),  // 0.5 → 1
        (1799.9, 0, 0.1, false),  // 0.05 → 0
        (1800, 0, 0, true),  // silent at the end
        (5000, 0, 0, true),  // and after it; remaining never negative
    ]

    @Test("volume, remaining and finished over a 30-minute timer", arguments: rows)
    func timeline(_ row: (after: Double, volume: Int, remaining: Double, finished: Bool)) {
        let timer = Self.standard()
        let now = Self.at(row.after)
        #expect(timer.volume(at: now) == row.volume, "at +\(row.after) s")
        #expect(timer.remaining(at: now) == .seconds(exactly: row.remaining), "at +\(row.after) s")
        #expect(timer.isFinished(at: now) == row.finished, "at +\(row.after) s")
    }

    @Test("the volume never rises and stays within 0…full while the timer runs")
    func volumeOnlyFalls() {
        let timer = Self.standard()
        var last = Int.max
        for tenth in 0...19_000 {
            let v = timer.volume(at: Self.at(Double(tenth) / 10))
            #expect(v <= last && v >= 0 && v <= 30, "at +\(Double(tenth) / 10) s: \(v) after \(last)")
            last = v
        }
        #expect(last == 0)
    }

    static let shapes: [(duration: Int, fade: Int, volume: Int, effectiveFade: Int, full: Int, checks: [(Double, Int)])] = [
        // The fade takes at most half the timer: a 30 s timer with a 60 s fade plays 15 s, then fades over 15 s.
        (30, 60, 40, 15, 40, [(0, 40), (15, 40), (22.5, 20), (29, 3), (30, 0)]),
        // No fade: full volume to the last instant, then silence.
        (600, 0, 50, 0, 50, [(0, 50), (599.9, 50), (600, 0)]),
        // A negative fade counts as none.
        (600, -5, 50, 0, 50, [(599, 50), (600, 0)]),
        // A fade as long as the timer is cut to its second half.
        (120, 120, 60, 60, 60, [(0, 60), (60, 60), (90, 30), (120, 0)]),
        // Volume held to 0…100.
        (60, 10, 150, 10, 100, [(0, 100), (55, 50)]),
        (60, 10, -20, 10, 0, [(0, 0), (55, 0), (60, 0)]),
        // A zero-length timer is finished at once.
        (0, 60, 30, 0, 30, [(0, 0), (1, 0)]),
    ]

    @Test("fade clamping, no fade and volume limits", arguments: shapes)
    func shape(_ s: (duration: Int, fade: Int, volume: Int, effectiveFade: Int, full: Int, checks: [(Double, Int)])) {
        let timer = SleepTimer(
            duration: .seconds(s.duration), fade: .seconds(s.fade), volume: s.volume,
            startedAt: Self.start)
        #expect(timer.fade == .seconds(s.effectiveFade))
        #expect(timer.fullVolume == s.full)
        #expect(timer.endsAt == Self.start + .seconds(s.duration))
        for (after, volume) in s.checks {
            #expect(timer.volume(at: Self.at(after)) == volume, "\(s.duration) s / fade \(s.fade) s at +\(after) s")
        }
    }

    @Test("a negative duration counts as zero")
    func negativeDuration() {
        let timer = SleepTimer(duration: .seconds(-30), fade: .seconds(10), volume: 30, startedAt: Self.start)
        #expect(timer.duration == .zero && timer.fade == .zero)
        #expect(timer.isFinished(at: Self.start) && timer.remaining(at: Self.start) == .zero)
    }

    @Test("a press before the fade adds 15 minutes and moves the fade to the new end")
    func pressBeforeTheFade() {
        var timer = Self.standard()
        timer.extend(by: SleepTimer.buttonStep, at: Self.at(600))
        #expect(timer.endsAt == Self.at(2700))
        #expect(timer.fadeBeginsAt == Self.at(2640))
        #expect(timer.remaining(at: Self.at(600)) == .seconds(2100))
        #expect(timer.volume(at: Self.at(1770)) == 30, "the old fade window now plays at full volume")
        #expect(timer.volume(at: Self.at(2670)) == 15)
        #expect(timer.volume(at: Self.at(2700)) == 0 && timer.isFinished(at: Self.at(2700)))
        #expect(timer.startedAt == Self.start, "a running timer keeps its start")
    }

    @Test("a press during the fade brings the volume back up and restarts the fade before the new end")
    func pressDuringTheFade() {
        var timer = Self.standard()
        #expect(timer.volume(at: Self.at(1770)) == 15)
        timer.extend(by: SleepTimer.buttonStep, at: Self.at(1770))
        #expect(timer.volume(at: Self.at(1770)) == 30)
        #expect(timer.remaining(at: Self.at(1770)) == .seconds(930))
        #expect(timer.volume(at: Self.at(2639)) == 30)
        #expect(timer.volume(at: Self.at(2655)) == 23)
        #expect(timer.volume(at: Self.at(2700)) == 0)
    }

    @Test("each press adds 15 minutes")
    func pressesAdd() {
        var timer = Self.standard()
        for press in 1...3 {
            timer.extend(by: SleepTimer.buttonStep, at: Self.at(Double(press * 10)))
            #expect(timer.duration == .seconds(1800 + press * 900))
        }
        #expect(timer.endsAt == Self.at(4500))
    }

    @Test("a timer shorter than its fade gets the whole requested fade back once extended")
    func extensionRestoresTheFade() {
        var timer = SleepTimer(duration: .seconds(30), fade: .seconds(60), volume: 40, startedAt: Self.start)
        #expect(timer.fade == .seconds(15) && timer.requestedFade == .seconds(60))
        timer.extend(by: SleepTimer.buttonStep, at: Self.at(20))
        #expect(timer.fade == .seconds(60))
        #expect(timer.volume(at: Self.at(20)) == 40)
        #expect(timer.volume(at: Self.at(900)) == 20)
    }

    @Test("a press after the timer ran out starts it over from the press")
    func pressAfterTheEnd() {
        var timer = Self.standard()
        let press = Self.at(2000)
        timer.extend(by: SleepTimer.buttonStep, at: press)
        #expect(timer.startedAt == press)
        #expect(timer.endsAt == press + .seconds(900))
        #expect(timer.volume(at: press) == 30 && !timer.isFinished(at: press))
        #expect(timer.volume(at: press + .seconds(870)) == 15)
    }

    @Test("a zero or negative extension changes nothing", arguments: [0, -60])
    func noExtension(seconds: Int) {
        var timer = Self.standard()
        timer.extend(by: .seconds(seconds), at: Self.at(600))
        #expect(timer == Self.standard())
    }

    @Test("changing the volume keeps the countdown and the fade, including the fade asked for")
    func volumeButtons() {
        var timer = SleepTimer(duration: .seconds(30), fade: .seconds(60), volume: 30, startedAt: Self.start)
        timer.setVolume(60)
        #expect(timer.fullVolume == 60 && timer.endsAt == Self.at(30) && timer.fade == .seconds(15))
        #expect(timer.volume(at: Self.at(22.5)) == 30)
        timer.extend(by: SleepTimer.buttonStep, at: Self.at(20))
        #expect(timer.fade == .seconds(60), "the requested fade survives a volume change")
        #expect(timer.volume(at: Self.at(900)) == 30)
        timer.setVolume(250)
        #expect(timer.fullVolume == 100)
        timer.setVolume(-1)
        #expect(timer.fullVolume == 0 && timer.volume(at: Self.at(100)) == 0)
    }

    @Test("R14: a sleep timer is refused while an alarm rings, with one sentence")
    func refusedWhileAnAlarmRings() {
        #expect(SleepTimer.decide(alarmRinging: false) == .start)
        let decision = SleepTimer.decide(alarmRinging: true)
        #expect(decision == .refused("An alarm is ringing; stop or snooze it first, the sleep timer never plays over an alarm."))
        guard case .refused(let sentence) = decision else { return }
        #expect(sentence.hasSuffix(".") && sentence.filter { $0 == "." }.count == 1)
    }
}
