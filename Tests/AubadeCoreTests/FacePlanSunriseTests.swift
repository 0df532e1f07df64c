import AubadeCore
import Foundation
import Testing

/// A morning of the face plan fed by a real `AlarmScheduler`: the scheduler's sunrises and ringing go into the
/// plan after every event, as `KioskDisplay` does in the daemon.
struct SunriseMorning {
    var scheduler: AlarmScheduler
    var plan: FacePlan
    let origin: Date

    init(
        _ alarms: [Alarm], dim: (String, String)? = ("22:00", "07:00"), level: Int = 5, zone: String = "Europe/Berlin",
        daysOff: [DayOff] = [], origin: String
    ) throws {
        let tz = try Fixture.zone(zone)
        let settings = try NightDimmingSettings(
            from: try dim.map { try Fixture.time($0.0) }, until: try dim.map { try Fixture.time($0.1) }, level: level)
        self.origin = try Fixture.instant(origin)
        scheduler = AlarmScheduler(
            alarms: alarms, states: [], settings: AppSettings(), defaultZone: tz, daysOff: DaysOff(daysOff))
        plan = FacePlan(settings: settings, zone: tz)
        _ = scheduler.start(at: at(self.origin))
    }

    func at(_ wall: Date) -> SchedulerTime {
        SchedulerTime(wall: wall, mono: MonotonicInstant(seconds: 1000 + wall.timeIntervalSince(origin)))
    }

    /// The scheduler's turn at `iso`, then the plan told the sunrises and the ringing.
    mutating func tick(_ iso: String) throws -> FaceDecision {
        tick(at: at(try Fixture.instant(iso)))
    }

    mutating func tick(at now: SchedulerTime) -> FaceDecision {
        _ = scheduler.tick(at: now)
        return follow(now)
    }

    mutating func follow(_ now: SchedulerTime) -> FaceDecision {
        _ = plan.sunrisesChanged(scheduler.sunrises(at: now.wall), at: now)
        if scheduler.ringingAlarmIDs.isEmpty != !plan.isRinging {
            _ = plan.isRinging ? plan.alarmStoppedRinging(at: now) : plan.alarmStartedRinging(at: now)
        }
        return plan.tick(at: now)
    }

    static func alarm(_ time: String, sunrise: Int, days: String = "daily", skip: String? = nil, skipDaysOff: Bool = false)
        throws -> Alarm
    {
        var a = try Fixture.alarm(time, days: days, skip: skip)
        a.sunriseSeconds = sunrise
        a.skipDaysOff = skipDaysOff
        return a
    }
}

@Suite("Face plan: the sunrise curve and colours")
struct SunriseCurveTests {
    @Test func theBacklightRisesFromTheNightLevelToFullOnALightnessCurveNeverFalling() {
        #expect(SunriseCurve.percent(at: 0, from: 5) == 5)
        #expect(SunriseCurve.percent(at: 1, from: 5) == 100)
        #expect(SunriseCurve.percent(at: 1, from: 1) == 100)
        for from in [1, 5, 10, 50, 99, 100] {
            var last = 0
            for i in 0...1000 {
                let p = SunriseCurve.percent(at: Double(i) / 1000, from: from)
                #expect(p >= last && p >= from && p <= 100, "from \(from) at \(i)‰: \(p) after \(last)")
                last = p
            }
        }
        // Half-way in lightness is about a fifth of the light: a linear ramp would be at 50 %.
        let half = SunriseCurve.percent(at: 0.5, from: 1)
        #expect((18...26).contains(half), "\(half)")
        #expect(abs(SunriseCurve.lightness(of: SunriseCurve.luminance(of: 42)) - 42) < 1e-9)
    }

    @Test func theSkyGoesFromTheNightFaceThroughDeepRedAndOrangeToWarmWhite() {
        #expect(SunriseCurve.sky(at: 0) == "#07050A")
        #expect(SunriseCurve.sky(at: 0.3) == "#5C0A04")
        #expect(SunriseCurve.sky(at: 0.6) == "#E05A12")
        #expect(SunriseCurve.sky(at: 1) == "#FFF1D8")
        #expect(SunriseCurve.sky(at: -1) == "#07050A" && SunriseCurve.sky(at: 2) == "#FFF1D8")
        var red = 0
        for i in 0...100 {
            let r = Int(SunriseCurve.sky(at: Double(i) / 100).dropFirst().prefix(2), radix: 16)!
            #expect(r >= red)
            red = r
        }
        #expect(SunriseCurve.ink(at: 0.2) != SunriseCurve.ink(at: 0.9))
    }
}

