import AubadeCore
import Foundation
import PropertyBased
import Testing

/// "Vibrate first, sound after" (`Alarm.soundAfter`) in the alarm engine: the ring begins at the occurrence with its
/// outputs, its sound (`RingRequest.silentFor`), ladder and duration start N later; a person's snooze vibrates first
/// again, a ladder's round and a wake-up check's ring sound at once; the refusals.
@Suite("Scheduler: vibrate first, sound after")
struct SoundAfterTests {
    static let utc = TimeZone(identifier: "UTC") ?? .gmt
    /// 2026-11-24 06:59:00 UTC.
    static let start = Date(timeIntervalSince1970: 1_795_503_540)
    static let seven = start.addingTimeInterval(60)

    static func alarm(
        after seconds: Int = 60, shaker: OutputTiming? = nil, lamp: OutputTiming? = nil, ladder: AlarmLadder = .clock,
        duration: Int = 900, wakeCheck: Int = 0
    ) -> Alarm {
        Alarm(
            id: 1, name: "Wake", time: try! LocalTime(hour: 7, minute: 0), recurrence: .weekly(.all),
            durationSeconds: duration, sound: .tone, maxSnoozes: 3, ladder: ladder, wakeCheckSeconds: wakeCheck,
            shaker: shaker, lamp: lamp, soundAfter: .seconds(seconds))
    }

    struct Drive {
        var scheduler: AlarmScheduler
        var wall = SoundAfterTests.start
        var mono = MonotonicInstant(seconds: 1000)
        var rings: [(at: Date, request: RingRequest)] = []
        var climbs: [(at: Date, step: LadderStep)] = []
        var history: [HistoryEvent] = []
        var stopped = false

        init(_ alarm: Alarm, outputs: [OutputName] = [.shaker], plan: LadderPlan = .standard) {
            scheduler = AlarmScheduler(
                alarms: [alarm], states: [], settings: AppSettings(), defaultZone: SoundAfterTests.utc, ladder: plan,
                outputs: outputs)
            take(scheduler.start(at: now))
        }

        var now: SchedulerTime { SchedulerTime(wall: wall, mono: mono) }

        mutating func advance(_ seconds: Double) {
            wall = wall.addingTimeInterval(seconds)
            mono = mono + .seconds(seconds)
            take(scheduler.tick(at: now))
        }

        /// When the last ring's sound starts, on the wall clock.
        var soundStarts: Date? { rings.last.map { $0.at.addingTimeInterval($0.request.silentFor.inSeconds) } }

        mutating func take(_ actions: [SchedulerAction]) {
            for action in actions {
                switch action {
                case .ring(let r): rings.append((wall, r))
                case .climb(_, let step): climbs.append((wall, step))
                case .record(let e): history.append(e)
                case .stopRinging(let s): if s.silencesPlayer { stopped = true }
                default: break
                }
            }
        }
    }

    @Test func theRingBeginsAtItsTimeAndItsSoundAndLadderNLater() {
        var d = Drive(Self.alarm(after: 60))
        d.advance(60)  // 07:00
        #expect(d.rings.count == 1 && d.rings[0].request.silentFor == .seconds(60) && d.rings[0].at == Self.seven)
        #expect(d.scheduler.ringingAlarmIDs == [1] && d.scheduler.state(of: 1).phase == .ringing)
        #expect(d.scheduler.soundStart(of: 1) == d.mono + .seconds(60) && d.scheduler.silentPart(of: 1) == .seconds(60))
        // The standard ladder: 3 minutes a step from the sound's start (07:01), so louder at 07:04, not 07:03.
        d.advance(30)
        d.take(d.scheduler.personActed(at: d.now))  // a touch at 07:00:30, before the sound, has no climb to take back
        d.advance(209)  // 07:04 - 1 s
        #expect(d.climbs.isEmpty)
        d.advance(1)
        #expect(d.climbs.map(\.step) == [.louder] && d.climbs[0].at == Self.seven.addingTimeInterval(240))
    }

