import AubadeCore
import Foundation
import Testing

/// A simulated evening and night of the kiosk: the wall clock read from ISO times, the monotonic clock
/// moving with it (no steps unless a test makes one).
struct DimmingRun {
    let origin: Date
    var machine: FacePlan

    init(
        _ from: String?, _ until: String?, level: Int = 10, zone: String = "Europe/Berlin",
        origin: String = "2026-01-14T12:00:00+01:00"
    ) throws {
        let settings = try NightDimmingSettings(
            from: try from.map { try Fixture.time($0) },
            until: try until.map { try Fixture.time($0) }, level: level)
        self.origin = try Fixture.instant(origin)
        machine = FacePlan(settings: settings, zone: try Fixture.zone(zone))
    }

    /// The time at `iso`, with the monotonic clock 1000 s + the wall time since the origin.
    func at(_ iso: String) throws -> SchedulerTime {
        let wall = try Fixture.instant(iso)
        return SchedulerTime(wall: wall, mono: MonotonicInstant(seconds: 1000 + wall.timeIntervalSince(origin)))
    }

    mutating func tick(_ iso: String) throws -> FaceDecision {
        machine.tick(at: try at(iso))
    }
}

extension FaceTarget {
    static func night(_ level: Int) -> FaceTarget { FaceTarget(dimmed: true, backlightPercent: level) }
    static func awake(_ level: Int) -> FaceTarget { FaceTarget(dimmed: false, backlightPercent: level) }
}

@Suite("Night dimming: the schedule across a day")
struct NightDimmingDayTests {
    @Test func aWindowAcrossMidnightDimsFromItsStartUntilItsEndAndSaysWhenToLookAgain() throws {
        var run = try DimmingRun("22:00", "07:00")
        let noon = try run.tick("2026-01-14T12:00:00+01:00")
        #expect(noon.target == .full)
        #expect(noon.reason == .day)
        #expect(noon.changed)
        #expect(noon.recheckAt == (try Fixture.instant("2026-01-14T22:00:00+01:00")))
        #expect(noon.wakeEndsAt == nil)
        #expect(noon.delay(from: try run.at("2026-01-14T12:00:00+01:00")) == .seconds(10 * 3600))

        let justBefore = try run.tick("2026-01-14T21:59:59+01:00")
        #expect(justBefore.target == .full)
        #expect(!justBefore.changed)

        let start = try run.tick("2026-01-14T22:00:00+01:00")
        #expect(start.target == .night(10))
        #expect(start.reason == .night)
        #expect(start.changed)
        #expect(start.recheckAt == (try Fixture.instant("2026-01-15T07:00:00+01:00")))

        for inside in [
            "2026-01-14T23:30:00+01:00", "2026-01-15T00:00:00+01:00", "2026-01-15T03:00:00+01:00",
            "2026-01-15T06:59:59+01:00",
        ] {
            let d = try run.tick(inside)
            #expect(d.target == .night(10), "\(inside)")
            #expect(!d.changed, "\(inside)")
            #expect(d.recheckAt == (try Fixture.instant("2026-01-15T07:00:00+01:00")), "\(inside)")
        }

        let end = try run.tick("2026-01-15T07:00:00+01:00")
        #expect(end.target == .full)
        #expect(end.reason == .day)
        #expect(end.changed)
        #expect(end.recheckAt == (try Fixture.instant("2026-01-15T22:00:00+01:00")))
    }

    @Test func aWindowWithinOneDayDimsOnlyBetweenItsTimesAndNextStartsTomorrow() throws {
        var run = try DimmingRun("13:00", "15:30", level: 40)
        #expect(try run.tick("2026-01-14T12:59:00+01:00").target == .full)
        #expect(try run.tick("2026-01-14T13:00:00+01:00").target == .night(40))
        #expect(try run.tick("2026-01-14T15:29:59+01:00").target == .night(40))
        let after = try run.tick("2026-01-14T15:30:00+01:00")
        #expect(after.target == .full)
        #expect(after.recheckAt == (try Fixture.instant("2026-01-15T13:00:00+01:00")))
        let lateEvening = try run.tick("2026-01-14T23:59:00+01:00")
        #expect(lateEvening.target == .full)
        #expect(lateEvening.recheckAt == (try Fixture.instant("2026-01-15T13:00:00+01:00")))
    }

