import AubadeCore
import Foundation
import PropertyBased
import Testing

/// The daily self-test's schedule: once a local day from the user's hour, in the daytime only, never while an alarm
/// rings or a sleep timer runs, never within 15 minutes of an alarm.
@Suite("Self-test schedule")
struct SelfTestScheduleTests {
    static let berlin = ZoneCalendar(TimeZone(identifier: "Europe/Berlin")!)
    static let schedule = SelfTestSchedule(hour: 14)!

    static func at(_ date: String, _ time: String) -> Date {
        berlin.instant(of: try! LocalDate(parsing: date), at: try! LocalTime(parsing: time))
    }

    @Test func onlyDaytimeHoursAreAccepted() {
        #expect(SelfTestSchedule(hour: 7) == nil)
        #expect(SelfTestSchedule(hour: 21) == nil)
        #expect(SelfTestSchedule(hour: 8)?.hour == 8)
        #expect(SelfTestSchedule(hour: 20)?.hour == 20)
    }

    @Test func beforeItsHourItWaitsForItAndAtItsHourItRuns() {
        let s = Self.schedule
        #expect(
            s.decide(now: Self.at("2026-03-10", "09:12"), calendar: Self.berlin, situation: .init())
                == .wait(until: Self.at("2026-03-10", "14:00")))
        #expect(s.decide(now: Self.at("2026-03-10", "14:00"), calendar: Self.berlin, situation: .init()) == .runNow)
        #expect(
            s.decide(now: Self.at("2026-03-10", "17:30"), calendar: Self.berlin, situation: .init()) == .runNow,
            "late in the day it still runs")
    }

    @Test func onceADayAndNeverAtNight() {
        let s = Self.schedule
        let done = try! LocalDate(parsing: "2026-03-10")
        #expect(
            s.decide(now: Self.at("2026-03-10", "15:00"), calendar: Self.berlin, situation: .init(lastRun: done))
                == .wait(until: Self.at("2026-03-11", "14:00")))
        #expect(
            s.decide(now: Self.at("2026-03-10", "21:00"), calendar: Self.berlin, situation: .init())
                == .wait(until: Self.at("2026-03-11", "14:00")), "not run by 21:00: the next day")
        #expect(
            s.decide(now: Self.at("2026-03-10", "02:00"), calendar: Self.berlin, situation: .init())
                == .wait(until: Self.at("2026-03-10", "14:00")))
    }

    @Test func neverDuringAnAlarmOrASleepTimerNorCloseToAnAlarm() {
        let s = Self.schedule
        let now = Self.at("2026-03-10", "14:00")
        #expect(
            s.decide(now: now, calendar: Self.berlin, situation: .init(alarmRinging: true))
                == .wait(until: Self.at("2026-03-10", "14:10")))
        #expect(
            s.decide(now: now, calendar: Self.berlin, situation: .init(sleepTimerRunning: true))
                == .wait(until: Self.at("2026-03-10", "14:10")))
        #expect(
            s.decide(now: now, calendar: Self.berlin, situation: .init(playing: true))
                == .wait(until: Self.at("2026-03-10", "14:10")), "nor while the radio or anything else plays")
        #expect(
            s.decide(now: now, calendar: Self.berlin, situation: .init(alarms: [Self.at("2026-03-10", "14:05")]))
                == .wait(until: Self.at("2026-03-10", "14:20")))
        #expect(
            s.decide(now: now, calendar: Self.berlin, situation: .init(alarms: [Self.at("2026-03-10", "13:50")]))
                == .wait(until: Self.at("2026-03-10", "14:05")), "nor just after one")
        #expect(
            s.decide(
                now: now, calendar: Self.berlin,
                situation: .init(alarms: [Self.at("2026-03-10", "14:05"), Self.at("2026-03-10", "14:25")]))
                == .wait(until: Self.at("2026-03-10", "14:40")), "past each alarm it comes close to")
        #expect(
            s.decide(now: Self.at("2026-03-10", "20:55"), calendar: Self.berlin, situation: .init(alarmRinging: true))
                == .wait(until: Self.at("2026-03-11", "14:00")), "a retry that falls into the night waits for the next day")
    }

    @Test func onTheDayTheClocksGoForwardItsHourIsStillItsHour() {
        let s = SelfTestSchedule(hour: 8)!
        #expect(
            s.decide(now: Self.at("2026-03-29", "01:00"), calendar: Self.berlin, situation: .init())
                == .wait(until: Self.at("2026-03-29", "08:00")))
    }

    struct Situation: Sendable, CustomStringConvertible {
        var hour: Int
        var now: Date
        var ringing: Bool
        var sleeping: Bool
        var playing: Bool
        var alarms: [Date]
        var ranToday: Bool
        var description: String {
            "hour \(hour) now \(now) ringing \(ringing) sleep \(sleeping) playing \(playing) alarms \(alarms) ranToday \(ranToday)"
        }
    }

    @Test("whatever the situation it runs only in its window, clear of alarms and sleep timers, and always waits forward")
    func theDecisionKeepsItsRules() async {
        let gen = Generator<Situation, Shrink.None<Situation>> { rng in
            let now = Date(timeIntervalSince1970: Double.random(in: 1_770_000_000...1_800_000_000, using: &rng).rounded())
            let alarms = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
                now + Double(Int.random(in: -3600...7200, using: &rng))
            }
            return Situation(
                hour: Int.random(in: 8...20, using: &rng), now: now, ringing: Int.random(in: 0...4, using: &rng) == 0,
                sleeping: Int.random(in: 0...4, using: &rng) == 0, playing: Int.random(in: 0...4, using: &rng) == 0,
                alarms: alarms,
                ranToday: Int.random(in: 0...3, using: &rng) == 0)
        }
        await propertyCheck(count: 500, input: gen) { c in
            let s = SelfTestSchedule(hour: c.hour)!
            let today = Self.berlin.localDate(of: c.now)!
            let situation = SelfTestSchedule.Situation(
                alarmRinging: c.ringing, sleepTimerRunning: c.sleeping, playing: c.playing, alarms: c.alarms,
                lastRun: c.ranToday ? today : nil)
            switch s.decide(now: c.now, calendar: Self.berlin, situation: situation) {
            case .runNow:
                let local = Self.berlin.instant(of: today, at: try! LocalTime(hour: c.hour, minute: 0))
                #expect(c.now >= local, "not before its hour")
                #expect(c.now < Self.berlin.instant(of: today, at: try! LocalTime(hour: 21, minute: 0)), "not at night")
                #expect(!c.ringing && !c.sleeping && !c.playing && !c.ranToday)
                #expect(c.alarms.allSatisfy { abs($0.timeIntervalSince(c.now)) >= SelfTestSchedule.clearance }, "clear of alarms")
            case .wait(let until):
                #expect(until > c.now, "it always waits forward")
                #expect(until <= c.now + 2 * 86_400)
            }
        }
    }
}