@Suite("Face plan: sunrise, night, ringing and touches as one plan")
struct FacePlanSunriseTests {
    @Test func aTwentyMinuteSunriseLeadsFromTheNightToFullAtTheAlarmSecond() throws {
        var m = try SunriseMorning([SunriseMorning.alarm("06:30", sunrise: 1200)], origin: "2026-01-15T05:00:00+01:00")
        let before = try m.tick("2026-01-15T06:09:59+01:00")
        #expect(before.reason == .night && before.target == FaceTarget(dimmed: true, backlightPercent: 5))
        #expect(before.recheckAt == (try Fixture.instant("2026-01-15T06:10:00+01:00")), "the loop comes back at the start")
        // (moment, the backlight in percent, the progress in thousandths)
        let table: [(String, ClosedRange<Int>, Int)] = [
            ("2026-01-15T06:10:00+01:00", 5...5, 5),
            ("2026-01-15T06:15:00+01:00", 15...15, 255),
            ("2026-01-15T06:20:00+01:00", 32...33, 505),
            ("2026-01-15T06:25:00+01:00", 60...61, 755),
            ("2026-01-15T06:29:59+01:00", 100...100, 1000),
        ]
        var last = 0
        for (iso, range, permille) in table {
            let d = try m.tick(iso)
            #expect(d.reason == .sunrise && !d.target.dimmed, "\(iso): \(d)")
            #expect(range.contains(d.target.backlightPercent) && d.target.backlightPercent >= last, "\(iso): \(d)")
            #expect(d.target.sunrise?.permille == permille && d.target.sunrise?.alarmID == 1, "\(iso): \(d)")
            last = d.target.backlightPercent
        }
        let step = try m.tick("2026-01-15T06:20:01+01:00")
        #expect(step.recheckAt == (try Fixture.instant("2026-01-15T06:20:06+01:00")), "200 steps of 6 s")
        let rings = try m.tick("2026-01-15T06:30:00+01:00")
        #expect(rings.reason == .ringing && rings.target == .full)
    }

    @Test func aSunriseHoldsFullUntilTheAlarmIsToldRingingAndAStopReturnsTheFaceToTheNight() throws {
        var m = try SunriseMorning([SunriseMorning.alarm("06:30", sunrise: 600)], origin: "2026-01-15T06:00:00+01:00")
        _ = try m.tick("2026-01-15T06:25:00+01:00")
        // The plan alone, a moment after the alarm's time, before the scheduler's turn: still full, not the night.
        let late = m.at(try Fixture.instant("2026-01-15T06:30:00.400+01:00"))
        _ = m.plan.sunrisesChanged(m.scheduler.sunrises(at: late.wall), at: late)
        let held = m.plan.tick(at: late)
        #expect(held.reason == .sunrise && held.target.backlightPercent == 100)
        #expect(try m.tick("2026-01-15T06:30:01+01:00").reason == .ringing)
        let stop = m.at(try Fixture.instant("2026-01-15T06:31:00+01:00"))
        _ = m.scheduler.stopPressed(at: stop)
        let stopped = m.follow(stop)
        #expect(stopped.reason == .awake && stopped.target.sunrise == nil, "\(stopped)")
        let after = try m.tick("2026-01-15T06:31:31+01:00")
        #expect(after.reason == .night && after.target == FaceTarget(dimmed: true, backlightPercent: 5))
        #expect(m.scheduler.sunrises(at: stop.wall).first?.alarmAt == (try Fixture.instant("2026-01-16T06:30:00+01:00")))
    }

    @Test func aSnoozeDoesNotRestartTheSunrise() throws {
        var m = try SunriseMorning([SunriseMorning.alarm("06:30", sunrise: 600)], origin: "2026-01-15T06:00:00+01:00")
        _ = try m.tick("2026-01-15T06:30:00+01:00")
        let snooze = m.at(try Fixture.instant("2026-01-15T06:30:20+01:00"))
        _ = m.scheduler.snoozePressed(at: snooze)
        #expect(m.follow(snooze).reason == .awake)
        for minute in 31...38 {
            let d = try m.tick("2026-01-15T06:\(minute):00+01:00")
            #expect(d.reason == .night, "06:\(minute) during the snooze: \(d)")
        }
        #expect(try m.tick("2026-01-15T06:39:20+01:00").reason == .ringing, "the snooze ends: ringing, no sunrise before")
    }

    @Test func aSkippedOccurrenceAndADayOffHaveNoSunrise() throws {
        var skip = try SunriseMorning(
            [SunriseMorning.alarm("06:30", sunrise: 1200, skip: "2026-01-15")], origin: "2026-01-15T05:00:00+01:00")
        #expect(try skip.tick("2026-01-15T06:20:00+01:00").reason == .night)
        #expect(try skip.tick("2026-01-15T06:30:00+01:00").reason == .night)
        #expect(try skip.tick("2026-01-16T06:20:00+01:00").reason == .sunrise, "the next day's has one")

        let holiday = DayOff(first: try Fixture.date("2026-01-15"), last: try Fixture.date("2026-01-15"), name: "Holiday")
        var off = try SunriseMorning(
            [SunriseMorning.alarm("06:30", sunrise: 1200, skipDaysOff: true)], daysOff: [holiday],
            origin: "2026-01-15T05:00:00+01:00")
        #expect(try off.tick("2026-01-15T06:20:00+01:00").reason == .night)
        #expect(try off.tick("2026-01-16T06:20:00+01:00").reason == .sunrise)
    }