    @Test func aWindowStartingAfterMidnightDimsThatNightOnly() throws {
        var run = try DimmingRun("00:30", "06:00")
        #expect(try run.tick("2026-01-14T23:00:00+01:00").recheckAt == (try Fixture.instant("2026-01-15T00:30:00+01:00")))
        #expect(try run.tick("2026-01-15T00:29:59+01:00").target == .full)
        #expect(try run.tick("2026-01-15T00:30:00+01:00").target == .night(10))
        #expect(try run.tick("2026-01-15T06:00:00+01:00").target == .full)
    }

    @Test func withDimmingOffTheScreenIsAlwaysFullAndNothingIsScheduled() throws {
        for (from, until) in [(nil, "07:00"), ("22:00", nil), (nil, nil)] as [(String?, String?)] {
            var run = try DimmingRun(from, until)
            for time in ["2026-01-14T12:00:00+01:00", "2026-01-14T23:00:00+01:00", "2026-01-15T03:00:00+01:00"] {
                let d = try run.tick(time)
                #expect(d.target == .full)
                #expect(d.reason == .off)
                #expect(d.recheckAt == nil)
                #expect(d.delay(from: try run.at(time)) == nil)
            }
            #expect(!run.machine.settings.isOn)
        }
    }

    @Test func level100DimsThePageButLeavesTheBacklightAtFull() throws {
        var run = try DimmingRun("22:00", "07:00", level: 100)
        let d = try run.tick("2026-01-14T23:00:00+01:00")
        #expect(d.target == FaceTarget(dimmed: true, backlightPercent: 100))
    }

    @Test func changedSettingsApplyAtOnce() throws {
        var run = try DimmingRun("22:00", "07:00")
        #expect(try run.tick("2026-01-14T23:00:00+01:00").target == .night(10))
        let brighter = run.machine.settingsChanged(
            try NightDimmingSettings(
                from: try Fixture.time("22:00"),
                until: try Fixture.time("07:00"), level: 25),
            at: try run.at("2026-01-14T23:00:01+01:00"))
        #expect(brighter.target == .night(25))
        #expect(brighter.changed)
        let later = run.machine.settingsChanged(
            try NightDimmingSettings(
                from: try Fixture.time("23:30"),
                until: try Fixture.time("06:00"), level: 25),
            at: try run.at("2026-01-14T23:00:02+01:00"))
        #expect(later.target == .full)
        #expect(later.reason == .day)
        #expect(later.recheckAt == (try Fixture.instant("2026-01-14T23:30:00+01:00")))
        let off = run.machine.settingsChanged(NightDimmingSettings(), at: try run.at("2026-01-14T23:45:00+01:00"))
        #expect(off.target == .full)
        #expect(off.reason == .off)
    }

    @Test func aNewZoneMovesTheNight() throws {
        var run = try DimmingRun("22:00", "07:00")
        // 23:00 in Berlin is 17:00 in New York.
        #expect(try run.tick("2026-01-14T23:00:00+01:00").target == .night(10))
        let moved = run.machine.zoneChanged(try Fixture.zone("America/New_York"), at: try run.at("2026-01-14T23:00:00+01:00"))
        #expect(moved.target == .full)
        #expect(moved.changed)
        #expect(moved.recheckAt == (try Fixture.instant("2026-01-14T22:00:00-05:00")))
    }
}