    @Test func aPersonsSnoozeVibratesFirstAgainAWakeCheckRingSoundsAtOnce() {
        var d = Drive(Self.alarm(after: 30, wakeCheck: 300))
        d.advance(90)  // 07:00:30, the sound
        d.take(d.scheduler.snoozePressed(at: d.now))
        d.advance(9 * 60)  // the snooze's end
        #expect(d.rings.count == 2 && d.rings[1].request.cause == .snoozeEnded && d.rings[1].request.silentFor == .seconds(30))
        d.take(d.scheduler.stopPressed(at: d.now))
        d.advance(300)  // "are you up?"
        d.advance(60)  // unanswered: it rings again, at once
        #expect(d.rings.count == 3 && d.rings[2].request.cause == .wakeCheck && d.rings[2].request.silentFor == .zero)
    }

    @Test func aLaddersNextRoundSoundsAtOnceAndItsDurationCountsFromTheSound() {
        var d = Drive(Self.alarm(after: 60), plan: LadderPlan(stepSeconds: 60, rounds: 1, gapSeconds: 300))
        d.advance(60)
        // 07:01 sound, 07:02 louder, 07:03 tone, 07:04 top, 07:05 rest until 07:10, then round 1 at once.
        d.advance(5 * 60)
        #expect(d.history.contains { $0.kind == HistoryKind.rested.rawValue })
        d.advance(5 * 60)
        #expect(d.rings.count == 2 && d.rings[1].request.silentFor == .zero, "the next round: at once")

        var off = Drive(Self.alarm(after: 60, ladder: .own(.off), duration: 120))
        off.advance(60)
        off.advance(179)
        #expect(!off.stopped, "two minutes of sound, counted from 07:01")
        off.advance(1)
        #expect(off.stopped && off.history.last?.kind == HistoryKind.autoSilenced.rawValue)
    }

    @Test func withoutAnOutputThatComesOnFirstItSoundsAtOnceAndSaysWhy() {
        var d = Drive(Self.alarm(after: 60), outputs: [])
        d.advance(60)
        #expect(d.rings.first?.request.silentFor == .zero && d.rings.first?.request.soundAfterWithoutOutputs == true)
        #expect(d.history.contains { $0.kind == HistoryKind.warning.rawValue && $0.detail.contains("no shaker or lamp") })
        // The clock holds only the shaker, and this alarm turns it off: the same.
        var lampOnly = Drive(Self.alarm(after: 60, shaker: .off), outputs: [.shaker])
        lampOnly.advance(60)
        #expect(lampOnly.rings.first?.request.silentFor == .zero)
    }

    @Test func aCatchUpRingSoundsNoLaterThanItsTimePlusN() {
        var d = Drive(Self.alarm(after: 60))
        d.wall = d.wall.addingTimeInterval(100)  // the first turn at 07:00:40 (a restart)
        d.mono = d.mono + .seconds(100)
        d.take(d.scheduler.tick(at: d.now))
        #expect(d.rings.first?.request.silentFor == .seconds(20) && d.soundStarts == Self.seven.addingTimeInterval(60))
    }

    @Test(
        "refused: no output before the sound, out of range",
        arguments: [
            (OutputTiming.off, OutputTiming.off, 60), (.off, .after(seconds: 60), 60), (.after(seconds: 90), .off, 60),
            (.now, nil, 601), (nil, nil, 0),
        ] as [(OutputTiming?, OutputTiming?, Int)])
    func refusals(shaker: OutputTiming?, lamp: OutputTiming?, seconds: Int) {
        var alarm = Self.alarm(after: max(1, seconds), shaker: shaker, lamp: lamp)
        alarm.soundAfter = .seconds(seconds)
        #expect(throws: ValidationError.self) { try alarm.validate() }
        var patch = AlarmPatch(shaker: shaker.map { OutputTiming.alarmText($0) } ?? "ladder", soundAfterSeconds: seconds)
        if seconds == 0 { patch = AlarmPatch(soundAfterSeconds: 601) }
        var target = Self.alarm()
        target.soundAfter = nil
        target.lamp = lamp
        do {
            try patch.apply(
                to: &target, zone: Self.utc, now: Self.start, stationNamed: { _ in nil }, podcastNamed: { _ in nil })
            Issue.record("accepted \(patch)")
        } catch let error as ValidationError {
            #expect(error.kind == .unprocessable, "\(error.message)")
            #expect(error.message.hasSuffix(".") && !error.message.dropLast().contains(". "))
        } catch {
            Issue.record("\(error)")
        }
        var fine = Self.alarm(after: 60, shaker: .off, lamp: .after(seconds: 59))
        #expect(throws: Never.self) { try fine.validate() }
    }