    @Test func aTouchDuringASunriseBrightensItAndTheNightsEndNeverDimsIt() throws {
        var m = try SunriseMorning([SunriseMorning.alarm("07:10", sunrise: 1200)], origin: "2026-01-15T06:00:00+01:00")
        let early = try m.tick("2026-01-15T06:51:00+01:00")
        #expect(early.reason == .sunrise && early.target.backlightPercent < 50)
        let touch = m.plan.touched(at: m.at(try Fixture.instant("2026-01-15T06:51:01+01:00")))
        #expect(touch.reason == .sunrise && touch.target.backlightPercent == 50)
        let day = try m.tick("2026-01-15T07:00:00+01:00")
        #expect(day.reason == .sunrise && day.target.backlightPercent == 100, "the night ended: full, still the sunrise's face")
        #expect(try m.tick("2026-01-15T07:05:00+01:00").target.backlightPercent == 100)
    }

    @Test func aSunriseThatStartsByDayKeepsTheScreenFullAndOnlyColoursTheFace() throws {
        var m = try SunriseMorning(
            [SunriseMorning.alarm("22:10", sunrise: 1200)], origin: "2026-01-15T21:00:00+01:00")
        for iso in ["2026-01-15T21:50:00+01:00", "2026-01-15T22:00:00+01:00", "2026-01-15T22:09:00+01:00"] {
            let d = try m.tick(iso)
            #expect(d.reason == .sunrise && d.target.backlightPercent == 100, "\(iso): \(d)")
        }
        var off = try SunriseMorning(
            [SunriseMorning.alarm("06:30", sunrise: 1200)], dim: nil, origin: "2026-01-15T05:00:00+01:00")
        let d = try off.tick("2026-01-15T06:11:00+01:00")
        #expect(d.reason == .sunrise && d.target.backlightPercent == 100 && d.target.sunrise != nil)
    }

    @Test func onTheSpringNightTheSunriseLeadsInRealTimeToTheAlarmThatTheGapShifts() throws {
        // 02:30 does not exist on 2026-03-29 in Berlin: the alarm rings at 03:30 CEST (R2).
        var m = try SunriseMorning([SunriseMorning.alarm("02:30", sunrise: 1800)], origin: "2026-03-29T00:00:00+01:00")
        let sunrise = try #require(m.scheduler.sunrises(at: try Fixture.instant("2026-03-29T01:00:00+01:00")).first)
        #expect(sunrise.alarmAt == (try Fixture.instant("2026-03-29T03:30:00+02:00")))
        #expect(sunrise.startsAt == (try Fixture.instant("2026-03-29T03:00:00+02:00")), "30 real minutes, after the gap")
        #expect(try m.tick("2026-03-29T01:59:59+01:00").reason == .night)
        let start = try m.tick("2026-03-29T03:00:00+02:00")
        #expect(start.reason == .sunrise && start.target.sunrise?.permille == 5)
        #expect(try m.tick("2026-03-29T03:15:00+02:00").target.sunrise?.permille == 505)
    }

    @Test func onTheAutumnNightTheSunriseRunsItsLeadInRealTimeAcrossTheRepeatedHour() throws {
        // 02:30 comes twice on 2026-10-25 in Berlin: the alarm rings at the first, 02:30 CEST (R3).
        var m = try SunriseMorning([SunriseMorning.alarm("02:30", sunrise: 3600)], origin: "2026-10-24T23:00:00+02:00")
        #expect(try m.tick("2026-10-25T01:29:59+02:00").reason == .night)
        let start = try m.tick("2026-10-25T01:30:00+02:00")
        #expect(start.reason == .sunrise && start.target.sunrise?.permille == 5)
        let half = try m.tick("2026-10-25T02:00:00+02:00")
        #expect(half.target.sunrise?.permille == 505)
        #expect(try m.tick("2026-10-25T02:30:00+02:00").reason == .ringing)
        let stop = m.at(try Fixture.instant("2026-10-25T02:31:00+02:00"))
        _ = m.scheduler.stopPressed(at: stop)
        _ = m.follow(stop)
        // The second 02:30 (CET) is the same occurrence: no second sunrise in the repeated hour.
        #expect(try m.tick("2026-10-25T02:10:00+01:00").reason == .night)
        #expect(try m.tick("2026-10-25T02:30:00+01:00").reason == .night)
    }
}