@Suite("Night dimming: a ringing alarm and a touch")
struct NightDimmingEventTests {
    @Test func anAlarmRingingInTheNightUndimsAtOnceAndTheNightResumesAfterIt() throws {
        var run = try DimmingRun("22:00", "07:00")
        #expect(try run.tick("2026-01-15T06:29:00+01:00").target == .night(10))

        let rings = run.machine.alarmStartedRinging(at: try run.at("2026-01-15T06:30:00+01:00"))
        #expect(rings.target == .full)
        #expect(rings.reason == .ringing)
        #expect(rings.changed)
        #expect(rings.recheckAt == nil)
        #expect(rings.wakeEndsAt == nil)

        // Neither the schedule, a touch, a second alarm nor a new level dims it while it rings.
        #expect(try run.tick("2026-01-15T06:31:00+01:00").target == .full)
        #expect(run.machine.touched(at: try run.at("2026-01-15T06:32:00+01:00")).target == .full)
        #expect(run.machine.alarmStartedRinging(at: try run.at("2026-01-15T06:33:00+01:00")).changed == false)
        let level = try NightDimmingSettings(from: try Fixture.time("22:00"), until: try Fixture.time("07:00"), level: 1)
        #expect(run.machine.settingsChanged(level, at: try run.at("2026-01-15T06:34:00+01:00")).target == .full)

        // Stopped at 06:40: awake for 30 s (whoever pressed Stop sees what happened), then dim again.
        let stopped = run.machine.alarmStoppedRinging(at: try run.at("2026-01-15T06:40:00+01:00"))
        #expect(stopped.target == .awake(50))
        #expect(stopped.reason == .awake)
        #expect(stopped.wakeEndsAt == (try run.at("2026-01-15T06:40:30+01:00")).mono)
        #expect(stopped.delay(from: try run.at("2026-01-15T06:40:00+01:00")) == .seconds(30))
        let stillAwake = try run.tick("2026-01-15T06:40:29+01:00")
        #expect(stillAwake.target == .awake(50))
        #expect(!stillAwake.changed)
        let dimAgain = try run.tick("2026-01-15T06:40:30+01:00")
        #expect(dimAgain.target == .night(1))
        #expect(dimAgain.changed)
        #expect(try run.tick("2026-01-15T07:00:00+01:00").target == .full)
    }

    @Test func anAlarmStillRingingWhenTheNightBeginsKeepsTheScreenBright() throws {
        var run = try DimmingRun("22:00", "07:00")
        _ = run.machine.alarmStartedRinging(at: try run.at("2026-01-14T21:59:00+01:00"))
        let start = try run.tick("2026-01-14T22:00:00+01:00")
        #expect(start.target == .full)
        #expect(start.reason == .ringing)
        _ = run.machine.alarmStoppedRinging(at: try run.at("2026-01-14T22:05:00+01:00"))
        #expect(try run.tick("2026-01-14T22:05:30+01:00").target == .night(10))
    }

    @Test func ringingWithDimmingOffOrByDayIsFullAndStoppingChangesNothingVisible() throws {
        var off = try DimmingRun(nil, "07:00")
        #expect(off.machine.alarmStartedRinging(at: try off.at("2026-01-15T03:00:00+01:00")).target == .full)
        let offStopped = off.machine.alarmStoppedRinging(at: try off.at("2026-01-15T03:10:00+01:00"))
        #expect(offStopped.target == .full)
        #expect(offStopped.reason == .off)
        #expect(!offStopped.changed)

        var day = try DimmingRun("22:00", "07:00")
        _ = try day.tick("2026-01-15T09:00:00+01:00")
        #expect(day.machine.alarmStartedRinging(at: try day.at("2026-01-15T09:00:00+01:00")).changed == false)
        let dayStopped = day.machine.alarmStoppedRinging(at: try day.at("2026-01-15T09:05:00+01:00"))
        #expect(dayStopped.target == .full)
        #expect(dayStopped.reason == .day)
    }