    /// With sound-after N, on random mornings (N, the outputs' timings, how late the ring begins, when a person stops
    /// it): the sound never begins before the occurrence + N; it begins by then when the ring was not stopped first
    /// and began by then; an output is on from the ring's start or comes on before the sound; a Stop in the silent
    /// part means no sound ever.
    @Test func theSoundNeverStartsBeforeItsTimePlusNAndAlwaysByThen() async {
        struct Morning: Sendable, CustomStringConvertible {
            var seconds: Int
            var shaker: OutputTiming?
            var lamp: OutputTiming?
            var late: Int
            var stopAfter: Int
            var description: String {
                "N=\(seconds)s shaker=\(String(describing: shaker)) lamp=\(String(describing: lamp)) late=\(late)s stop=\(stopAfter)s"
            }
        }
        let mornings = Generator<Morning, Shrink.None<Morning>> { rng in
            let n = Int.random(in: SoundAfter.range, using: &rng)
            func timing(_ rng: inout any SeededRandomNumberGenerator) -> OutputTiming? {
                switch Int.random(in: 0...3, using: &rng) {
                case 0: nil
                case 1: .now
                case 2: .off
                default: .after(seconds: Int.random(in: 1...(n + 60), using: &rng))
                }
            }
            return Morning(
                seconds: n, shaker: timing(&rng), lamp: timing(&rng), late: Int.random(in: 0...59, using: &rng),
                stopAfter: Int.random(in: 1...1200, using: &rng))
        }
        await propertyCheck(count: 200, input: mornings) { m in
            var alarm = Self.alarm(after: m.seconds, shaker: m.shaker, lamp: m.lamp)
            guard (try? alarm.validate()) != nil else {
                #expect(!alarm.vibratesFirst(OutputName.allCases), "refused only when nothing comes on first: \(m)")
                return
            }
            var d = Drive(alarm, outputs: OutputName.allCases)
            d.advance(60 + Double(m.late))
            let ring = d.rings.first
            #expect(ring != nil, "it rings: \(m)")
            let due = Self.seven.addingTimeInterval(TimeInterval(m.seconds))
            let soundAt = (ring?.at ?? Self.seven).addingTimeInterval(ring?.request.silentFor.inSeconds ?? 0)
            #expect(soundAt >= due, "never before the occurrence + N: \(m)")
            if m.late <= m.seconds { #expect(soundAt == due, "by the occurrence + N: \(m)") }
            let first = OutputName.allCases.compactMap { alarm.ringTiming(of: $0)?.delay }.min()
            #expect(first.map { $0 < .seconds(m.seconds) } == true, "an output before the sound: \(m)")
            let always = OutputName.allCases.filter { alarm.timing(of: $0) == nil || alarm.timing(of: $0) == .now }
            #expect(Set(always) == alarm.outputsOn(OutputName.allCases, after: .zero, atTop: false), "on from the ring: \(m)")
            let stopAt = Self.seven.addingTimeInterval(TimeInterval(m.late + m.stopAfter))
            d.advance(Double(m.stopAfter))
            d.take(d.scheduler.stopPressed(at: d.now))
            if stopAt < soundAt {
                #expect(d.climbs.isEmpty, "stopped in the silent part: no sound, no climb: \(m)")
            }
        }
    }
}