    @Test func aStopWithoutARingingAlarmDoesNotWakeTheScreen() throws {
        var run = try DimmingRun("22:00", "07:00")
        let d = run.machine.alarmStoppedRinging(at: try run.at("2026-01-14T23:00:00+01:00"))
        #expect(d.target == .night(10))
        #expect(run.machine.awakeUntil == nil)
    }

    @Test func aTouchAtNightWakesTheScreenForThirtySecondsFromTheLastTouch() throws {
        var run = try DimmingRun("22:00", "07:00")
        #expect(try run.tick("2026-01-14T23:00:00+01:00").target == .night(10))
        let touch = run.machine.touched(at: try run.at("2026-01-14T23:00:10+01:00"))
        #expect(touch.target == .awake(50))
        #expect(touch.reason == .awake)
        #expect(touch.changed)
        #expect(touch.recheckAt == (try Fixture.instant("2026-01-15T07:00:00+01:00")))
        #expect(touch.wakeEndsAt == (try run.at("2026-01-14T23:00:40+01:00")).mono)
        let again = run.machine.touched(at: try run.at("2026-01-14T23:00:30+01:00"))
        #expect(!again.changed)
        #expect(again.wakeEndsAt == (try run.at("2026-01-14T23:01:00+01:00")).mono)
        #expect(try run.tick("2026-01-14T23:00:59+01:00").target == .awake(50))
        let dims = try run.tick("2026-01-14T23:01:00+01:00")
        #expect(dims.target == .night(10))
        #expect(dims.wakeEndsAt == nil)
        #expect(run.machine.awakeUntil == nil)
    }

    @Test func awakeTheBacklightIsNeverBelowTheNightLevel() throws {
        var run = try DimmingRun("22:00", "07:00", level: 70)
        #expect(run.machine.touched(at: try run.at("2026-01-14T23:00:00+01:00")).target == .awake(70))
    }

    @Test func aTouchJustBeforeTheNightKeepsTheScreenAwakeIntoIt() throws {
        var run = try DimmingRun("22:00", "07:00")
        let touch = run.machine.touched(at: try run.at("2026-01-14T21:59:50+01:00"))
        #expect(touch.target == .full)
        #expect(touch.reason == .day)
        #expect(touch.delay(from: try run.at("2026-01-14T21:59:50+01:00")) == .seconds(10))
        #expect(try run.tick("2026-01-14T22:00:00+01:00").target == .awake(50))
        #expect(try run.tick("2026-01-14T22:00:20+01:00").target == .night(10))
    }

    @Test func theWakePeriodRunsOnTheMonotonicClockWhateverTheWallClockDoes() throws {
        var run = try DimmingRun("22:00", "07:00")
        let wall = try Fixture.instant("2026-01-14T23:00:00+01:00")
        let mono = MonotonicInstant(seconds: 5000)
        _ = run.machine.touched(at: SchedulerTime(wall: wall, mono: mono))
        // The wall clock steps back an hour (still night) while 31 s pass: the wake period is over.
        let stepped = run.machine.tick(
            at: SchedulerTime(
                wall: wall.addingTimeInterval(-3600 + 31),
                mono: mono + .seconds(31)))
        #expect(stepped.target == .night(10))
        // And a step forward of a day does not end a wake period early.
        _ = run.machine.touched(at: SchedulerTime(wall: wall, mono: mono + .seconds(40)))
        let forward = run.machine.tick(at: SchedulerTime(wall: wall.addingTimeInterval(86_400), mono: mono + .seconds(41)))
        #expect(forward.target == .awake(50))
    }

    @Test func peekingAtTheTargetRecordsNothing() throws {
        var run = try DimmingRun("22:00", "07:00")
        #expect(run.machine.target(at: try run.at("2026-01-14T23:00:00+01:00")) == .night(10))
        #expect(run.machine.lastTarget == nil)
        #expect(try run.tick("2026-01-14T23:00:00+01:00").changed)
    }
}
